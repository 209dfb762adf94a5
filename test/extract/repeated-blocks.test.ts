/**
 * Blocks a page shows twice in a row (repeated-blocks.ts): the second copy goes, data and
 * words split into spans stay.
 */
import { describe, expect, it } from 'vitest';
import { parseDocument } from '../../src/extract/html/parse.js';
import { elementToMarkdown } from '../../src/extract/html/markdown.js';
import { dropRepeatedBlocks } from '../../src/extract/html/repeated-blocks.js';

function md(fragment: string): string {
  const doc = parseDocument(`<html><body><div id="r">${fragment}</div></body></html>`);
  return elementToMarkdown(doc, doc.querySelector('#r')!, 'https://example.com/');
}

describe('repeated blocks', () => {
  it('writes a responsive page\'s second copy of a section once', () => {
    const section = '<h2>Built to last</h2><p>Anodized aluminium, 86 x 54 mm.</p>';
    expect(md(`<div class="desktop">${section}</div>\n  <div class="mobile">${section}</div><p>After.</p>`)).toBe(
      '## Built to last\n\nAnodized aluminium, 86 x 54 mm.\n\nAfter.',
    );
    // Three slides cloned by a slider, and white space in different places.
    expect(md('<p>Free  shipping over $50</p><p> Free shipping\nover $50</p><p>Free shipping over $50</p>')).toBe('Free shipping over $50');
    // A phrase in an inline element counts too.
    expect(md('<span>The makings of your space</span><span>The makings of your space</span>')).toBe('The makings of your space');
  });

  it('keeps copies that are not adjacent, differ, or are set apart by text', () => {
    expect(md('<p>Chorus line</p><p>Verse</p><p>Chorus line</p>')).toBe('Chorus line\n\nVerse\n\nChorus line');
    expect(md('<p>Same text</p>and<p>Same text</p>')).toBe('Same text\n\nand\n\nSame text');
    expect(md('<h3>Same text</h3><p>Same text</p>')).toBe('### Same text\n\nSame text');
    expect(md('<p>Same text</p><p>Same text.</p>')).toBe('Same text\n\nSame text.');
    expect(md('<div>12345</div><div>12345</div>')).toBe('12345\n\n12345');
  });

  it('keeps words split into spans, and repeated data', () => {
    expect(md('<p>Je<span>n</span><span>n</span>ifer said she <span>had</span> <span>had</span> enough</p>')).toBe('Jennifer said she had had enough');
    expect(md('<ul><li>Yes</li><li>Yes</li></ul>')).toBe('- Yes\n- Yes');
    const table = md('<table><tr><th>Day</th><th>Open</th></tr><tr><td>Mon</td><td>Closed</td></tr><tr><td>Mon</td><td>Closed</td></tr></table>');
    expect(table.match(/\| Mon \| Closed \|/g)).toHaveLength(2);
    expect(md('<pre>x = 1\n</pre><pre>x = 1\n</pre>').match(/```/g)).toHaveLength(4);
  });

  it('compares the copies whole, inner repeats included', () => {
    const doc = parseDocument('<html><body><div id="r"><div><p>A a</p><p>A a</p></div><div><p>A a</p><p>A a</p></div></div></body></html>');
    const root = doc.querySelector('#r')!;
    dropRepeatedBlocks(root);
    expect(root.innerHTML).toBe('<div><p>A a</p></div>');
  });
});
