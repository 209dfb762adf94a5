import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { PASSAGE_SIZE, splitPassages, type Passage } from '../../../src/extract/passages/index.js';

function expectTruthful(markdown: string, passages: Passage[]): void {
  for (const p of passages) expect(markdown.slice(p.start_char, p.end_char)).toBe(p.text);
}

const sentence = (n: number) => `Sentence number ${n} says something about the topic at hand.`;
const paragraph = (from: number, count: number) =>
  Array.from({ length: count }, (_, i) => sentence(from + i)).join(' ');

describe('splitPassages', () => {
  it('never crosses a heading and gives each passage its heading path, outermost first', () => {
    const md =
      '# Guide\n\nIntro text.\n\n## Install\n\nRun the installer.\n\n### On Linux\n\nUse apt.\n\n## Use\n\nCall it.';
    const passages = splitPassages(md);
    expect(passages.map((p) => [p.text, p.heading_path])).toEqual([
      ['Intro text.', ['Guide']],
      ['Run the installer.', ['Guide', 'Install']],
      ['Use apt.', ['Guide', 'Install', 'On Linux']],
      ['Call it.', ['Guide', 'Use']],
    ]);
    expect(passages.every((p) => p.score === 0)).toBe(true);
    expectTruthful(md, passages);
  });

  it('reads heading text without its Markdown (links, emphasis, closing hashes) and setext headings', () => {
    const md = '## [Setup](#setup) *now* ##\n\nBody one.\n\nTitle Two\n---------\n\nBody two.';
    expect(splitPassages(md).map((p) => p.heading_path)).toEqual([['Setup now'], ['Title Two']]);
  });

  it('merges paragraphs up to the target size and no further than the maximum', () => {
    const paragraphs = Array.from({ length: 12 }, (_, i) => paragraph(i * 3, 3));
    const md = paragraphs.join('\n\n');
    const passages = splitPassages(md);
    expect(passages.length).toBeGreaterThan(1);
    expect(passages.length).toBeLessThan(paragraphs.length);
    for (const p of passages) expect(p.text.length).toBeLessThanOrEqual(PASSAGE_SIZE.maxChars);
    for (const p of passages.slice(0, -1)) expect(p.text.length).toBeGreaterThanOrEqual(PASSAGE_SIZE.targetChars);
    expectTruthful(md, passages);
  });

  it('cuts a paragraph longer than the maximum at sentence ends', () => {
    const md = paragraph(0, 60);
    const passages = splitPassages(md);
    expect(passages.length).toBeGreaterThan(2);
    for (const p of passages) {
      expect(p.text.length).toBeLessThanOrEqual(PASSAGE_SIZE.maxChars);
      expect(p.text.endsWith('.')).toBe(true);
      expect(p.text.startsWith('Sentence number')).toBe(true);
    }
    expectTruthful(md, passages);
  });

  it('keeps a fenced code block whole, even past the maximum, blank lines inside included', () => {
    const code = Array.from({ length: 80 }, (_, i) => (i % 10 === 5 ? '' : `const value${i} = compute(${i});`)).join(
      '\n',
    );
    const md = `## Code\n\nBefore.\n\n\`\`\`js\n${code}\n\`\`\`\n\nAfter.`;
    const passages = splitPassages(md);
    const block = passages.find((p) => p.text.includes('```js'));
    expect(block?.text.endsWith('```')).toBe(true);
    expect(block?.text).toContain('value0 =');
    expect(block?.text).toContain('value79 =');
    expect(block?.text.length).toBeGreaterThan(PASSAGE_SIZE.maxChars);
    expectTruthful(md, passages);
  });

  it('does not take a "#" line inside a code block for a heading', () => {
    const md = '## Shell\n\n```sh\n# a comment\nls\n```\n\nAfter the block.';
    expect(splitPassages(md).map((p) => p.heading_path)).toEqual([['Shell']]);
  });

  it("keeps a list's lead-in with its first item, and names it on a later passage that starts inside the list", () => {
    const items = Array.from({ length: 30 }, (_, i) => `- Option ${i}: ${sentence(i)}`).join('\n');
    const md = `## Options\n\nThe tool accepts these options:\n\n${items}\n\nThat is all.`;
    const passages = splitPassages(md);
    expect(passages[0]?.text.startsWith('The tool accepts these options:\n\n- Option 0')).toBe(true);
    expect(passages[0]?.lead_in).toBeUndefined();
    const later = passages.filter((p) => p.text.startsWith('- Option') && p !== passages[0]);
    expect(later.length).toBeGreaterThan(0);
    for (const p of later) expect(p.lead_in).toBe('The tool accepts these options:');
    expectTruthful(md, passages);
  });

  it('keeps nested items and continuation lines within the list item', () => {
    const md = '- first item\n  continued here\n  - nested child\n- second item';
    const [only] = splitPassages(md);
    expect(only?.text).toBe(md);
  });

  it('keeps a table row with its header row: the header leads the first passage and is lead_in of the later ones', () => {
    const rows = Array.from({ length: 40 }, (_, i) => `| City ${i} | ${1000 + i} | ${sentence(i)} |`).join('\n');
    const head = '| City | Population | Note |\n| --- | ---: | --- |';
    const md = `## Cities\n\n${head}\n${rows}\n\nFooter paragraph.`;
    const passages = splitPassages(md);
    expect(passages[0]?.text.startsWith(`${head}\n| City 0 |`)).toBe(true);
    const later = passages.filter((p) => p.text.startsWith('| City ') && !p.text.startsWith('| City |'));
    expect(later.length).toBeGreaterThan(1);
    for (const p of later) expect(p.lead_in).toBe(head);
    // Every row is in exactly one passage.
    const joined = passages.map((p) => p.text).join('\n');
    for (let i = 0; i < 40; i++) expect(joined.split(`| City ${i} |`).length).toBe(2);
    expectTruthful(md, passages);
  });

  it('never leaves a table header or a list lead-in alone at the end of a passage', () => {
    // The open passage is just under the target: the header (or lead-in) fits it, the wide
    // first row (or item) would not, so without the glue the header would end the passage.
    const before = 'x'.repeat(PASSAGE_SIZE.targetChars - 40);
    const wide = 'y '.repeat(Math.ceil((PASSAGE_SIZE.maxChars - PASSAGE_SIZE.targetChars + 60) / 2)).trim();
    const table = `${before}\n\n| A | B |\n|---|---|\n| 1 | ${wide} |`;
    const withHead = splitPassages(table).find((p) => p.text.includes('| A | B |'));
    expect(withHead?.text.endsWith(`${wide} |`)).toBe(true);
    const list = `${before}\n\nThe steps are:\n\n- ${wide}`;
    const withLead = splitPassages(list).find((p) => p.text.includes('The steps are:'));
    expect(withLead?.text.endsWith(wide)).toBe(true);
  });

  it('keeps its offsets truthful with CRLF line ends, surrogate pairs and no trailing newline', () => {
    const md = '# T\r\n\r\nEmoji 😀 here.\r\n\r\n- a\r\n- b 😀\r\n\r\n| x |\r\n|---|\r\n| 😀 |';
    const passages = splitPassages(md);
    expect(passages.length).toBeGreaterThan(0);
    for (const p of passages) expect(p.text.endsWith('\r')).toBe(false);
    expectTruthful(md, passages);
  });

  it('returns nothing for an empty page or one of headings only', () => {
    expect(splitPassages('')).toEqual([]);
    expect(splitPassages('# A\n\n## B\n')).toEqual([]);
  });

  it('keeps the offsets invariant on every golden page, each passage at most the maximum unless it is code', () => {
    const root = new URL('../../golden/', import.meta.url);
    const dirs = readdirSync(root);
    expect(dirs.length).toBeGreaterThan(5);
    for (const dir of dirs) {
      const md = readFileSync(new URL(`${dir}/expected.md`, root), 'utf8');
      const passages = splitPassages(md);
      expect(passages.length, dir).toBeGreaterThan(0);
      expectTruthful(md, passages);
      // In page order, never overlapping.
      for (let i = 1; i < passages.length; i++)
        expect((passages[i] as Passage).start_char).toBeGreaterThanOrEqual((passages[i - 1] as Passage).end_char);
      for (const p of passages)
        if (!p.text.includes('```') && !p.text.startsWith('|'))
          expect(p.text.length, dir).toBeLessThanOrEqual(PASSAGE_SIZE.maxChars);
    }
  });
});
