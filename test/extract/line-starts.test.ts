/**
 * Escapes of block markers only where a line starts (line-starts.ts), of `<` where it
 * could open markup (markdown.ts), and the fixes that came with them. Besides the cases
 * written out (among them a review's reproductions), a differential check: seeded random
 * fragments that mix inline and block elements with marker-like texts are converted with
 * and without the marks, and two renderers (CommonMark's reference and markdown-it, which
 * reads GFM tables and strikethrough) must find no more block structure in ours (lists,
 * headings, quotes, rules, code blocks, tables), and where the structure is the same, all of
 * the text shown before (emphasis delimiters aside: nested emphasis of one kind now reads
 * as such), plus at most what Turndown's escaping let the syntax eat.
 */
import { HtmlRenderer, Parser } from 'commonmark';
import MarkdownIt from 'markdown-it';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fragmentMarkdown } from '../helpers/fragment-markdown.js';
import { MID_LINE_MARK } from '../../src/extract/html/clean/escape-line-starts.js';
import { CAPTION_MARK } from '../../src/extract/html/marks.js';
import type * as LineStarts from '../../src/extract/html/clean/escape-line-starts.js';

const md = fragmentMarkdown;

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
    expect(
      md(
        '<p>See <a href="/a">this</a>- or that, <b>x</b>+ y, <i>a</i>= b, <em>c</em># d, <b>e</b>> f, <b>g</b>2. h</p>',
      ),
    ).toBe('See [this](https://example.com/a)- or that, **x**+ y, _a_= b, _c_# d, **e**> f, **g**2. h');
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
    expect(md(`<table><caption>a <b>b</b>- c</caption><tr><td>d <i>e</i>- f</td></tr></table>`)).not.toContain(
      MID_LINE_MARK,
    );
  });
});

describe('where the line so far could still open a block', () => {
  // Each of these once came out as a list, heading, quote or table (a review's reproductions).
  const cases: [string, string][] = [
    ['<p>&#8203;- x</p>', '\\- x'],
    ['<p>&#xFEFF;1. Introduction</p>', '1\\. Introduction'],
    ['<p>&shy;# Title</p>', '\\# Title'],
    ['<p>Line<br>&zwj;&gt; not a quote</p>', 'Line\n\\> not a quote'],
    ['<p><b><a href="#a">¶</a></b>- y</p>', '\\- y'],
    ['<p><b>- c<br><s>~x</s></b></p>', '**\\- c\n~~\\~x~~**'],
    ['<p>Output:<samp>a<br>b<br></samp>&gt; next</p>', 'Output:a\nb\n\\> next'],
    ['<p>Press <kbd>Ctrl<br></kbd>- then</p>', 'Press Ctrl\n\\- then'],
    ['<p><code><a href="#x">#</a></code>- y</p>', '\\- y'],
    ['<p><span>2</span>1. j</p>', '21\\. j'],
    ['<p><span>#</span># Title</p>', '\\#\\# Title'],
    ['<p>1) <span>- x</span></p>', '1\\) \\- x'],
    ['<p>+<span> &gt; x</span></p>', '\\+ \\> x'],
    ['<p>Name | Value<br>:<span>--</span> | :<span>--</span></p>', 'Name | Value\n:\\-- | :\\--'],
    ['<p>1) Preheat the oven</p>', '1\\) Preheat the oven'],
    // Bold that `delimit` would have written without delimiters.
    ['<p><b>- x<br><span>~</span>~~</b></p><p>More text</p>', '**- x\n\\~\\~~**\n\nMore text'],
    ['<p>a | b<br><b>|<span>---</span>|<span>---</span>|<br>x</b></p>', 'a | b\n|\\---|\\---|\nx'],
    ['<p><strong>1.<br>Introduction</strong></p>', '**1\\.\nIntroduction**'],
    ['<p><b>#<br>Title</b></p>', '**\\#\nTitle**'],
    // Strikethrough beside a ~, and a no-break space the rules trim away.
    ['<p>Weight: <s><br>~5 kg</s> 4 kg</p><p>Next</p>', 'Weight:\n~~\\~5 kg~~ 4 kg\n\nNext'],
    ['<p>~<del>45 min</del> 30 min</p>', '\\~~~45 min~~ 30 min'],
    ['<p>Score<br>#&nbsp;</p>', 'Score\n\\#'],
    ['<p>1.&nbsp;</p>', '1\\.'],
    ['<dl><dt>&nbsp;1. Scope</dt><dd>x</dd></dl>', '**1\\. Scope**\n: x'],
    ['<dl><dt>T</dt><dd>&nbsp;# x</dd></dl>', '**T**\n: \\# x'],
  ];
  it.each(cases)('%s', (html, expected) => {
    const markdown = md(html);
    expect(markdown).toBe(expected);
    expect(render(markdown)).not.toMatch(/<(?:ul|ol|h\d|blockquote|hr|table)[ >]/);
    expect(renderGfm(markdown)).not.toMatch(/<(?:ul|ol|h[1-2]|blockquote|hr|table)[ >]/);
  });

  it('keeps the marker as text inside a list item or a heading', () => {
    const item = md('<ul><li><b><a href="#a">¶</a></b>- y</li></ul>');
    expect(item).toBe('- \\- y');
    expect(render(item)).toBe('<ul>\n<li>- y</li>\n</ul>\n');
    // `### #` would be an empty heading with a closing sequence.
    const heading = md('<h3># </h3>');
    expect(heading).toBe('### \\#');
    expect(render(heading)).toBe('<h3>#</h3>\n');
  });

  it('writes nested emphasis of one kind once, and strikethrough that cannot open a fence', () => {
    expect(md('<p><strong>a&gt;<b> - m</b></strong>1. j</p>')).toBe('**a> - m**1. j');
    expect(md('<p><b>Bold <strong>inside</strong> bold</b> and <i>it <em>al</em></i></p>')).toBe(
      '**Bold inside bold** and _it al_',
    );
    expect(md('<p><s>~x</s> more <del>a~</del> and <del>&#8203;</del>end</p>')).toBe('~~\\~x~~ more ~~a\\~~~ and end');
    expect(md('<s><div>a</div></s><del><br>#</del>')).toBe('~~a~~\n\n~~\\#~~');
  });

  it('keeps a minus after a line break in a link, nested strikethrough once, and noncharacters out of code', () => {
    expect(md('<a href="/x">Price<br>&nbsp;- 20 %</a>')).toBe('[Price \\- 20 %](https://example.com/x)');
    expect(md('<del><s>$20</s></del>')).toBe('~~$20~~');
    expect(md('<pre>a\uFDD1b\uFDD0c</pre> <p><code>d\uFDD1e</code></p>')).toBe('```\nabc\n```\n\n`de`');
    // Nor out of attributes written as text (a backslash there would escape the title's quote).
    expect(md(`<p><img src="/a.png" alt="a\uFDD1" ${CAPTION_MARK}="Cap\uFDD1"></p>`)).toBe(
      '![a](https://example.com/a.png "Cap")',
    );
  });

  it('escapes an & that would read as a character reference', () => {
    expect(md('<p>Use &amp;nbsp; or &amp;#160; for AT&amp;T</p>')).toBe('Use \\&nbsp; or \\&#160; for AT&T');
  });

  it('escapes a table caption, and keeps page text <br> in a table row, in code too', () => {
    expect(md('<table><tr><td><code>&lt;br&gt;</code></td><td>b</td></tr></table>')).toBe(
      '| `<br>` | b |\n| --- | --- |',
    );
    expect(md('<table><caption>- cap &lt;b&gt;</caption><tr><td>1</td></tr></table>')).toBe('\\- cap \\<b>\n\n1');
    expect(md('<table><tr><td>a &lt;br&gt; b</td><td>b</td></tr></table>')).toBe('| a \\<br> b | b |\n| --- | --- |');
  });
});

describe('text that looks like markup', () => {
  it('escapes a < that could open a tag or an autolink, across character references', () => {
    expect(md('<p>Use &lt;div&gt; here, x &lt;y, &lt;/p&gt;, &lt;!-- c --&gt; and &lt;https://e.com&gt;</p>')).toBe(
      'Use \\<div> here, x \\<y, \\</p>, \\<!-- c --> and \\<https://e.com>',
    );
    // Before white space a < opens nothing; elsewhere it is escaped (an email autolink can
    // start with a digit: `<1user@example.com>`).
    expect(md('<p>a &lt; b, 3&lt;4 and &lt;1user@example.com&gt;</p>')).toBe('a < b, 3\\<4 and \\<1user@example.com>');
    // A < that ends a text node, an inline element's text after it.
    expect(md('<p>x &lt;<span>b</span>&gt; y</p>')).toBe('x \\<b> y');
    // Also when an invisible character, which the Markdown loses, sits between.
    expect(md('<p>Use &lt;&#8203;div&gt; and &lt;&shy;script&gt;</p>')).toBe('Use \\<div> and \\<script>');
    expect(md('<p>Message-ID: &lt;20060101.1234@example.org&gt;</p>')).toBe(
      'Message-ID: \\<20060101.1234@example.org>',
    );
    expect(render(md('<p>@n &lt;The Palace: Tale of Noksu&gt; performance</p>'))).toBe(
      '<p>@n &lt;The Palace: Tale of Noksu&gt; performance</p>\n',
    );
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

const TEXTS = [
  '- a',
  '-b',
  '+ c',
  '= d',
  '==',
  '# e',
  '## f',
  '~~~ g',
  '> h',
  '>i',
  '1. j',
  '23. k',
  '1) l',
  'word',
  ' - m',
  ' ',
  '\u200b',
  'x &lt;y',
  'p > q',
  '*',
  '_u_',
  '`t`',
  '[z]',
  '| cell',
  '```',
  '\\',
  '¶',
  '&lt;b>',
  '&lt;tag',
  'tag&gt;',
  '3.',
  '- ',
  '* s',
  '+',
  '---',
  '***',
  '***x',
  '~~',
  '~x~',
  '&#8203;- z',
  '&shy;&lt;a',
  '&lt;1@e.co&gt;',
  '2',
  '#',
  '1)',
  '1.',
  ':',
  '|',
];
const INLINE = [
  'b',
  'strong',
  'i',
  'em',
  'span',
  'a',
  'code',
  'kbd',
  'samp',
  'sup',
  'sub',
  's',
  'del',
  'u',
  'small',
  'mark',
  'label',
  'abbr',
  'q',
];
const BLOCK = [
  'p',
  'div',
  'li',
  'blockquote',
  'h2',
  'h3',
  'td',
  'pre',
  'dt',
  'dd',
  'section',
  'ul',
  'ol',
  'table',
  'tr',
  'figure',
  'figcaption',
  'details',
  'summary',
  'custom-el',
];
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

/**
 * Whether `after` shows all of `before`, in order, plus at most characters other than a
 * backslash (a marker Turndown's escaping let the syntax eat, such as the `#` of
 * `### #` or the `- ` of a link's text, is a gain; a stray backslash is not).
 */
function shownMore(before: string, after: string): boolean {
  let i = 0;
  for (const c of after) {
    if (i < before.length && c === before[i]) i++;
    else if (c === '\\') return false;
  }
  return i === before.length;
}

describe('differential check against escaping every text node start', () => {
  afterEach(() => {
    vi.doUnmock('../../src/extract/html/clean/escape-line-starts.js');
    vi.resetModules();
  });

  it('finds no more block structure in CommonMark or GFM on 3,000 random fragments, and no text lost where it is the same', async () => {
    const random = generator(20261122);
    const fragments = Array.from({ length: 3000 }, () => fragment(random));
    const ours = fragments.map(md);
    // Turndown's own escaping: the text nodes are joined and cleaned, none is marked.
    vi.resetModules();
    vi.doMock('../../src/extract/html/clean/escape-line-starts.js', async (importOriginal) => {
      const real = await importOriginal<typeof LineStarts>();
      return {
        ...real,
        markMidLineStarts: (root: Parameters<typeof real.markMidLineStarts>[0]) => real.markMidLineStarts(root, false),
      };
    });
    const { fragmentMarkdown: plainMarkdown } = await import('../helpers/fragment-markdown.js');
    const plain = fragments.map(plainMarkdown);
    const blocks = [
      'ul',
      'ol',
      'li',
      'h1',
      'h2',
      'h3',
      'h4',
      'h5',
      'h6',
      'blockquote',
      'hr',
      'pre',
      'table',
      'tr',
      'td',
      'th',
    ];
    const structure = (rendered: string): number[] =>
      blocks.map((tag) => rendered.split(new RegExp(`<${tag}[ >/]`)).length - 1);
    const text = (rendered: string): string =>
      rendered
        .replace(/<[^>]*>/g, '')
        .replace(/&lt;/g, '<')
        .replace(/&gt;/g, '>')
        .replace(/&quot;/g, '"')
        .replace(/&amp;/g, '&')
        .replace(/[\s*_~]/g, '');
    let changed = 0;
    for (let i = 0; i < fragments.length; i++) {
      if (ours[i] === plain[i]) continue;
      changed++;
      for (const renderer of [render, renderGfm]) {
        const before = renderer(plain[i]!);
        const after = renderer(ours[i]!);
        const a = structure(before);
        const b = structure(after);
        b.forEach((n, k) => expect(n, `${blocks[k]} in ${fragments[i]}`).toBeLessThanOrEqual(a[k]!));
        if (a.every((n, k) => n === b[k])) expect(shownMore(text(before), text(after)), fragments[i]).toBe(true);
      }
    }
    // The check is not vacuous: a good share of the fragments lost an escape.
    expect(changed).toBeGreaterThan(500);
  });
});
