/**
 * Escapes of block markers only where a line starts (line-starts.ts), and of `<` where it
 * could open markup (markdown.ts). Besides the cases written out, a differential check:
 * seeded random fragments that mix inline and block elements with marker-like texts are
 * converted with and without the mid-line marks, and two renderers (CommonMark's reference
 * and markdown-it, which reads GFM tables and strikethrough) must read both Markdown texts
 * the same, emphasis aside (a marked text that starts with `- ` is no
 * longer mistaken for a list inside bold, so the bold is now written).
 */
import { HtmlRenderer, Parser } from 'commonmark';
import MarkdownIt from 'markdown-it';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { parseDocument } from '../../src/extract/html/parse.js';
import { elementToMarkdown } from '../../src/extract/html/markdown.js';
import { MID_LINE_MARK } from '../../src/extract/html/line-starts.js';
import type * as LineStarts from '../../src/extract/html/line-starts.js';

/** Markdown of a fragment, converted as the cascade converts its pick. */
function md(fragment: string): string {
  const doc = parseDocument(`<html><body><div id="r">${fragment}</div></body></html>`);
  return elementToMarkdown(doc, doc.querySelector('#r')!, 'https://example.com/');
}

const reader = new Parser();
const writer = new HtmlRenderer();
/** CommonMark's reference renderer (commonmark.js). */
const render = (markdown: string): string => writer.render(reader.parse(markdown));
/** markdown-it, which also reads GFM's tables and strikethrough, as we write them. */
const markdownIt = new MarkdownIt();
const renderGfm = (markdown: string): string => markdownIt.render(markdown);

describe('block markers mid-line', () => {
  it('are written as they are after text on the same line', () => {
    expect(md('<p>Change <span>$</span><span>-0.07</span> today</p>')).toBe('Change $-0.07 today');
    expect(md('<p>See <a href="/a">this</a>- or that, <b>x</b>+ y, <i>a</i>= b, <em>c</em># d, <b>e</b>> f, <b>g</b>2. h</p>')).toBe(
      'See [this](https://example.com/a)- or that, **x**+ y, _a_= b, _c_# d, **e**> f, **g**2. h',
    );
    expect(md('<p>a <code>x</code>- y</p>')).toBe('a `x`- y');
  });

  it('are written as they are after an emphasis delimiter that opens the line', () => {
    expect(md('<h3><strong>1. High-protein meals</strong></h3>')).toBe('### **1. High-protein meals**');
    expect(md('<p><i><b>- a</b></i> and <b>- b</b></p>')).toBe('_**- a**_ and **- b**');
  });

  it('stay escaped where a line starts', () => {
    expect(md('<p>1. Not a list</p>')).toBe('1\\. Not a list');
    expect(md('<p>Line one<br>- not a bullet<br>+ nor this<br># nor a heading<br>> nor a quote</p>')).toBe(
      'Line one\n\\- not a bullet\n\\+ nor this\n\\# nor a heading\n\\> nor a quote',
    );
    expect(md('<ul><li>1. item</li></ul>')).toBe('- 1\\. item');
    expect(md('<blockquote><p>- quoted</p></blockquote>')).toBe('> \\- quoted');
    expect(md('<div>x<div>y</div>- after a block</div>')).toBe('x\n\ny\n\n\\- after a block');
    // Text the Markdown does not show does not start the line: a symbol-only permalink,
    // invisible characters, bold that holds no text.
    expect(md('<p><a href="#s">¶</a>1. foo</p>')).toBe('1\\. foo');
    expect(md('<p>&#8203;<span>- x</span></p>')).toBe('\\- x');
    expect(md('<p><b>&zwj;</b>- y</p>')).toBe('\\- y');
    // After a line break inside bold.
    expect(md('<p><b>x<br>- y</b></p>')).toBe('**x\n\\- y**');
    // Bold around a code block is written without delimiters: its text starts the line.
    expect(md('<p><b>1. foo<pre>code</pre></b></p>')).toBe('1\\. foo\n\n```\ncode\n```');
  });

  it('leave no mark behind, and drop a mark the page itself carried', () => {
    expect(md(`<p>${MID_LINE_MARK}- x and <b>y</b>- z</p>`)).toBe('\\- x and **y**- z');
    expect(md(`<table><caption>a <b>b</b>- c</caption><tr><td>d <i>e</i>- f</td></tr></table>`)).not.toContain(MID_LINE_MARK);
  });
});

describe('text that looks like markup', () => {
  it('escapes a < that could open a tag or an autolink, across character references', () => {
    expect(md('<p>Use &lt;div&gt; here, x &lt;y, &lt;/p&gt;, &lt;!-- c --&gt; and &lt;https://e.com&gt;</p>')).toBe(
      'Use \\<div> here, x \\<y, \\</p>, \\<!-- c --> and \\<https://e.com>',
    );
    expect(md('<p>a &lt; b and 3&lt;4 stay</p>')).toBe('a < b and 3<4 stay');
    // A < that ends a text node, an inline element's text after it.
    expect(md('<p>x &lt;<span>b</span>&gt; y</p>')).toBe('x \\<b> y');
    expect(render(md('<p>@n &lt;The Palace: Tale of Noksu&gt; performance</p>'))).toBe('<p>@n &lt;The Palace: Tale of Noksu&gt; performance</p>\n');
  });

  it('joins the text nodes a character reference splits, so that it is escaped once', () => {
    expect(md('<p>AT&amp;T &gt; Sprint</p>')).toBe('AT&T > Sprint');
  });
});

/** A small seeded generator (the same fragments on every run). */
function generator(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) & 0x7fffffff;
    return state / 0x7fffffff;
  };
}

const TEXTS = ['- a', '-b', '+ c', '= d', '==', '# e', '## f', '~~~ g', '> h', '>i', '1. j', '23. k', '1) l', 'word', ' - m', ' ', '\u200b', 'x &lt;y', 'p > q', '*', '_u_', '`t`', '[z]', '| cell', '```', '\\', '¶', '&lt;b>', '&lt;tag', 'tag&gt;', '3.', '- ', '* s', '+', '---', '***', '***x', '~~', '~x~'];
const INLINE = ['b', 'strong', 'i', 'em', 'span', 'a', 'code', 'sup', 'sub', 's', 'u', 'small', 'mark', 'label', 'abbr', 'q'];
const BLOCK = ['p', 'div', 'li', 'blockquote', 'h2', 'h3', 'td', 'pre', 'dt', 'dd', 'section', 'ul', 'ol', 'table', 'tr', 'figure', 'figcaption', 'details', 'summary', 'custom-el'];
const HREFS = [' href="/x"', ' href="#x"', '', ' href="javascript:void(0)"'];

function fragment(random: () => number, depth = 0): string {
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
  let html = '';
  for (let n = 1 + Math.floor(random() * 4); n > 0; n--) {
    const roll = random();
    if (depth > 3 || roll < 0.45) html += pick(TEXTS);
    else if (roll < 0.55) html += '<br>';
    else if (roll < 0.6) html += '<img alt="im" src="/i.png">';
    else if (roll < 0.85) {
      const tag = pick(INLINE);
      html += `<${tag}${tag === 'a' ? pick(HREFS) : ''}>${fragment(random, depth + 1)}</${tag}>`;
    } else {
      const tag = pick(BLOCK);
      html += `<${tag}>${fragment(random, depth + 1)}</${tag}>`;
    }
  }
  return html;
}

describe('differential check against escaping every text node start', () => {
  afterEach(() => {
    vi.doUnmock('../../src/extract/html/line-starts.js');
    vi.resetModules();
  });

  it('reads the same in CommonMark and GFM on 3,000 random fragments, emphasis aside, and loses no emphasis', async () => {
    const random = generator(20261122);
    const fragments = Array.from({ length: 3000 }, () => fragment(random));
    const ours = fragments.map(md);
    // Turndown's own escaping: the text nodes are joined, none is marked.
    vi.resetModules();
    vi.doMock('../../src/extract/html/line-starts.js', async (importOriginal) => {
      const real = await importOriginal<typeof LineStarts>();
      return { ...real, markMidLineStarts: (root: Parameters<typeof real.markMidLineStarts>[0]) => real.markMidLineStarts(root, false) };
    });
    const markdown = await import('../../src/extract/html/markdown.js');
    const parse = await import('../../src/extract/html/parse.js');
    const plain = fragments.map((html) => {
      const doc = parse.parseDocument(`<html><body><div id="r">${html}</div></body></html>`);
      return markdown.elementToMarkdown(doc, doc.querySelector('#r')!, 'https://example.com/');
    });
    const emphasis = (rendered: string): number => (rendered.match(/<(?:em|strong)>/g) ?? []).length;
    const withoutEmphasis = (rendered: string): string => rendered.replace(/<\/?(?:em|strong)>/g, '');
    let changed = 0;
    for (let i = 0; i < fragments.length; i++) {
      if (ours[i] === plain[i]) continue;
      changed++;
      for (const renderer of [render, renderGfm]) {
        const a = renderer(plain[i]!);
        const b = renderer(ours[i]!);
        expect(withoutEmphasis(b), fragments[i]).toBe(withoutEmphasis(a));
        expect(emphasis(b), fragments[i]).toBeGreaterThanOrEqual(emphasis(a));
      }
    }
    // The check is not vacuous: a good share of the fragments lost an escape.
    expect(changed).toBeGreaterThan(500);
  });
});
