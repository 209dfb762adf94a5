/**
 * Passages cut to a budget of characters (fit-passages.ts through selectPassages' maxChars):
 * the total within the budget, whole sentences kept around the query's words, offsets exact,
 * short passages left whole, a sentence longer than a share cut at a space.
 */
import { describe, expect, it } from 'vitest';
import { selectPassages } from '../../../src/extract/passages/index.js';

const sentence = (i: number) => `Sentence ${i} of the walk talks about stones, hedges and the weather on the way.`;
const section = (title: string, lines: string[]) => `## ${title}\n\n${lines.join(' ')}`;

// Three long sections, each with one sentence about the query in its middle.
const PAGE = [
  section('Morning', [
    ...Array.from({ length: 5 }, (_, i) => sentence(i)),
    'The bakery in the square opens its doors at seven.',
    ...Array.from({ length: 5 }, (_, i) => sentence(i + 5)),
  ]),
  section('Noon', [
    ...Array.from({ length: 4 }, (_, i) => sentence(i + 10)),
    'A second bakery by the river sells rye bread until noon.',
    ...Array.from({ length: 6 }, (_, i) => sentence(i + 14)),
  ]),
  section('Evening', [
    ...Array.from({ length: 6 }, (_, i) => sentence(i + 20)),
    'No bakery stays open after six in the evening.',
    ...Array.from({ length: 4 }, (_, i) => sentence(i + 26)),
  ]),
].join('\n\n');

describe('selectPassages with maxChars', () => {
  it('keeps the total within the budget, each passage whole sentences around its match, offsets exact', () => {
    const whole = selectPassages(PAGE, 'bakery', 3);
    expect(whole.reduce((n, p) => n + p.text.length, 0)).toBeGreaterThan(600);
    const cut = selectPassages(PAGE, 'bakery', 3, { maxChars: 600 });
    expect(cut).toHaveLength(whole.length);
    expect(cut.reduce((n, p) => n + p.text.length, 0)).toBeLessThanOrEqual(600);
    for (const p of cut) {
      expect(PAGE.slice(p.start_char, p.end_char)).toBe(p.text);
      expect(p.text).toMatch(/bakery/i);
      // Whole sentences: it starts a sentence and ends at one's end.
      expect(p.text).toMatch(/^(?:[A-Z#])/);
      expect(p.text).toMatch(/\.$/);
    }
    // Page order and heading paths are kept.
    expect(cut.map((p) => p.heading_path)).toEqual(whole.map((p) => p.heading_path));
    expect(cut.map((p) => p.start_char)).toEqual([...cut.map((p) => p.start_char)].sort((a, b) => a - b));
  });

  it('leaves passages that fit whole, and gives a short one’s unused share to the others', () => {
    const whole = selectPassages(PAGE, 'bakery', 3);
    const total = whole.reduce((n, p) => n + p.text.length, 0);
    expect(selectPassages(PAGE, 'bakery', 3, { maxChars: total })).toEqual(whole);
    const md = `${section('Short', ['The bakery is small.'])}\n\n${section('Long', [
      ...Array.from({ length: 6 }, (_, i) => sentence(i)),
      'The bakery bakes at dawn.',
    ])}`;
    // One passage a section (under PASSAGE_SIZE.maxChars), the long one over half the budget.
    const [short, long] = selectPassages(md, 'bakery', 2, { maxChars: 400 });
    expect(short?.text).toBe('The bakery is small.');
    expect((long?.text.length ?? 0) + (short?.text.length ?? 0)).toBeLessThanOrEqual(400);
    // More than half the budget: the short passage's unused share went to it.
    expect(long?.text.length).toBeGreaterThan(200);
    expect(long?.text).toContain('The bakery bakes at dawn.');
  });

  it('cuts a sentence longer than its share at a space, never mid-word', () => {
    const words = Array.from({ length: 80 }, (_, i) => `word${i}`).join(' ');
    const md = `## Run-on\n\nThe bakery ${words} ends here.`;
    const [p] = selectPassages(md, 'bakery', 1, { maxChars: 120 });
    expect(p?.text.length).toBeLessThanOrEqual(120);
    expect(md.slice(p?.start_char, p?.end_char)).toBe(p?.text);
    expect(p?.text).toMatch(/(?:word\d+|bakery)$/);
    expect(md.charAt(p?.end_char ?? 0)).toBe(' ');
  });

  it('never cuts or grows into part of a fenced code block', () => {
    const code = ['```js', ...Array.from({ length: 8 }, (_, i) => `const step${i} = await bake(${i}); // oven`), '```'];
    const md = [
      '## Baking',
      '',
      'Set the oven before anything else. It takes a while to warm.',
      '',
      ...code,
      '',
      'The bakery script above waits for each tray. Run it once a day.',
    ].join('\n');
    for (const maxChars of [120, 250, 400, 600]) {
      for (const p of selectPassages(md, 'bakery script tray', 1, { maxChars })) {
        expect(md.slice(p.start_char, p.end_char)).toBe(p.text);
        const fences = p.text.split('\n').filter((line) => line.startsWith('```')).length;
        expect([0, 2], `${maxChars}: ${p.text}`).toContain(fences);
      }
    }
  });

  it('never gives two passages the same text when both grow into the gap between them', () => {
    const filler = (from: number) => Array.from({ length: 4 }, (_, i) => sentence(from + i)).join(' ');
    const md = [
      '## Walk',
      '',
      `The bakery opens early. ${filler(0)}`,
      '',
      filler(4),
      '',
      filler(8),
      '',
      `A second bakery opens late. ${filler(12)}`,
    ].join('\n');
    // Two short passages of one section with sentences between them: both may grow into the gap.
    const chosen = selectPassages(md, 'bakery opens', 2, { maxChars: 2000 });
    expect(chosen).toHaveLength(2);
    expect(chosen.reduce((n, p) => n + p.text.length, 0)).toBeGreaterThan(1000);
    for (let i = 1; i < chosen.length; i++)
      expect(chosen[i]?.start_char).toBeGreaterThanOrEqual(chosen[i - 1]?.end_char ?? 0);
    for (const p of chosen) expect(md.slice(p.start_char, p.end_char)).toBe(p.text);
  });

  it('is deterministic and changes nothing without maxChars', () => {
    const a = selectPassages(PAGE, 'bakery open', 3, { maxChars: 500 });
    expect(selectPassages(PAGE, 'bakery open', 3, { maxChars: 500 })).toEqual(a);
    expect(selectPassages(PAGE, 'bakery open', 3, {})).toEqual(selectPassages(PAGE, 'bakery open', 3));
  });
});
