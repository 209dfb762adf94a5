/**
 * One ranking as a task: a page's Markdown and the request's query in, its passages out,
 * the way the page journey asks for them. A task of its own so that the converter port
 * can run it where conversions run (a worker in servers: a 3 MB page takes ~90 ms).
 */
import type { Passage } from './passage.js';
import { selectPassages } from './select-passages.js';
import type { WordVectors } from './word-vectors.js';

export interface PassagesInput {
  markdown: string;
  query: string;
  /** Passages at most. */
  max: number;
  /** Their characters in all (`max_passage_chars`); absent: passages whole. */
  maxChars?: number;
  /** The language whose stop words apply (the page's, else the request's); absent: none named. */
  language?: string;
}

/** The passages of `input.markdown` that answer `input.query` (select-passages.ts), with the operator's word vectors when configured. */
export function rankPassages(input: PassagesInput, vectors?: WordVectors): Passage[] {
  const { markdown, query, max, language, maxChars } = input;
  return selectPassages(markdown, query, max, {
    ...(language ? { language } : {}),
    ...(maxChars !== undefined ? { maxChars } : {}),
    ...(vectors !== undefined ? { vectors } : {}),
  });
}
