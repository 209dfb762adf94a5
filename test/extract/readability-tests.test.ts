/**
 * The reordered Readability tests (src/extract/html/choose/readability-tests.ts) must answer as
 * Readability's own do, node for node: each is run beside the original on every element of
 * pages built to hit their edge cases.
 */
import { Readability } from '@mozilla/readability';
import { describe, expect, it } from 'vitest';
import type { DomElement } from '../../src/extract/html/dom.js';
import { hasVisibleText, lightenReadability } from '../../src/extract/html/choose/readability-tests.js';
import { parseDocument } from '../../src/extract/html/read/parse.js';

type Test = (node: DomElement, matchString?: string) => boolean;

const EDGE_CASES = `<!DOCTYPE html><html><head><title>t</title></head><body>
  <div id="blank"> \n\t&nbsp; </div>
  <div id="breaks"><br><hr> <br></div>
  <div id="nested-blank"><span> </span><b><i>\u00a0</i></b></div>
  <div id="nested-text"><span> </span><b><i>x</i></b></div>
  <div id="mixed"><br><span></span></div>
  <section id="bom">\ufeff\u2028</section>
  <p class="byline">By A. Writer</p>
  <p rel="author">A. Writer</p>
  <span itemprop="author name">A. Writer</span>
  <div class="byline">${'long text '.repeat(20)}</div>
  <div class="author-box"> </div>
  <a class="writtenby" href="/a">Someone</a>
  <div style="display:none">hidden by style</div>
  <div style="visibility: hidden">invisible</div>
  <div style="DISPLAY: none">upper-case property</div>
  <div style="color: red">styled</div>
  <div hidden>hidden attribute</div>
  <div aria-hidden="true">aria hidden</div>
  <div aria-hidden="true" class="mwe-math-fallback-image-inline">math</div>
  <div aria-hidden="false">shown</div>
  <svg><g><text>vector</text></g></svg>
</body></html>`;

function originals(): { byline: Test; empty: Test; visible: Test; reader: object } {
  const doc = parseDocument(EDGE_CASES);
  const reader = new Readability(doc as never) as unknown as Record<string, Test>;
  return {
    byline: reader['_isValidByline']!.bind(reader),
    empty: reader['_isElementWithoutContent']!.bind(reader),
    visible: reader['_isProbablyVisible']!.bind(reader),
    reader,
  };
}

describe('reordered Readability tests', () => {
  it('answer as the originals on every element', () => {
    const before = originals();
    const after = originals();
    lightenReadability(after.reader);
    const patched = after.reader as unknown as Record<string, Test>;
    const doc = parseDocument(EDGE_CASES);
    const elements = Array.from(doc.querySelectorAll('*'));
    expect(elements.length).toBeGreaterThan(20);
    let bylines = 0;
    for (const element of elements) {
      const matchString = `${element.getAttribute('class') ?? ''} ${element.getAttribute('id') ?? ''}`;
      const expected = before.byline(element, matchString);
      if (expected) bylines++;
      expect(patched['_isValidByline']!(element, matchString), element.outerHTML).toBe(expected);
      expect(patched['_isElementWithoutContent']!(element), element.outerHTML).toBe(before.empty(element));
      // Readability's own answer may be '' (a falsy class name); it is only ever a condition.
      expect(Boolean(patched['_isProbablyVisible']!(element)), element.outerHTML).toBe(
        Boolean(before.visible(element)),
      );
    }
    // The page exercises both answers of each test.
    expect(bylines).toBeGreaterThanOrEqual(3);
    const ids = (test: Test): string[] =>
      elements
        .filter((element) => test(element))
        .map((element) => element.id)
        .filter(Boolean);
    // Blank, or holding only line breaks and rules; a blank <span> is content to this test.
    expect(ids(before.empty)).toEqual(expect.arrayContaining(['blank', 'breaks', 'bom']));
    for (const id of ['nested-blank', 'nested-text', 'mixed']) expect(ids(before.empty)).not.toContain(id);
    expect(elements.filter((element) => !before.visible(element)).length).toBeGreaterThanOrEqual(4);
  });

  it('hasVisibleText stops at the first character that is not white space', () => {
    const doc = parseDocument(
      '<div id="a"> <!-- comment text --> <span>\u00a0</span></div><div id="b"><i></i><b> y </b></div>',
    );
    expect(hasVisibleText(doc.querySelector('#a')!)).toBe(false);
    expect(hasVisibleText(doc.querySelector('#b')!)).toBe(true);
  });

  it.each([
    ['without a <base> (no URL to resolve against)', ''],
    ['with an absolute <base>', '<base href="https://example.test/dir/">'],
    ['with a relative <base>', '<base href="/dir/">'],
  ])('resolves links and pictures as the original does, %s', (_name, base) => {
    const page = `<!DOCTYPE html><html><head><title>t</title>${base}</head><body><div id="content">
      <a href="/about">about</a> <a href="https://other.test/x?y=1#z">absolute</a> <a href="#notes">notes</a>
      <a href="javascript:void(0)">text only</a> <a href="javascript:open()"><b>bold</b> and text</a> <a href="JAVASCRIPT:x()">upper</a>
      <a href="">empty</a> <a>none</a> <a href="http://[bad">broken</a>
      <img src="pic.jpg" srcset="a.jpg 1x, /b.jpg 2x,https://c.test/c.jpg 640w"> <video poster="p.png" src="v.mp4"></video>
      <picture><source srcset="s.webp"><img src="//cdn.test/i.png"></picture></div></body></html>`;
    const run = (patched: boolean): string => {
      const doc = parseDocument(page);
      const reader = new Readability(doc as never) as unknown as { _fixRelativeUris: (content: DomElement) => void };
      if (patched) lightenReadability(reader);
      const content = doc.querySelector('#content')!;
      reader._fixRelativeUris(content);
      return content.outerHTML;
    };
    const original = run(false);
    expect(run(true)).toBe(original);
    expect(original).not.toContain('javascript:void');
    expect(original).toContain('<b>bold</b> and text');
  });

  it('gathers the same elements by tag, in the same order, as the original', () => {
    const page = `<!DOCTYPE html><html><head><title>t</title><style>p{}</style><script>1</script></head><body>
      <H1 id="upper">Title</H1><div><h2>a</h2><p>one <a href="/x">x</a><br><FONT>old</FONT></p>
      <table><tr><td><p>cell <a>y</a></p><ul><li><ol><li>deep</li></ol></li></ul></td></tr></table></div>
      <figure><picture><source srcset="s.webp"><img src="i.png"></picture></figure><noscript><img src="n.png"></noscript>
      <svg><a href="/svg-link"><text>in svg</text></a></svg><template><p>in template</p></template>
      <iframe src="/f"></iframe><object data="o"></object><embed src="e"><h2>b</h2><br></body></html>`;
    // Every tag list Readability 0.6 passes, and one tag at a time (its _clean).
    const lists = [
      ['a'],
      ['h1', 'h2'],
      ['style'],
      ['font'],
      ['br'],
      ['h1'],
      ['p'],
      ['img', 'embed', 'object', 'iframe'],
      ['table'],
      ['script'],
      ['script', 'noscript'],
      ['img', 'picture', 'figure'],
      ['img', 'picture'],
      ['ul', 'ol'],
      ['object', 'embed', 'iframe'],
      ['li'],
      ['H2'],
    ];
    const doc = parseDocument(page);
    const original = new Readability(doc as never) as unknown as {
      _getAllNodesWithTag: (node: unknown, tags: string[]) => ArrayLike<DomElement>;
    };
    const patched = new Readability(doc as never) as unknown as typeof original;
    lightenReadability(patched);
    const roots = [doc, doc.body!, doc.querySelector('table')!, doc.querySelector('svg')!];
    let found = 0;
    for (const root of roots) {
      for (const tags of lists) {
        const expected = Array.from(original._getAllNodesWithTag(root, tags));
        found += expected.length;
        expect(
          Array.from(patched._getAllNodesWithTag(root, tags)),
          `${tags.join(',')} under ${(root as DomElement).localName ?? 'the document'}`,
        ).toEqual(expected);
      }
    }
    expect(found).toBeGreaterThan(40);
  });

  it('leaves an instance of another shape alone', () => {
    const stranger = { REGEXPS: {}, _isValidByline: 1 };
    lightenReadability(stranger);
    expect(stranger._isValidByline).toBe(1);
  });
});
