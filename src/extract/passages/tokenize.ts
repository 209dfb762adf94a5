/**
 * Unicode-aware tokens for ranking: letters, marks and digits in runs, lowercased and
 * NFKC-folded (full-width forms, ligatures). Runs in scripts written without spaces (Han,
 * Kana, Thai, Lao, Khmer, Myanmar) are cut into words by `Intl.Segmenter`'s dictionaries
 * where the text is short (a query, a heading); a page's runs are handed over whole, to be
 * searched for the query's words (select-passages.ts): segmenting 50 KB of Chinese costs
 * ~150 ms. English words are reduced to their Porter stems (`stemmer`).
 */
import { stemmer } from 'stemmer';
import { LINK_TARGET } from './markdown-links.js';

const WORD_CHAR = /[\p{L}\p{M}\p{N}]/u;
const NO_SPACES =
  /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}]/u;
const NON_ASCII = /[\u0080-\uffff]/;
const STEMMABLE = /^[a-z]{3,}$/;

// Built once: a Segmenter costs far more to build than to use.
let segmenter: Intl.Segmenter | undefined;

/** Accented Latin, Greek and Cyrillic letters: most of a European page's non-ASCII, no regex needed. */
function isCommonLetter(code: number): boolean {
  return (
    (code >= 0xc0 && code <= 0x24f && code !== 0xd7 && code !== 0xf7) ||
    (code >= 0x391 && code <= 0x3c9) ||
    (code >= 0x400 && code <= 0x481) ||
    (code >= 0x48a && code <= 0x4ff)
  );
}

/** Whether a word is written in a script without spaces between words. */
export function isNoSpaceScript(word: string): boolean {
  return NO_SPACES.test(word);
}

/**
 * The words of a text one at a time, read in place: `next()` moves to the next word, whose
 * characters are `text.slice(start, end)`; no callback and no string per word, so the
 * ranker can test a word by its characters before it cuts any out. A scan by character
 * code with an ASCII fast path: three times a regex's speed.
 */
export class WordCursor {
  /** The text the words are read from: link targets out, NFKC-folded where not ASCII, lowercased. */
  readonly text: string;
  start = 0;
  end = 0;
  /** The word is a run in a script without spaces, handed over whole. */
  noSpaces = false;

  constructor(text: string) {
    // A link's or image's target is not the passage's text: `[text](https://...)` reads "text".
    const shown = text.includes('](') ? text.replace(LINK_TARGET, ']') : text;
    // Folded, then lowercased: NFKC makes capitals of some letters (𝒜 -> A, Ⅻ -> XII).
    this.text = (NON_ASCII.test(shown) ? shown.normalize('NFKC') : shown).toLowerCase();
  }

  next(): boolean {
    const folded = this.text;
    const length = folded.length;
    let i = this.end;
    // To the next word's first character; ASCII by a table, the rest by wordKind.
    let kind = 0;
    while (i < length) {
      const code = folded.charCodeAt(i);
      if (code < 0x80) {
        if (ASCII_WORD[code] === 1) {
          kind = 1;
          break;
        }
        i++;
        continue;
      }
      kind = wordKind(folded, i, code);
      if (kind !== 0) break;
      i += widthOf(code);
    }
    if (i >= length) {
      this.end = length;
      return false;
    }
    this.start = i;
    let noSpaces = kind === 2;
    i += widthOf(folded.charCodeAt(i));
    while (i < length) {
      const code = folded.charCodeAt(i);
      if (code < 0x80) {
        if (ASCII_WORD[code] !== 1) break;
        i++;
        continue;
      }
      const next = wordKind(folded, i, code);
      if (next === 0) break;
      if (next === 2) noSpaces = true;
      i += widthOf(code);
    }
    this.end = Math.min(i, length);
    this.noSpaces = noSpaces;
    return true;
  }
}

/** ASCII letters (lowercased) and digits. */
const ASCII_WORD = new Uint8Array(128).map((_, code) =>
  (code >= 0x61 && code <= 0x7a) || (code >= 0x30 && code <= 0x39) ? 1 : 0,
);

/** UTF-16 code units of the character starting with `code`. */
function widthOf(code: number): number {
  return code >= 0xd800 && code <= 0xdbff ? 2 : 1;
}

// A BMP character's kind once read by the regexes, + 1 (0: not read yet): a page repeats its punctuation.
const kinds = new Uint8Array(0x10000);

/** A non-ASCII character's part in a word: 0 none, 1 a letter, mark or digit, 2 one of a script without spaces. */
function wordKind(folded: string, i: number, code: number): number {
  if (isCommonLetter(code)) return 1;
  // CJK ideographs and kana, most of a Chinese or Japanese page.
  if ((code >= 0x4e00 && code <= 0x9fff) || (code >= 0x3041 && code <= 0x30fa)) return 2;
  const known = kinds[code] as number;
  if (known !== 0) return known - 1;
  const char = folded.slice(i, i + widthOf(code));
  const kind = WORD_CHAR.test(char) ? (NO_SPACES.test(char) ? 2 : 1) : 0;
  // A surrogate pair's kind is its whole character's, not its first unit's: not kept.
  if (widthOf(code) === 1) kinds[code] = kind + 1;
  return kind;
}

/**
 * Calls `visit` with each lowercased word of `text` in order, `noSpaces` for a run in a
 * script without spaces (not cut into words).
 */
export function scanWords(text: string, visit: (word: string, noSpaces: boolean) => void): void {
  const words = new WordCursor(text);
  while (words.next()) visit(words.text.slice(words.start, words.end), words.noSpaces);
}

/** The lowercased word tokens of `text` in order, runs without spaces cut into words (stop words included). */
export function tokenize(text: string): string[] {
  const tokens: string[] = [];
  scanWords(text, (word, noSpaces) => {
    if (!noSpaces) {
      tokens.push(word);
      return;
    }
    segmenter ??= new Intl.Segmenter('en', { granularity: 'word' });
    for (const piece of segmenter.segment(word)) if (piece.isWordLike) tokens.push(piece.segment);
  });
  return tokens;
}

// Stems of words seen lately: a page's words recur across pages and queries. Bounded: cleared when full.
const STEMS_KEPT = 50_000;
const stems = new Map<string, string>();

/** The term a token counts as: its Porter stem for ASCII words, else the token itself. */
export function termOf(token: string): string {
  let stem = stems.get(token);
  if (stem === undefined) {
    if (stems.size >= STEMS_KEPT) stems.clear();
    stem = STEMMABLE.test(token) ? stemmer(token) : token;
    stems.set(token, stem);
  }
  return stem;
}
