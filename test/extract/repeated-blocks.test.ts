/**
 * Blocks a page shows twice in a row (repeated-blocks.ts): the second copy of a section
 * and a screen-reader copy of the text before it go; lines, data, words split into spans
 * and copies that lead elsewhere stay.
 */
import { describe, expect, it } from 'vitest';
import { parseDocument } from '../../src/extract/html/read/parse.js';
import { fragmentMarkdown } from '../helpers/fragment-markdown.js';
import { dropRepeatedBlocks } from '../../src/extract/html/clean/repeated-blocks.js';
import { THRESHOLDS } from '../../src/extract/html/thresholds.js';

const md = fragmentMarkdown;

const LONG =
  'Create a bed that is beautiful and sets a new standard for softness, with sheets woven from long-staple cotton and finished by hand in a small mill that has made linen for four generations of sleepers. Each set is washed twice before it ships.';

describe('repeated blocks', () => {
  it("writes a responsive page's second copy of a section once", () => {
    const section = '<h2>Built to last</h2><p>Anodized aluminium, 86 x 54 mm.</p>';
    expect(md(`<div class="desktop">${section}</div>\n  <div class="mobile">${section}</div><p>After.</p>`)).toBe(
      '## Built to last\n\nAnodized aluminium, 86 x 54 mm.\n\nAfter.',
    );
    // A long run of text on its own, cloned by a slider, white space aside.
    expect(LONG.replace(/\s/g, '').length).toBeGreaterThanOrEqual(THRESHOLDS.MIN_LONE_CHARS);
    expect(md(`<p>${LONG}</p><p> ${LONG.replace(/ /g, '\n')}</p><p>${LONG}</p>`)).toBe(LONG);
    expect(md(`<span>${LONG}</span><span>${LONG}</span>`)).toBe(LONG);
  });

  it('drops a screen-reader copy of the text just before it, not a short cry, other text or code', () => {
    expect(md('<p>GBP 0.00<span class="clipped">GBP 0.00</span></p>')).toBe('GBP 0.00');
    expect(md('<p>Sat, Nov 02, 04:33 AM<span class="clipped">Sat, Nov 02, 04:33 AM</span> ends.</p>')).toBe(
      'Sat, Nov 02, 04:33 AM ends.',
    );
    expect(md('<p>No<b>No</b></p>')).toBe('No**No**');
    expect(md('<p>See all details<span class="clipped">See all details on coverage</span></p>')).toBe(
      'See all detailsSee all details on coverage',
    );
    expect(md('<p>Going, going<b>going, gone</b></p>')).toBe('Going, going**going, gone**');
    expect(md('<pre>foobar<span>foobar</span></pre>')).toBe('```\nfoobarfoobar\n```');
    expect(md('<p>Run <code>make all<span>make all</span></code></p>')).toBe('Run `make allmake all`');
    expect(md('<p>make all<code>make all</code></p>')).toBe('make all`make all`');
  });

  it('keeps a repeated line: a poem, a song, a grid cell', () => {
    expect(md('<p>And miles to go before I sleep,</p><p>And miles to go before I sleep.</p>')).toBe(
      'And miles to go before I sleep,\n\nAnd miles to go before I sleep.',
    );
    expect(md('<div>And miles to go before I sleep</div><div>And miles to go before I sleep</div>')).toBe(
      'And miles to go before I sleep\n\nAnd miles to go before I sleep',
    );
    const grid = md('<div class="row"><div>Unlimited projects</div><div>No</div><div>Yes</div><div>Yes</div></div>');
    expect(grid.match(/Yes/g)).toHaveLength(2);
  });

  it('keeps copies that lead elsewhere or show other images', () => {
    const buttons = md(
      '<div><a href="/x64.exe"><img alt="Windows" src="/w.png"> Download installer</a><p>Version 2</p></div>' +
        '<div><a href="/app.dmg"><img alt="macOS" src="/m.png"> Download installer</a><p>Version 2</p></div>',
    );
    expect(buttons).toContain('/x64.exe');
    expect(buttons).toContain('/app.dmg');
    expect(md('<a href="/a">Read the full story</a> <a href="/b">Read the full story</a>')).toContain('/b');
  });

  it('keeps copies that are not adjacent, differ, or are set apart by text', () => {
    const block = (text: string): string => `<div><h3>Plan</h3><p>${text}</p></div>`;
    expect(md(block('Same text') + block('Verse') + block('Same text'))).toBe(
      '### Plan\n\nSame text\n\n### Plan\n\nVerse\n\n### Plan\n\nSame text',
    );
    expect(md(`${block('Same text')}and${block('Same text')}`)).toBe(
      '### Plan\n\nSame text\n\nand\n\n### Plan\n\nSame text',
    );
    expect(md(`${block('Same text')}${block('Same text.')}`)).toBe('### Plan\n\nSame text\n\n### Plan\n\nSame text.');
  });

  it('keeps words split into spans, and repeated data', () => {
    expect(md('<p>Je<span>n</span><span>n</span>ifer said she <span>had</span> <span>had</span> enough</p>')).toBe(
      'Jennifer said she had had enough',
    );
    expect(md('<ul><li>Yes</li><li>Yes</li></ul>')).toBe('- Yes\n- Yes');
    const table = md(
      '<table><tr><th>Day</th><th>Open</th></tr><tr><td>Mon</td><td>Closed</td></tr><tr><td>Mon</td><td>Closed</td></tr></table>',
    );
    expect(table.match(/\| Mon \| Closed \|/g)).toHaveLength(2);
    expect(md('<pre>x = 1\n</pre><pre>x = 1\n</pre>').match(/```/g)).toHaveLength(4);
  });

  it('compares the copies whole, inner repeats included', () => {
    const doc = parseDocument(
      '<html><body><div id="r"><div><p>A a</p><p>B b</p></div><div><p>A a</p><p>B b</p></div></div></body></html>',
    );
    const root = doc.querySelector('#r')!;
    dropRepeatedBlocks(root);
    expect(root.innerHTML).toBe('<div><p>A a</p><p>B b</p></div>');
  });
});
