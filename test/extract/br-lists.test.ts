/**
 * Lists typed as lines parted by `<br>` (br-lists.ts): written as Markdown lists when every
 * line from the first marker on opens with a marker of one kind; anything else is written
 * as before, one paragraph of lines.
 */
import { HtmlRenderer, Parser } from 'commonmark';
import { describe, expect, it } from 'vitest';
import { fragmentMarkdown as md } from '../helpers/fragment-markdown.js';

const reader = new Parser();
const writer = new HtmlRenderer();
const render = (markdown: string): string => writer.render(reader.parse(markdown));

describe('lists typed as lines', () => {
  it.each([
    ['•', '<p>• Apples<br>• Pears<br>• Plums</p>'],
    ['-', '<p>- Apples<br>- Pears<br>- Plums</p>'],
    ['*', '<p>* Apples<br>* Pears<br>* Plums</p>'],
    ['+', '<p>+ Apples<br>+ Pears<br>+ Plums</p>'],
    ['–', '<p>– Apples<br>– Pears<br>– Plums</p>'],
    ['·', '<p>· Apples<br>· Pears<br>· Plums</p>'],
    ['● without a space', '<p>●Apples<br>●Pears<br>●Plums</p>'],
    ['- in a div', '<div>- Apples<br>- Pears<br>- Plums</div>'],
  ])('writes %s items as a bulleted list', (_marker, html) => {
    expect(md(html)).toBe('- Apples\n- Pears\n- Plums');
  });

  it('writes numbered lines as an ordered list with the page’s numbers', () => {
    expect(md('<p>1. Mix the flour<br>2. Add the eggs<br>3. Bake</p>')).toBe(
      '1. Mix the flour\n2. Add the eggs\n3. Bake',
    );
    expect(md('<p>1) Mix the flour<br>2) Add the eggs</p>')).toBe('1. Mix the flour\n2. Add the eggs');
    expect(md('<p>4. Rest<br>5. Serve</p>')).toBe('4. Rest\n5. Serve');
    expect(render(md('<p>4. Rest<br>5. Serve</p>'))).toContain('<ol start="4">');
  });

  it('keeps a lead-in as a paragraph before the list', () => {
    const markdown = md('<p>Our <b>orchard</b> grows:<br>second line of the lead<br>• Apples<br>• Pears</p>');
    expect(markdown).toBe('Our **orchard** grows:\nsecond line of the lead\n\n- Apples\n- Pears');
    expect(render(markdown)).toBe(
      '<p>Our <strong>orchard</strong> grows:\nsecond line of the lead</p>\n<ul>\n<li>Apples</li>\n<li>Pears</li>\n</ul>\n',
    );
  });

  it('keeps inline formatting and links inside items', () => {
    expect(md('<p>- <b>Apples</b>, <i>crisp</i><br>- <a href="/pears">Pears</a> and <code>x_y</code></p>')).toBe(
      '- **Apples**, _crisp_\n- [Pears](https://example.com/pears) and `x_y`',
    );
  });

  it('escapes what would open a block at the start of an item', () => {
    const markdown = md('<p>- # hashtag<br>- 1. first<br>- &gt; quoted<br>- - dash<br>- ---</p>');
    expect(markdown).toBe('- \\# hashtag\n- 1\\. first\n- \\> quoted\n- \\- dash\n- \\---');
    expect(render(markdown).match(/<li>/g)).toHaveLength(5);
    expect(render(markdown)).not.toMatch(/<h1>|<ol>|<blockquote>|<hr/);
  });

  it('nests under a list item or a quotation', () => {
    expect(md('<ul><li><p>Fruit<br>- Apples<br>- Pears</p></li></ul>')).toBe('- Fruit\n\n  - Apples\n  - Pears');
    expect(md('<blockquote><p>- Apples<br>- Pears</p></blockquote>')).toBe('> - Apples\n> - Pears');
  });

  it.each([
    ['a single line', '<p>- only one line</p>', '\\- only one line'],
    ['a single marked line after text', '<p>Note<br>- only one</p>', 'Note\n\\- only one'],
    [
      'a line without a marker after the items',
      '<p>- Apples<br>- Pears<br>and more</p>',
      '\\- Apples\n\\- Pears\nand more',
    ],
    ['markers of two kinds', '<p>• Apples<br>- Pears</p>', '• Apples\n\\- Pears'],
    ['numbers that skip', '<p>1. Apples<br>3. Pears</p>', '1\\. Apples\n3\\. Pears'],
    ['numbers with two delimiters', '<p>1. Apples<br>2) Pears</p>', '1\\. Apples\n2\\) Pears'],
    ['minus signs', '<p>-5 °C at night<br>-2 °C by day</p>', '\\-5 °C at night\n\\-2 °C by day'],
    ['asterisks before a word', '<p>*Terms apply<br>*Prices in euros</p>', '\\*Terms apply\n\\*Prices in euros'],
    ['decimals', '<p>1.5 kg flour<br>2.5 l milk</p>', '1.5 kg flour\n2.5 l milk'],
    ['a marker inside bold', '<p><b>- Apples</b><br><b>- Pears</b></p>', '**- Apples**\n**- Pears**'],
  ])('leaves %s as it was', (_case, html, expected) => {
    expect(md(html)).toBe(expected);
  });

  it('leaves lines where they are written on one line: table cells, headings, links', () => {
    expect(
      md(
        '<table><tr><th>Fruit</th><th>Kinds</th></tr><tr><td>Apples</td><td><p>• Gala<br>• Fuji</p></td></tr><tr><td>Pears</td><td>Conference</td></tr></table>',
      ),
    ).toContain('| Apples | • Gala • Fuji |');
    expect(md('<h3><p>• Gala<br>• Fuji</p></h3>')).toBe('### • Gala • Fuji');
  });

  it('leaves a line break inside inline markup as it was', () => {
    expect(md('<p><span>- Apples<br>- Pears</span></p>')).toBe('\\- Apples\n\\- Pears');
  });

  it('reads a chain of nested lines once per line, not once per level', () => {
    const depth = 200;
    const html = '<div>- a<br>- b<span>'.repeat(depth) + 'x'.repeat(200_000) + '</span></div>'.repeat(depth);
    // Against the same lines and text side by side, timed in the same turn: a loaded machine
    // slows both (about 3 to 5 times the flat page's time here); a read per level, 200 times.
    const flat = '<div>- a<br>- b<span></span></div>'.repeat(depth) + `<div>${'x'.repeat(200_000)}</div>`;
    const flatStarted = Date.now();
    md(flat);
    const flatMs = Date.now() - flatStarted;
    const started = Date.now();
    md(html);
    expect(Date.now() - started).toBeLessThan(Math.max(2_000, 15 * flatMs));
  });
});
