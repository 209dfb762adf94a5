/**
 * A query as the rankers read it (passages: select-passages.ts; links: rank-links.ts): its
 * content words reduced to the page language's terms (stem.ts), each once, and after them
 * their English synonyms and related words (wordnet.ts) at lower weights, so that a
 * question asked in other words than its page still meets it ("penalised" / "fined").
 */
import { termsFor } from './stem.js';
import { stopWordsFor } from './stop-words.js';
import { relativesOf } from './wordnet.js';
import { tokenize } from './tokenize.js';
import { nearestWords, type WordVectors } from './word-vectors.js';
import { numberForms } from './number-forms.js';

/** A synonym's weight against a word of the query's own (bench:passages, both splits). */
export const SYNONYM_WEIGHT = 0.5;
/** A word's synonyms taken at most (its commonest senses' first): "make" has 23, the mean is 2. */
export const SYNONYMS_PER_WORD = 6;
/** A related word's weight (a broader or narrower word, a derived form, an attribute). */
export const RELATED_WEIGHT = 0.3;
/** A word's related words taken at most, in WordNet's order. */
export const RELATED_PER_WORD = 40;
/** With word vectors (word-vectors.ts): a near word's weight, ... */
export const NEAR_WEIGHT = 0.3;
/** ... the near words taken per query word at most, nearest first, ... */
export const NEAR_PER_WORD = 20;
/** ... and the cosine they reach at least. */
export const NEAR_MIN_COSINE = 0.5;

export interface QueryTerms {
  /**
   * The query's own terms first (`own` of them), then the other forms of its numbers and
   * units (number-forms.ts), its synonyms', its related words', its near words' (with vectors).
   */
  terms: string[];
  /** Per term: 1 for the query's own and their number forms, SYNONYM_WEIGHT for a synonym's, RELATED_WEIGHT for a related word's, NEAR_WEIGHT for a near word's. */
  weights: number[];
  own: number;
  /** Term indexes of the query's own content words, in query order (for phrases). */
  sequence: number[];
  /** The term a page's word counts as (its language's stemmer). */
  termOf: (token: string) => string;
}

/**
 * `query`'s terms for a page in `language` (BCP 47; its stop words join the English ones);
 * with `vectors`, each English word's nearest words join them last.
 */
export function queryTerms(query: string, language?: string, vectors?: WordVectors): QueryTerms {
  const stop = stopWordsFor(language);
  const termOf = termsFor(language);
  const terms: string[] = [];
  const sequence: number[] = [];
  const words: string[] = [];
  const tokens = tokenize(query);
  for (const token of tokens) {
    // A lone Latin letter is a possessive's "s" or an initial: it would match everywhere.
    if (stop.has(token) || /^[a-z]$/.test(token)) continue;
    const term = termOf(token);
    let index = terms.indexOf(term);
    if (index === -1) {
      index = terms.push(term) - 1;
      words.push(token);
    }
    sequence.push(index);
  }
  const own = terms.length;
  const known = new Set(terms);
  // Synonyms, then related words, each list after the other so that weights follow positions.
  const add = (list: string[]) => {
    for (const word of list) {
      const term = termOf(word);
      if (stop.has(word) || known.has(term)) continue;
      known.add(term);
      terms.push(term);
    }
  };
  add(numberForms(tokens));
  const formsEnd = terms.length;
  const relatives = words.filter((w) => /^[a-z]{3,}$/.test(w)).map(relativesOf);
  for (const r of relatives) add(r.synonyms.slice(0, SYNONYMS_PER_WORD));
  const synonymsEnd = terms.length;
  for (const r of relatives) add(r.related.slice(0, RELATED_PER_WORD));
  const relatedEnd = terms.length;
  if (vectors !== undefined)
    for (const word of words)
      if (/^[a-z]{3,}$/.test(word))
        add(nearestWords(vectors, word, NEAR_PER_WORD, NEAR_MIN_COSINE).filter((w) => /^[a-z]{3,}$/.test(w)));
  const weights = terms.map((_, t) =>
    t < formsEnd ? 1 : t < synonymsEnd ? SYNONYM_WEIGHT : t < relatedEnd ? RELATED_WEIGHT : NEAR_WEIGHT,
  );
  return { terms, weights, own, sequence, termOf };
}
