/**
 * The input bounds' pre-scan: counts as the tree builder would nest, flattens past the depth
 * bound (no text lost), cuts before the tag past the element bound, and stays linear on
 * hostile shapes.
 */
import { parseHTML } from 'linkedom';
import { describe, expect, it } from 'vitest';
import { HTML_BOUNDS, boundHtml, measureHtml } from '../../src/extract/html/read/input-bounds.js';
import { htmlToMarkdown } from '../../src/extract/html/html-to-markdown.js';
import { ARTICLE_HTML } from '../helpers/fixture-pages.js';

const bounds = { maxElements: 10, maxDepth: 3 };

describe('measureHtml', () => {
  it('counts start tags and the deepest nesting, void elements and end tags included', () => {
    expect(measureHtml('<html><body><div><p>a<br>b</p><img src=x></div></body></html>')).toEqual({
      elements: 6,
      depth: 4,
      flattened: 0,
      cutAt: -1,
      capitalNames: false,
      classes: '',
      ids: '',
    });
  });

  it('closes what HTML closes implicitly: sibling <li>, <p> before a block, stray end tags', () => {
    expect(measureHtml('<ul><li>a<li>b<li>c</ul>').depth).toBe(2);
    expect(measureHtml('<p>a<p>b<div>c</div>').depth).toBe(1);
    expect(measureHtml('<div></span></b></div><div>x</div>').depth).toBe(1);
    expect(measureHtml('<table><tr><td>a<td>b<tr><td>c</table>').depth).toBe(3);
  });

  it('skips comments, doctypes, raw text and quoted ">" in attributes', () => {
    const html =
      '<!doctype html><!-- <div><div> --><script>var s = "<div><div><div>";</script><a title="a>b"><b>x</b></a><style>p>b{}</style>';
    expect(measureHtml(html)).toEqual({
      elements: 4,
      depth: 2,
      flattened: 0,
      cutAt: -1,
      capitalNames: false,
      classes: '',
      ids: '',
    });
    // Raw text ends at its own end tag only: `</scripts` is text, `</SCRIPT\n>` an end.
    expect(measureHtml('<script>a</scripts><div><div></SCRIPT\n><p>x</p>')).toMatchObject({ elements: 2, depth: 1 });
  });

  it('closes elements past the depth bound at once, their content following them', () => {
    const deep = '<div><div><div><div class="x">text<b>bold</b></div>after</div></div></div>';
    const { html, shape } = boundHtml(deep, bounds);
    expect(html).toBe('<div><div><div><div class="x"></div>text<b></b>boldafter</div></div></div>');
    expect(shape).toMatchObject({ depth: 3, flattened: 2, cutAt: -1 });
  });

  it('cuts before the start tag past the element bound', () => {
    const many = '<br>'.repeat(20);
    expect(boundHtml(many, bounds)).toEqual({
      html: '<br>'.repeat(10),
      shape: { elements: 10, depth: 0, flattened: 0, cutAt: 40, capitalNames: false, classes: '', ids: '' },
    });
  });

  it('tells whether an HTML start tag has an attribute name with a capital: not in values, end tags, raw text, comments, SVG or MathML', () => {
    const capital = (html: string): boolean => measureHtml(html).capitalNames;
    for (const html of [
      '<A HREF="/x">a</A>',
      '<td colSpan=2>',
      '<input DISABLED>',
      '<a href="x"TITLE="y">',
      '<p>x</p><svg viewBox="0 0 1 1"></svg><td NOWRAP>',
      '<div data-Role = "x">',
    ]) {
      expect(capital(html), html).toBe(true);
    }
    for (const html of [
      '<a href="/X/Y" title=\'A "B"\'>',
      '<a href=Foo/Bar class=x>',
      '<a href = Foo>',
      '<a title="x=Y">',
      '</div CLASS="x">',
      '<!-- <a HREF=x> -->',
      '<script>window.dataLayer = [];</script><style>.A{}</style>',
      '<svg viewBox="0 0 1 1"><path fillRule="evenodd"/></svg>',
      '<math><mi mathVariant="bold">x</mi></math>',
      '<p>The quick Brown = fox</p>',
    ]) {
      expect(capital(html), html).toBe(false);
    }
  });

  it('notes the values of class and id attributes, quoted or not, in any case of the name; not in end tags, comments or raw text', () => {
    const html =
      '<div class="a b" ID=main><p CLASS = \'c\' data-id="no" idx="no"><a id="x"class=bare/>t</a></p></div class="no"><!-- <b class=no> --><script>"<i class=no>"</script><svg class="icon"></svg>';
    expect(measureHtml(html)).toMatchObject({ classes: 'a b c bare/ icon', ids: 'main x' });
  });

  it('finds capitals in attribute names, class and id values exactly where linkedom does (generated pages)', () => {
    let seed = 11;
    // The high bits of the generator: its low ones repeat with a short period.
    const random = (n: number): number => Math.floor((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 65_536) % n;
    const pick = <T>(items: readonly T[]): T => items[random(items.length)]!;
    const NAMES = [
      'class',
      'id',
      'href',
      'title',
      'data-x',
      'HREF',
      'colSpan',
      'data-Role',
      'onClick',
      'CLASS',
      'Id',
      'data-id',
      'idx',
    ];
    const VALUES = [
      '',
      '="a"',
      '="A B"',
      "='x=Y'",
      '=Foo',
      '=a=B',
      ' = "Q"',
      '=x/Y',
      '="hidden-xs mobile"',
      '=caption',
    ];
    const TAGS = ['div', 'p', 'a', 'span', 'td', 'input', 'br'];
    const SPACES = [' ', '  ', '\n', '/'];
    const attributes = (): string => {
      const names = new Set(Array.from({ length: random(4) }, () => pick(NAMES)));
      return [...names].map((name) => `${pick(SPACES)}${name}${pick(VALUES)}`).join('');
    };
    const fragment = (depth: number): string =>
      Array.from({ length: 1 + random(3) }, () => {
        const kind = random(10);
        if (kind === 0) return `<svg${attributes()} viewBox="0 0 1 1"><path fillRule="x"${attributes()}/></svg>`;
        if (kind === 1) return `<script>x.fooBar = "<a HREF=1 class=no>";</script>`;
        if (kind === 2) return `<!-- <b CLASS=x id=no> -->text`;
        const tag = pick(TAGS);
        return `<${tag}${attributes()}>${depth < 3 && tag !== 'input' && tag !== 'br' ? fragment(depth + 1) : 'text'}</${tag}>`;
      }).join('');
    /** What linkedom keeps: a capital in an HTML element's attribute name; every class and id value. */
    const kept = (html: string): { capital: boolean; classes: string[]; ids: string[] } => {
      const { document } = parseHTML(html);
      const found = { capital: false, classes: [] as string[], ids: [] as string[] };
      const stack: any[] = [{ element: document.documentElement, foreign: false }];
      while (stack.length > 0) {
        const { element, foreign } = stack.pop();
        for (const name of element.getAttributeNames() as string[]) {
          if (!foreign && /[A-Z]/.test(name)) found.capital = true;
          const value = element.getAttribute(name) as string;
          if (value !== '' && name.toLowerCase() === 'class') found.classes.push(value);
          if (value !== '' && name.toLowerCase() === 'id') found.ids.push(value);
        }
        for (const child of Array.from(element.children) as any[])
          stack.push({ element: child, foreign: foreign || ['svg', 'math'].includes(child.localName) });
      }
      return found;
    };
    const words = (joined: string): string[] =>
      joined
        .split(' ')
        .filter((w) => w !== '')
        .sort();
    let withCapital = 0;
    for (let i = 0; i < 400; i++) {
      const html = `<!doctype html><html><body>${fragment(0)}</body></html>`;
      const expected = kept(html);
      const shape = measureHtml(html);
      withCapital += expected.capital ? 1 : 0;
      expect(shape.capitalNames, html).toBe(expected.capital);
      expect(words(shape.classes), html).toEqual(words(expected.classes.join(' ')));
      expect(words(shape.ids), html).toEqual(words(expected.ids.join(' ')));
    }
    // Both answers occur.
    expect(withCapital).toBeGreaterThan(20);
    expect(withCapital).toBeLessThan(380);
  });

  it('leaves out the text of scripts and style sheets, but not of JSON-LD, MathJax or an unclosed script', () => {
    const page =
      '<p>a</p><script>var s = "<div>";</script><SCRIPT type="text/javascript">x()</SCRIPT ><script type="application/ld+json">{"a":1}</script>' +
      '<style>p>b{}</style><script type="math/tex; mode=display">x^2</script><script type="application/json" id="data">{}</script><p>b</p><script>never closed';
    expect(boundHtml(page).html).toBe(
      '<p>a</p><script></script><SCRIPT type="text/javascript"></SCRIPT ><script type="application/ld+json">{"a":1}</script>' +
        '<style></style><script type="math/tex; mode=display">x^2</script><script type="application/json" id="data">{}</script><p>b</p><script>never closed',
    );
  });

  it("parses to the same tree, but for the scripts' and styles' text, as the page whole (generated pages)", () => {
    let seed = 3;
    const random = (n: number): number => Math.floor((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 65_536) % n;
    const pick = <T>(items: readonly T[]): T => items[random(items.length)]!;
    const CODE = [
      'x < y',
      '"</div>"',
      "'<p>'",
      '<!-- <script> -->',
      '</scr',
      'ipt>',
      '</style',
      '<b>',
      ' ',
      'a>b',
      '\n',
      '</SCRIPT',
      '</script x',
      '</scripts>',
    ];
    const raw = (tag: string): string =>
      `<${pick([tag, tag.toUpperCase()])}${pick(['', ' type="module"', ' type="application/ld+json"', ' media="all"', '/'])}>${Array.from({ length: random(5) }, () => pick(CODE)).join('')}</${pick([tag, tag.toUpperCase()])}${pick(['>', ' >', '\n>'])}`;
    const fragment = (depth: number): string =>
      Array.from({ length: 1 + random(4) }, () => {
        const kind = random(8);
        if (kind <= 1) return raw('script');
        if (kind === 2) return raw('style');
        if (kind === 3) return `<svg>${raw(pick(['style', 'script']))}<text>t</text></svg>`;
        if (kind === 4) return '<!-- <style> -->text';
        const tag = pick(['div', 'p', 'span', 'noscript', 'textarea']);
        return `<${tag}>${depth < 3 && tag !== 'textarea' ? fragment(depth + 1) : 'text'}</${tag}>`;
      }).join('');
    /** The tree as markup, scripts and style sheets emptied (linkedom's own parse: no tag is hidden from it). */
    const tree = (html: string): string => {
      const { document } = parseHTML(html);
      for (const element of Array.from(document.querySelectorAll('script, style')) as any[]) element.textContent = '';
      return document.documentElement.outerHTML;
    };
    let stripped = 0;
    for (let i = 0; i < 400; i++) {
      const html = `<!doctype html><html><body>${fragment(0)}</body></html>`;
      const bounded = boundHtml(html).html;
      if (bounded !== html) stripped++;
      expect(tree(bounded), html).toBe(tree(html));
    }
    expect(stripped).toBeGreaterThan(200);
  });

  it('returns the page itself when it is within the bounds and has no script or style text', () => {
    const page = ARTICLE_HTML.replace(/<(script|style)\b[^>]*>[\s\S]*?<\/\1>/gi, '');
    expect(page).not.toBe(ARTICLE_HTML);
    expect(boundHtml(page).html).toBe(page);
  });

  it('is linear on a million nested elements and on 200,000 tiny ones', () => {
    const started = performance.now();
    const nested = boundHtml(`${'<div>'.repeat(1_000_000)}deep text`);
    expect(nested.shape).toMatchObject({ depth: HTML_BOUNDS.maxDepth, cutAt: HTML_BOUNDS.maxElements * 5 });
    const flat = '<p>x</p>'.repeat(200_000);
    expect(measureHtml(flat).cutAt).toBe(HTML_BOUNDS.maxElements * 8);
    // Generous: the scan takes milliseconds; the parser on these took seconds to minutes.
    expect(performance.now() - started).toBeLessThan(2_000);
  });
});

describe('htmlToMarkdown within the bounds', () => {
  it('leaves a real page whole', () => {
    expect(measureHtml(ARTICLE_HTML).cutAt).toBe(-1);
  });

  it('keeps every text of a page nested past the depth bound, in order', () => {
    const html = `<html><body><p>Readable words before the nesting starts.</p>${'<div>'.repeat(5_000)}the bottom${'</div>'.repeat(5_000)}<p>And after it.</p></body></html>`;
    const { markdown } = htmlToMarkdown(html, 'https://example.test/');
    expect(markdown).toMatch(/Readable words before the nesting starts\.[\s\S]*the bottom[\s\S]*And after it\./);
  });
});
