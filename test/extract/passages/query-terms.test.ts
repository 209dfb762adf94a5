/** A query's terms: its own, stemmed, then WordNet synonyms at a lower weight (query-terms.ts, synonyms.ts). */
import { describe, expect, it } from 'vitest';
import { selectPassages } from '../../../src/extract/passages/index.js';
import { queryTerms, RELATED_WEIGHT, SYNONYM_WEIGHT } from '../../../src/extract/passages/query-terms.js';
import { relativesOf } from '../../../src/extract/passages/wordnet.js';
import { rankLinks } from '../../../src/extract/passages/rank-links.js';

describe('relativesOf', () => {
  it('gives the one-word synonyms of a word and of its inflections, itself left out', () => {
    expect(relativesOf('illness').synonyms).toEqual(expect.arrayContaining(['sickness']));
    expect(relativesOf('penalised').synonyms).toEqual(expect.arrayContaining(['punish']));
    expect(relativesOf('cheap').synonyms).toEqual(expect.arrayContaining(['inexpensive']));
    expect(relativesOf('illness').synonyms).not.toContain('illness');
    expect(relativesOf('xqzv')).toEqual({ synonyms: [], related: [] });
    expect(relativesOf('Nope!')).toEqual({ synonyms: [], related: [] });
  });

  it('gives broader and narrower words, derived forms and attributes as related words', () => {
    expect(relativesOf('birthday').related).toContain('anniversary');
    expect(relativesOf('employees').related).toContain('worker');
    expect(relativesOf('temperature').related).toEqual(expect.arrayContaining(['cold', 'hot']));
    expect(relativesOf('penalised').related).toEqual(expect.arrayContaining(['penalty', 'punishment']));
    // A synonym is not repeated among the related words.
    const { synonyms, related } = relativesOf('voyage');
    expect(related.filter((w) => synonyms.includes(w))).toEqual([]);
  });

  it('finds the first and the last lemma of each index file (the bisection reaches both ends)', () => {
    expect(relativesOf('aardvark').related.length).toBeGreaterThan(0);
    expect(relativesOf('zymurgy').related.length).toBeGreaterThan(0);
  });
});

describe('queryTerms', () => {
  it("puts the query's own terms first, each once, its synonyms and related words after at their weights", () => {
    const q = queryTerms('cheap cheap tickets for the illness ward');
    expect(q.terms.slice(0, q.own)).toEqual(['cheap', 'ticket', 'ill', 'ward']);
    expect(q.sequence).toEqual([0, 0, 1, 2, 3]);
    expect(q.terms.slice(q.own)).toContain('inexpens');
    expect(q.weights.slice(0, q.own)).toEqual([1, 1, 1, 1]);
    // Synonyms at their weight, then related words at theirs.
    const rest = q.weights.slice(q.own);
    expect(rest[0]).toBe(SYNONYM_WEIGHT);
    expect(rest.at(-1)).toBe(RELATED_WEIGHT);
    expect([...rest].sort((a, b) => b - a)).toEqual(rest);
    expect(new Set(q.terms).size).toBe(q.terms.length);
  });

  it('stems with the page language', () => {
    expect(queryTerms('Häuser', 'de').terms[0]).toBe(queryTerms('Haus', 'de').terms[0]);
  });
});

describe('the rankers with synonyms', () => {
  it('a passage in other words than the question is found', () => {
    const md = [
      '## Travel',
      '',
      'The coach leaves at dawn and the seats are comfortable.',
      '',
      '## Health',
      '',
      'Anyone with a sickness should stay home and rest until they feel better.',
    ].join('\n');
    const [best] = selectPassages(md, 'What to do with an illness?', 1);
    expect(best?.heading_path).toEqual(['Health']);
  });

  it("a question with none of the answer's words finds it through relatives and the kind of answer asked", () => {
    const md = [
      '## Landing',
      '',
      'The probe landed in a crater in the north of the plain. Engineers cheered in the control room.',
      '',
      '## Driving',
      '',
      'Over its first year the vehicle covered 4 km of rocky ground, pausing at every boulder.',
      '',
      '## Weather',
      '',
      'Dust storms hid the sun for weeks, and the panels lost power.',
    ].join('\n');
    const [best] = selectPassages(md, 'How far did the rover travel?', 1, { maxChars: 300 });
    expect(best?.heading_path).toEqual(['Driving']);
    expect(best?.text).toContain('4 km');
  });

  it('rankLinks weighs a synonym below the word itself', () => {
    const [own, synonym, none] = rankLinks('illness', [
      { url: 'https://example.test/illness' },
      { url: 'https://example.test/sickness' },
      { url: 'https://example.test/weather' },
    ]);
    expect(own).toBeGreaterThan(synonym ?? 0);
    expect(synonym).toBeGreaterThan(0);
    expect(none).toBe(0);
  });
});
