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
 * a fenced code block one block) whose words, compared in lower case without punctuation,
 * match a run earlier in the Markdown, with at least MIN_REPEAT_CHARS characters of words
 * in it. The later copy goes; the first stays where the page put it. Link and image
 * targets are part of the words: a copy that leads elsewhere (the same "Download" for
 * another file) is no copy. Blocks without text of their own (images without alt text,
 * rules) are never a match: they end a run. What a heading says next to nothing else
 * about is that heading's: a product's sizes or a listing's cards say the same words under
 * different names ("In stock", "Free delivery on orders over 50"), so a run that follows a
 * heading with fewer than MIN_REPEAT_CHARS characters of words between is a copy only of a
 * run under a heading with the same words. And a run that is all that parts two lists
 * stays: without it, CommonMark would read them as one.
 *
 * Not for Readability's pick (stage 1): it is one subtree, not the page, and what repeats
 * inside it is the article's (scrapinghub dev F1 0.9755 -> 0.9702 when applied to it: news
 * pages repeat pull quotes and refrains on purpose).
 */

import { fenceAfter } from './tidy.js';
import { THRESHOLDS } from './thresholds.js';



const LIST_ITEM = /^(?:[-*+]|\d{1,9}[.)])\s/;
const HEADING = /^#{1,6}\s/;

interface Block {
  text: string;
  /** A list (with its items' paragraphs). */
  list: boolean;
}

/** The Markdown's blocks: split at blank lines, with fenced code and lists kept whole. */
function blocksOf(markdown: string): Block[] {
  const blocks: { lines: string[]; list: boolean }[] = [];
  let current: string[] = [];
  let fence: string | null = null;
  const close = (): void => {
    if (current.length === 0) return;
    const first = current[0]!;
    const list = LIST_ITEM.test(first);
    const last = blocks[blocks.length - 1];
    // An indented block continues a list item; a list item after a list continues the list.
    if (last !== undefined && (/^\s/.test(first) || (list && last.list))) {
      last.lines.push('');
      for (const line of current) last.lines.push(line);
    } else blocks.push({ lines: current, list });
    current = [];
  };
  for (const line of markdown.split('\n')) {
    const code = fence !== null;
    fence = fenceAfter(line, fence);
    if (!code && line.trim() === '') close();
    else current.push(line);
  }
  close();
  return blocks.map(({ lines, list }) => ({ text: lines.join('\n'), list }));
}

/** Whether the text has a letter or digit outside the targets of its links and images. */
function hasOwnText(text: string): boolean {
  let from = 0;
  for (let open = text.indexOf('](', from); open !== -1; open = text.indexOf('](', from)) {
    if (/[\p{L}\p{N}]/u.test(text.slice(from, open))) return true;
    const close = text.indexOf(')', open + 2);
    // No closing parenthesis after this one: none after any later one either.
    if (close === -1) return false;
    from = close + 1;
  }
  return /[\p{L}\p{N}]/u.test(text.slice(from));
}

/**
 * A block's words, link and image targets included, lower-cased, without punctuation;
 * '' when it has no text of its own.
 */
function wordsOf(block: string): string {
  return hasOwnText(block) ? block.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, ' ').trim() : '';
}

/** A heading's level (1-6), or 0 for another block. */
function levelOf(block: Block | undefined): number {
  return block !== undefined && HEADING.test(block.text) ? block.text.indexOf(' ') : 0;
}

/** Whether block `k` is a heading with something under it: the next block is no heading of its level or higher. */
function opensSection(blocks: readonly Block[], k: number): boolean {
  const level = levelOf(blocks[k]);
  if (level === 0 || k + 1 >= blocks.length) return false;
  const next = levelOf(blocks[k + 1]);
  return next === 0 || next > level;
}

/** The Markdown without the later copies of repeated runs (see the module comment). */
export function dropRepeatedRuns(markdown: string): string {
  const blocks = blocksOf(markdown);
  if (blocks.length < 2) return markdown;
  const words = blocks.map((block) => wordsOf(block.text));
  // The words of the heading each block is under ('' before the first), and the characters
  // of words from that heading up to the block, for its context.
  const under: string[] = [];
  const since: number[] = [];
  let heading = '';
  let chars = 0;
  for (const [k, block] of blocks.entries()) {
    under.push(heading);
    since.push(chars);
    if (HEADING.test(block.text)) [heading, chars] = [words[k]!, 0];
    else chars += words[k]!.length;
  }
  const earlier = new Map<string, number[]>();
  const keep = blocks.map(() => true);
  let lastKept = -1;
  let dropped = false;
  for (let i = 0; i < blocks.length; ) {
    let length = 0;
    let most = 0;
    const places = words[i] === '' ? undefined : earlier.get(words[i]!);
    // What a heading says next to nothing else about is that heading's: a product's sizes or
    // a listing's cards say the same words under different names ("In stock", "Free
    // delivery"). Such a run stays unless its first copy is under the same heading.
    const headed = !HEADING.test(blocks[i]!.text) && since[i]! < THRESHOLDS.MIN_REPEAT_CHARS;
    for (const j of places?.slice(-THRESHOLDS.MAX_EARLIER_PLACES) ?? []) {
      if (headed && under[j] !== under[i]) continue;
      let n = 0;
      let c = 0;
      while (j + n < i && i + n < blocks.length && words[i + n] !== '' && words[j + n] === words[i + n]) c += words[i + n++]!.length;
      if (c > most) [length, most] = [n, c];
    }
    // A run does not end on a heading whose section goes on after it: the heading would go
    // while its section stayed, to be read as the section before's.
    while (length > 0 && opensSection(blocks, i + length - 1)) most -= words[i + --length]!.length;
    // Not when the run is all that parts two lists: without it they would run together.
    const parts = lastKept >= 0 && i + length < blocks.length && blocks[lastKept]!.list && blocks[i + length]!.list;
    const repeated = most >= THRESHOLDS.MIN_REPEAT_CHARS && !parts;
    const step = repeated ? length : 1;
    for (let k = i; k < i + step; k++) {
      if (repeated) keep[k] = false;
      if (words[k] === '') continue;
      const list = earlier.get(words[k]!);
      if (list === undefined) earlier.set(words[k]!, [k]);
      else list.push(k);
    }
    if (!repeated) lastKept = i;
    dropped ||= repeated;
    i += step;
  }
  return dropped ? blocks.filter((_, k) => keep[k]).map((block) => block.text).join('\n\n') : markdown;
}
