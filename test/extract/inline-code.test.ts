/**
 * Inline code made into what a Markdown code span can hold (inline-code.ts): a code
 * span shows its content literally (CommonMark 6.1), so markup inside one would read as
 * stray `**`, `_` and `[text](url)`.
 */
import { describe, expect, it } from 'vitest';
import { fragmentMarkdown as md } from '../helpers/fragment-markdown.js';

describe('inline code', () => {
  it('flattens markup inside code to its words', () => {
    expect(md('<p><code><strong>if</strong> (<code><i>condition</i></code>) { ... }</code></p>')).toBe('`if (condition) { ... }`');
    expect(md('<p><code class="literal">TABLESAMPLE <em><code>sampling_method</code></em> ( <em>argument</em> )</code></p>')).toBe(
      '`TABLESAMPLE sampling_method ( argument )`',
    );
  });

  it('writes a code whose whole text is one link as the link around the code', () => {
    expect(md('<p>Call <code><a href="/api/spawn" title="fn spawn">spawn()</a></code> first.</p>')).toBe(
      'Call [`spawn()`](https://example.com/api/spawn) first.',
    );
    expect(md('<p><code> <a href="http://localhost">http://localhost</a> </code></p>')).toBe('[`http://localhost`](http://localhost/)');
  });

  it('keeps the words of a code that links only part of its text, without the link syntax', () => {
    expect(md('<p><code>pub use task::<a href="task/fn.spawn.html">spawn</a>;</code></p>')).toBe('`pub use task::spawn;`');
    expect(md('<p><code><a href="/a">a</a>.<a href="/b">b</a></code></p>')).toBe('`a.b`');
  });

  it('reads a line break inside code as a space', () => {
    expect(md('<p>x <code>first<br>second</code></p>')).toBe('x `first second`');
  });

  it('unwraps a code that holds blocks or pictures: it is no code', () => {
    expect(md('<p>Intro</p><p><code><div><p>Para one</p><p>Para two <a href="/y">link</a></p></div></code></p>')).toBe(
      'Intro\n\nPara one\n\nPara two [link](https://example.com/y)',
    );
    expect(md('<p>x <code><img src="/i.png" alt="A chart"></code></p>')).toBe('x ![A chart](https://example.com/i.png)');
    // An inner code of an unwrapped one is still code.
    expect(md('<p>x <code><div><code><b>y</b></code></div></code></p>')).toBe('x\n\n`y`');
  });

  it('leaves plain inline code and code blocks as they were', () => {
    expect(md('<p>Run <code>npm test</code> now.</p>')).toBe('Run `npm test` now.');
    expect(md('<pre><code><b>bold</b> stays text</code></pre>')).toBe('```\nbold stays text\n```');
  });
});
