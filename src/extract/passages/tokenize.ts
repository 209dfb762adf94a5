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
 * Calls `visit` with each lowercased word of `text` in order, `noSpaces` for a run in a
 * script without spaces (not cut into words); with `wanted`, a word it refuses by the codes
 * of its first two characters (0 for none) comes as "". A scan by character code with an ASCII fast
 * path: three times a regex's speed.
 */
export function scanWords(
  text: string,
  visit: (word: string, noSpaces: boolean) => void,
  wanted?: (first: number, second: number) => boolean,
): void {
  // A link's or image's target is not the passage's text: `[text](https://...)` reads "text".
  let folded = (text.includes('](') ? text.replace(LINK_TARGET, ']') : text).toLowerCase();
  if (NON_ASCII.test(folded)) folded = folded.normalize('NFKC');
  let start = -1;
  let noSpaces = false;
  for (let i = 0; i < folded.length; i++) {
    const code = folded.charCodeAt(i);
    let width = 1;
    let inWord: boolean;
    if (code < 0x80) inWord = (code >= 0x61 && code <= 0x7a) || (code >= 0x30 && code <= 0x39);
    else if (isCommonLetter(code)) inWord = true;
    else if ((code >= 0x4e00 && code <= 0x9fff) || (code >= 0x3041 && code <= 0x30fa)) {
      // CJK ideographs and kana, most of a Chinese or Japanese page: no regex per character.
      inWord = true;
      noSpaces = true;
    } else {
      width = code >= 0xd800 && code <= 0xdbff ? 2 : 1;
      const char = folded.slice(i, i + width);
      inWord = WORD_CHAR.test(char);
      if (inWord && !noSpaces) noSpaces = NO_SPACES.test(char);
    }
    if (inWord) {
      if (start === -1) start = i;
    } else if (start !== -1) {
      // A word `wanted` refuses by its first two letters is visited as "": never cut out nor hashed.
      const refused =
        !noSpaces && wanted && !wanted(folded.charCodeAt(start), i - start > 1 ? folded.charCodeAt(start + 1) : 0);
      visit(refused ? '' : folded.slice(start, i), noSpaces);
      start = -1;
      noSpaces = false;
    }
    i += width - 1;
  }
  if (start !== -1) visit(folded.slice(start), noSpaces);
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
