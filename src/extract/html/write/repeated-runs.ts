/**
 * Later copies of runs of blocks the Markdown says again, for the stages that keep the
 * whole page: a run whose words (link targets included) match an earlier one over
 * MIN_REPEAT_CHARS goes. Not for Readability's pick, whose repeats are the article's.
 * docs/extraction.md, "Later copies of repeated runs".
 */

import { fenceAfter } from './tidy.js';
import { THRESHOLDS } from '../thresholds.js';

const LIST_ITEM = /^(?:[-*+]|\d{1,9}[.)])\s/;
const HEADING = /^#{1,6}\s/;

interface Block {
  text: string;
  /** A list (with its items' paragraphs). */
  list: boolean;
}

/**
 * The Markdown's blocks, split at blank lines; fenced code and lists (with their items'
 * paragraphs) whole.
 */
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
 * A block's words, link and image targets included, lower-cased, without punctuation; ''
 * when it has no text of its own.
 */
function wordsOf(block: string): string {
  return hasOwnText(block)
    ? block
        .toLowerCase()
        .replace(/[^\p{L}\p{N}]+/gu, ' ')
        .trim()
    : '';
}

function levelOf(block: Block | undefined): number {
  return block !== undefined && HEADING.test(block.text) ? block.text.indexOf(' ') : 0;
}

/** Whether block `k` is a heading with something under it. */
function opensSection(blocks: readonly Block[], k: number): boolean {
  const level = levelOf(blocks[k]);
  if (level === 0 || k + 1 >= blocks.length) return false;
  const next = levelOf(blocks[k + 1]);
  return next === 0 || next > level;
}

export function dropRepeatedRuns(markdown: string): string {
  const blocks = blocksOf(markdown);
  if (blocks.length < 2) return markdown;
  const words = blocks.map((block) => wordsOf(block.text));
  // The words of the heading each block is under, and the characters of words since it.
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
  for (let i = 0; i < blocks.length;) {
    let length = 0;
    let most = 0;
    const places = words[i] === '' ? undefined : earlier.get(words[i]!);
    // A run right under a heading is that heading's (a card's "In stock"): a copy only of
    // one under the same heading.
    const headed = !HEADING.test(blocks[i]!.text) && since[i]! < THRESHOLDS.MIN_REPEAT_CHARS;
    for (const j of places?.slice(-THRESHOLDS.MAX_EARLIER_PLACES) ?? []) {
      if (headed && under[j] !== under[i]) continue;
      let n = 0;
      let c = 0;
      while (j + n < i && i + n < blocks.length && words[i + n] !== '' && words[j + n] === words[i + n])
        c += words[i + n++]!.length;
      if (c > most) [length, most] = [n, c];
    }
    // Nor does it end on a heading whose section goes on: its text would read as the
    // section before's.
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
  return dropped
    ? blocks
        .filter((_, k) => keep[k])
        .map((block) => block.text)
        .join('\n\n')
    : markdown;
}
