/**
 * Inline code made into what a Markdown code span can hold (inline-code.ts): a code
 * span shows its content literally (CommonMark 6.1), so markup inside one would read as
 * stray `**`, `_` and `[text](url)`.
 */
import { describe, expect, it } from 'vitest';
import type { DomElement } from '../../src/extract/html/dom.js';
import { normalizeInlineCode } from '../../src/extract/html/clean/inline-code.js';
import { parseDocument } from '../../src/extract/html/read/parse.js';
import { fragmentMarkdown as md } from '../helpers/fragment-markdown.js';

describe('inline code', () => {
  it('flattens markup inside code to its words', () => {
    expect(md('<p><code><strong>if</strong> (<code><i>condition</i></code>) { ... }</code></p>')).toBe(
      '`if (condition) { ... }`',
    );
    expect(
      md('<p><code class="literal">TABLESAMPLE <em><code>sampling_method</code></em> ( <em>argument</em> )</code></p>'),
    ).toBe('`TABLESAMPLE sampling_method ( argument )`');
  });

  it('writes a code whose whole text is one link as the link around the code', () => {
    expect(md('<p>Call <code><a href="/api/spawn" title="fn spawn">spawn()</a></code> first.</p>')).toBe(
      'Call [`spawn()`](https://example.com/api/spawn) first.',
    );
    expect(md('<p><code> <a href="http://localhost">http://localhost</a> </code></p>')).toBe(
      '[`http://localhost`](http://localhost/)',
    );
  });

  it('keeps the words of a code that links only part of its text, without the link syntax', () => {
    expect(md('<p><code>pub use task::<a href="task/fn.spawn.html">spawn</a>;</code></p>')).toBe(
      '`pub use task::spawn;`',
    );
    expect(md('<p><code><a href="/a">a</a>.<a href="/b">b</a></code></p>')).toBe('`a.b`');
  });

  it('reads a line break inside code as a space and a superscript as a caret', () => {
    expect(md('<p>x <code>first<br>second</code></p>')).toBe('x `first second`');
    expect(
      md('<p><code>2<sup>32</sup> - 1</code>, <code>O(n<sup>2</sup>)</code>, <code>x<sup>a b</sup></code></p>'),
    ).toBe('`2^32 - 1`, `O(n^2)`, `x^(a b)`');
  });

  it('counts only links with an address, and writes no link inside a link', () => {
    expect(md('<p><code><a name="spawn"></a><a href="/spawn">spawn()</a></code></p>')).toBe(
      '[`spawn()`](https://example.com/spawn)',
    );
    expect(md('<p>See <a href="/x"><code><a href="/y">y</a></code></a> here.</p>')).toBe(
      'See [`y`](https://example.com/x) here.',
    );
    expect(md('<p><a name="top"><code><a href="/y">spawn()</a></code></a></p>')).toBe(
      '[`spawn()`](https://example.com/y)',
    );
  });

  it('walks nested codes in time linear in the tree', () => {
    // Called alone: the page's own depth cap (noise.ts) would flatten these first. A walk
    // that climbs to the root per code, or scans each code's subtree, takes seconds here.
    let spent = 0;
    const run = (html: string): DomElement => {
      const doc = parseDocument(`<html><body><div id="r">${html}</div></body></html>`);
      const root = doc.querySelector('#r')!;
      const started = performance.now();
      normalizeInlineCode(doc, root);
      spent += performance.now() - started;
      return root;
    };
    expect(run('<code><b>'.repeat(20000) + 'x' + '</b></code>'.repeat(20000)).textContent).toBe('x');
    expect(
      run('<code><div>'.repeat(10000) + 'x' + '</div></code>'.repeat(10000)).getElementsByTagName('code').length,
    ).toBe(0);
    // About 0.25 s here; the quadratic walks took 4.6 s and 12.5 s.
    expect(spent).toBeLessThan(3000);
  });

  it('unwraps a code that holds blocks or pictures: it is no code', () => {
    expect(md('<p>Intro</p><p><code><div><p>Para one</p><p>Para two <a href="/y">link</a></p></div></code></p>')).toBe(
      'Intro\n\nPara one\n\nPara two [link](https://example.com/y)',
    );
    expect(md('<p>x <code><img src="/i.png" alt="A chart"></code></p>')).toBe(
      'x ![A chart](https://example.com/i.png)',
    );
    // An inner code of an unwrapped one is still code.
    expect(md('<p>x <code><div><code><b>y</b></code></div></code></p>')).toBe('x\n\n`y`');
  });

  it('leaves plain inline code and code blocks as they were', () => {
    expect(md('<p>Run <code>npm test</code> now.</p>')).toBe('Run `npm test` now.');
    expect(md('<pre><code><b>bold</b> stays text</code></pre>')).toBe('```\nbold stays text\n```');
  });
});
