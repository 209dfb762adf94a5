/**
 * Word vectors for the passage ranker (word-vectors.ts): the file formats and their errors,
 * nearest words, a text's mean vector, and a question the ranker finds only with them
 * (made-up words, so that neither WordNet nor the stemmer can bridge them).
 */
import { describe, expect, it } from 'vitest';
import { selectPassages } from '../../../src/extract/passages/select-passages.js';
import { rankLinks } from '../../../src/extract/passages/rank-links.js';
import {
  NEAREST_AMONG,
  WordVectorsError,
  meanVector,
  nearestWords,
  parseWordVectors,
  wordVectors,
} from '../../../src/extract/passages/word-vectors.js';
import { TOPIC_VECTORS, VECTOR_DIMS, vectorsText } from '../../helpers/word-vectors-text.js';

const DIMS = VECTOR_DIMS;
/** The topic words the unit tests read (the page's of the face test but the market's). */
const TOPICS = Object.fromEntries(
  Object.entries(TOPIC_VECTORS).filter(([word]) => word !== 'market' && word !== 'traders'),
);

describe('word vectors', () => {
  it('reads GloVe lines and fastText .vec (its header skipped), rows of unit length, the first `limit` words', () => {
    for (const header of [false, true]) {
      const v = parseWordVectors(vectorsText(TOPICS, { header }), 1_000);
      expect(v.dims).toBe(DIMS);
      expect(v.words.length).toBe(108);
      const row = v.index.get('quimbles')!;
      const norm = Math.hypot(...v.matrix.subarray(row * DIMS, row * DIMS + DIMS));
      expect(norm).toBeCloseTo(1, 5);
    }
    expect(parseWordVectors(vectorsText(TOPICS), 102).words).toEqual([
      ...Array.from({ length: 100 }, (_, i) => `filler${i}`),
      'zorblat',
      'quimbles',
    ]);
  });

  it('puts the matrix on a SharedArrayBuffer when asked, and a view over it reads the same', () => {
    const shared = parseWordVectors(vectorsText(TOPICS), 1_000, true);
    expect(shared.matrix.buffer).toBeInstanceOf(SharedArrayBuffer);
    const view = wordVectors(shared.words, new Float32Array(shared.matrix.buffer), DIMS);
    expect(nearestWords(view, 'zorblat', 3, 0.5)).toEqual(nearestWords(shared, 'zorblat', 3, 0.5));
    expect(() => wordVectors(shared.words.slice(1), shared.matrix, DIMS)).toThrow(WordVectorsError);
  });

  it('names the first line that is not a word and its numbers', () => {
    const bad = `${vectorsText(TOPICS)}broken 1 2 three 4 5 6\n`;
    expect(() => parseWordVectors(bad, 1_000)).toThrow(/line 109 is not a word and 6 numbers: "broken 1 2 three/);
    expect(() => parseWordVectors(`${vectorsText(TOPICS)}short 1 2\n`, 1_000)).toThrow(/line 109/);
    expect(() => parseWordVectors('\n\n', 1_000)).toThrow(/no word vectors/);
    // Past the limit nothing more is read, a bad line there included.
    expect(parseWordVectors(bad, 108).words.length).toBe(108);
  });

  it('finds nearest words above the cosine asked, nearest first, among the common words only', () => {
    const v = parseWordVectors(vectorsText(TOPICS), 1_000);
    expect(nearestWords(v, 'zorblat', 5, 0.9)).toEqual(['quimbles']);
    expect(nearestWords(v, 'snorf', 1, 0.5)).toEqual(['grelp']);
    expect(nearestWords(v, 'unknown', 5, 0.1)).toEqual([]);
    // Remembered, but not without end: a server sees ever new query words.
    for (let i = 0; i < 6_000; i++) nearestWords(v, `word${i}`, 5, 0.5);
    expect(v.nearest.size).toBeGreaterThan(0);
    expect(v.nearest.size).toBeLessThanOrEqual(5_000);
    expect(NEAREST_AMONG).toBeGreaterThan(108);
  });

  it("weighs a text's words into one unit vector, function words and the 100 commonest rows left out", () => {
    const v = parseWordVectors(vectorsText(TOPICS), 1_000);
    expect(meanVector(v, ['filler3', 'the'], new Set(['the']))).toBeNull();
    const mean = meanVector(v, ['rain', 'valley', 'the', 'filler1'], new Set(['the']))!;
    expect(Math.hypot(...mean)).toBeCloseTo(1, 6);
    expect(mean[3]).toBeGreaterThan(0.9);
  });
});

describe('the ranker with word vectors', () => {
  const markdown = [
    '# Field notes',
    '',
    'The tower was raised by masons from the coast over many seasons of hard work.',
    '',
    'Rain fell for three days in the valley and the river rose above its banks.',
    '',
    'Quimbles grelp blue moss every morning before the sun is high.',
    '',
    'A market opens on the square each week, and traders come from far away.',
  ].join('\n');
  const vectors = parseWordVectors(vectorsText(TOPICS), 1_000);

  it('finds the passage a question names in other words only with them', () => {
    const question = 'What does a zorblat snorf?';
    expect(selectPassages(markdown, question, 1).map((p) => p.text)).not.toContainEqual(
      expect.stringContaining('Quimbles'),
    );
    const found = selectPassages(markdown, question, 1, { vectors });
    expect(found[0]?.text).toContain('Quimbles grelp blue moss');
  });

  it('leaves a question its page answers in its own words as it was', () => {
    const question = 'How long did the rain fall in the valley?';
    expect(selectPassages(markdown, question, 1, { vectors })[0]?.text).toBe(
      selectPassages(markdown, question, 1)[0]?.text,
    );
  });

  it('ranks links by near words too', () => {
    const links = [{ url: 'https://example.com/quimbles' }, { url: 'https://example.com/towers' }];
    expect(rankLinks('zorblat', links)).toEqual([0, 0]);
    const scores = rankLinks('zorblat', links, vectors);
    expect(scores[0]).toBeGreaterThan(0);
    expect(scores[1]).toBe(0);
  });
});
