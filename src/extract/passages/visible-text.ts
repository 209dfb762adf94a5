/**
 * How much of a stretch of Markdown is its own text: a reader sees a link's text, not its
 * target, and an image's alt text only as a stand-in. A passage whose words are mostly link
 * text or alt text ("Related: [A](..), [B](..)", a lone `![alt](src)`) is navigation or
 * illustration, not an answer: the ranker demotes it (docs/decisions.md, "Query-focused
 * passages").
 */
import { LINK } from './markdown-links.js';
import { scanWords } from './tokenize.js';

/** Characters a word is taken to have in a run without spaces (Chinese words average under two). */
export const CHARS_PER_WORD = 2;

/** The words of `text` as the ranker counts them: a link as its text, a run without spaces as its estimated words. */
export function countWords(text: string): number {
  let words = 0;
  scanWords(text, (word, noSpaces) => {
    words += noSpaces ? Math.ceil(word.length / CHARS_PER_WORD) : 1;
  });
  return words;
}

// A fenced code block, to its closing fence or the end (CommonMark 0.31, 4.5): a link there is code.
export const FENCED_CODE =
  /^ {0,3}(`{3,}|~{3,})[^\n]*(?:\n(?! {0,3}\1[`~]*[ \t]*$)[^\n]*)*(?:\n {0,3}\1[`~]*[ \t]*$)?/gm;

/** The words of `text` inside a link's text or an image's alt text (a linked image's once), code blocks aside. */
export function linkedWords(text: string): number {
  if (!text.includes('](')) return 0;
  const prose = text.includes('```') || text.includes('~~~') ? text.replace(FENCED_CODE, '') : text;
  let linked = 0;
  for (const m of prose.matchAll(LINK)) linked += countWords(m[1] as string);
  return linked;
}

/**
 * Whether `text`, of `words` words (countWords), has no more words of its own than of link
 * and alt text: a row of links, an image alone.
 */
export function isMostlyLinked(text: string, words: number): boolean {
  const linked = linkedWords(text);
  return linked > 0 && words - linked <= linked;
}
