/**
 * Runs of blocks the Markdown says again, word for word, further down. Stage 2 of the
 * cascade (the cleaned body, and the product description cut from it) keeps the whole
 * page, and with it the copies a page holds of its own text: a carousel's cloned slides
 * and testimonials, a sticky header's second buy box, a specification list both in a
 * tab and in an accordion, a forum thread that quotes the opening post in full. The
 * adjacent copies are gone already (repeated-blocks.ts, on the tree); these are not
 * next to their first.
 *
 * A run is one block or several in a row (a list with its items' paragraphs is one block,
 * a fenced code block one block) whose words, compared in lower case without link
 * targets or punctuation, match a run earlier in the Markdown, with at least
 * MIN_REPEAT_CHARS characters of words in it. The later copy goes; the first stays where
 * the page put it. Blocks without words (images, rules) are never a match: they end a run.
 *
 * Not for Readability's pick (stage 1): it is one subtree, not the page, and what repeats
 * inside it is the article's (scrapinghub dev F1 0.9755 -> 0.9702 when applied to it: news
 * pages repeat pull quotes and refrains on purpose).
 */

import { FENCE } from './tidy.js';

/**
 * The fewest characters of words (letters and digits, single spaces between) that a
 * repeated run must hold. Measured on WCXB dev over stage 2 pages: at 80, WCXB F1 +0.0013
 * (product +0.008, forum +0.006, service +0.004, listing +0.002, collection +0.001, one
 * article -0.16: a webcam page whose ground truth keeps the credit line under each of its
 * cameras); at 40 +0.0017 (product 0.7373 -> 0.7434). Lower still, 10 and 1, gained
 * listings 0.003-0.008 more by dropping each card's "Free shipping" and "Add to cart" after
 * the first; but those are facts of each item, which an item without them no longer
 * states.
 */
export const MIN_REPEAT_CHARS = 40;

/** How many earlier places of a block's words a later copy is compared with. */
const MAX_EARLIER = 8;

const LIST_ITEM = /^(?:[-*+]|\d{1,9}[.)])\s/;

/** The Markdown's blocks: split at blank lines, with fenced code and lists kept whole. */
function blocksOf(markdown: string): string[] {
  const blocks: string[] = [];
  let current: string[] = [];
  let fence: string | null = null;
  const close = (): void => {
    if (current.length === 0) return;
    const block = current.join('\n');
    const last = blocks[blocks.length - 1];
    // An indented block continues a list item; a list item after a list continues the list.
    if (last !== undefined && (/^\s/.test(block) || (LIST_ITEM.test(block) && LIST_ITEM.test(last)))) blocks[blocks.length - 1] = `${last}\n\n${block}`;
    else blocks.push(block);
    current = [];
  };
  for (const line of markdown.split('\n')) {
    const marker = FENCE.exec(line)?.[1];
    if (fence !== null) {
      if (marker !== undefined && marker[0] === fence[0] && marker.length >= fence.length && line.trim() === marker) fence = null;
      current.push(line);
      continue;
    }
    if (marker !== undefined) fence = marker;
    if (line.trim() === '') close();
    else current.push(line);
  }
  close();
  return blocks;
}

/** A block's words, lower-cased, without link targets and punctuation; '' if it has none. */
function wordsOf(block: string): string {
  return block
    .toLowerCase()
    .replace(/\]\([^)]*\)/g, ']')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

/** The Markdown without the later copies of repeated runs (see the module comment). */
export function dropRepeatedRuns(markdown: string): string {
  const blocks = blocksOf(markdown);
  if (blocks.length < 2) return markdown;
  const words = blocks.map(wordsOf);
  const earlier = new Map<string, number[]>();
  const keep = blocks.map(() => true);
  let dropped = false;
  for (let i = 0; i < blocks.length; ) {
    let length = 0;
    let chars = 0;
    const places = words[i] === '' ? undefined : earlier.get(words[i]!);
    for (const j of places?.slice(-MAX_EARLIER) ?? []) {
      let n = 0;
      let c = 0;
      while (j + n < i && i + n < blocks.length && words[i + n] !== '' && words[j + n] === words[i + n]) c += words[i + n++]!.length;
      if (c > chars) [length, chars] = [n, c];
    }
    const repeated = chars >= MIN_REPEAT_CHARS;
    const step = repeated ? length : 1;
    for (let k = i; k < i + step; k++) {
      if (repeated) keep[k] = false;
      if (words[k] === '') continue;
      const list = earlier.get(words[k]!);
      if (list === undefined) earlier.set(words[k]!, [k]);
      else list.push(k);
    }
    dropped ||= repeated;
    i += step;
  }
  return dropped ? blocks.filter((_, k) => keep[k]).join('\n\n') : markdown;
}
