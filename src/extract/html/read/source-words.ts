/**
 * Words a pass looks for in the page's source before it walks the tree: absent, the walk
 * can find nothing. One scan finds them all, where a search per word read the whole source
 * a dozen times (docs/extraction.md, "The pipeline").
 */

import { escapeRegExp } from '../../../core/escape-reg-exp.js';
import { MARK_PREFIX } from '../marks.js';

const WORDS = [
  MARK_PREFIX,
  'schema.org/Product',
  'roduct',
  'ld+json',
  'itemscope',
  'typeof=',
  '<math',
  'math/tex',
  'katex',
  'mjx-container',
  'mwe-math',
  'checkbox',
  'avatar',
  'lorem',
  '<figcaption',
  '<form',
] as const;

export type SourceWord = (typeof WORDS)[number];

/** Matched as written; the others in any case. */
const CASED: ReadonlySet<string> = new Set<SourceWord>([MARK_PREFIX, 'schema.org/Product', 'roduct']);

const BY_LOWER = new Map<string, SourceWord>(WORDS.map((word) => [word.toLowerCase(), word]));

// No word is a prefix of another, so at most one matches at a position.
const ANY_WORD = new RegExp(WORDS.map(escapeRegExp).join('|'), 'gi');

export interface SourceWords {
  has(word: SourceWord): boolean;
}

/** The WORDS in `source`, found in one scan. */
export function sourceWords(source: string): SourceWords {
  const found = new Set<SourceWord>();
  const scan = new RegExp(ANY_WORD);
  for (let match = scan.exec(source); match !== null && found.size < WORDS.length; match = scan.exec(source)) {
    const word = BY_LOWER.get(match[0].toLowerCase())!;
    if (!CASED.has(word) || match[0] === word) found.add(word);
    // Words overlap ("roduct" in "schema.org/Product"): the next search starts one on.
    scan.lastIndex = match.index + 1;
  }
  return { has: (word) => found.has(word) };
}
