/**
 * The one scan of a page's source for the words passes look for before their walks
 * (src/extract/html/read/source-words.ts) answers as a search per word did.
 */
import { describe, expect, it } from 'vitest';
import { sourceWords, type SourceWord } from '../../src/extract/html/read/source-words.js';

const WORDS: SourceWord[] = [
  'data-md-',
  'schema.org/Product',
  'roduct',
  'ld+json',
  '<math',
  'math/tex',
  'katex',
  'mjx-container',
  'mwe-math',
  'checkbox',
  'avatar',
  'lorem',
  '<figcaption',
];
const CASED = new Set<SourceWord>(['data-md-', 'schema.org/Product', 'roduct']);

/** The search each pass made before: as written for the cased words, in any case for the others. */
function searched(source: string, word: SourceWord): boolean {
  return new RegExp(word.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&'), CASED.has(word) ? '' : 'i').test(source);
}

/** A little generator of pages made of the words, their pieces and their other cases. */
function pages(count: number): string[] {
  let seed = 7;
  const next = (n: number): number => ((seed = (seed * 1103515245 + 12345) % 2 ** 31), seed % n);
  const pieces = [
    ...WORDS,
    ...WORDS.map((w) => w.toUpperCase()),
    ...WORDS.map((w) => w.slice(0, -1)),
    ...WORDS.map((w) => w.slice(1)),
    ' ',
    '<',
    'm',
    'Product',
    'K\u212Aatex',
  ];
  return Array.from({ length: count }, () =>
    Array.from({ length: 1 + next(6) }, () => pieces[next(pieces.length)]).join(''),
  );
}

describe('source words', () => {
  it('finds each word as the search per word did, on pages of words, pieces and other cases', () => {
    let found = 0;
    for (const page of pages(3000)) {
      const words = sourceWords(page);
      for (const word of WORDS) {
        const expected = searched(page, word);
        if (expected) found++;
        expect(words.has(word), `${word} in ${JSON.stringify(page)}`).toBe(expected);
      }
    }
    expect(found).toBeGreaterThan(1000);
  });

  it('reads overlapping words and the case each word is matched in', () => {
    const words = sourceWords(
      '<script type="application/LD+JSON">{"@context":"https://schema.org/Product"}</script><p>LOREM</p>',
    );
    for (const word of ['schema.org/Product', 'roduct', 'ld+json', 'lorem'] as const)
      expect(words.has(word), word).toBe(true);
    expect(sourceWords('SCHEMA.ORG/PRODUCT <DIV DATA-MD-X>').has('roduct')).toBe(false);
    expect(sourceWords('SCHEMA.ORG/PRODUCT <DIV DATA-MD-X>').has('data-md-')).toBe(false);
    expect(sourceWords('a mwe-math/tex formula').has('math/tex')).toBe(true);
    expect(sourceWords('').has('avatar')).toBe(false);
  });
});
