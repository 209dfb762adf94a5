/**
 * Chosen passages fitted to a budget of characters for the page (`max_passage_chars`): each
 * gets an equal share. A longer passage keeps the run of whole sentences that weighs most
 * for the query within its share; a shorter one takes in the sentences around it in its
 * section (the one after first: an answer tends to follow the sentence naming its topic)
 * while they fit, never into another chosen passage; a share a passage cannot fill goes to
 * the others. A sentence longer than a whole share is cut at its last space that fits.
 * Offsets stay exact: `text === markdown.slice(start_char, end_char)`.
 */
import { isHighSurrogate, SENTENCE_END } from './markdown-units.js';
import type { Passage } from './passage.js';
import { FENCED_CODE } from './visible-text.js';

/** How much a stretch of text answers the query (select-passages.ts). */
export type Weigh = (text: string) => number;

interface Span {
  start: number;
  end: number;
}

/**
 * The fenced code blocks of `markdown` that reach into [from, to), read from `origin` (a
 * place outside any block: a section's start) so that a block opened before `from` counts.
 */
function codeBlocks(markdown: string, origin: number, from: number, to: number): Span[] {
  const text = markdown.slice(origin, to);
  if (!text.includes('```') && !text.includes('~~~')) return [];
  const blocks: Span[] = [];
  for (const m of text.matchAll(FENCED_CODE)) {
    const block = { start: origin + m.index, end: origin + m.index + m[0].length };
    if (block.end > from) blocks.push(block);
  }
  return blocks;
}

/**
 * The sentences of [start, end) of `markdown`, white space trimmed: cut at sentence ends and
 * line breaks, never inside a fenced code block (`origin`: where its section starts).
 */
export function sentences(markdown: string, start: number, end: number, origin = start): Span[] {
  const text = markdown.slice(start, end);
  const cuts = new Set<number>([0, text.length]);
  for (const m of text.matchAll(SENTENCE_END)) cuts.add(m.index + m[0].length);
  for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) cuts.add(at + 1);
  for (const block of codeBlocks(markdown, origin, start, end))
    for (const cut of cuts) if (start + cut > block.start && start + cut < block.end) cuts.delete(cut);
  const sorted = [...cuts].sort((a, b) => a - b);
  const spans: Span[] = [];
  for (let i = 0; i + 1 < sorted.length; i++) {
    let s = sorted[i] as number;
    let e = sorted[i + 1] as number;
    while (s < e && /\s/.test(text[s] as string)) s++;
    while (e > s && /\s/.test(text[e - 1] as string)) e--;
    if (e > s) spans.push({ start: start + s, end: start + e });
  }
  return spans;
}

/** The first `limit` characters of a span, cut after its last white space within them. */
function cutAtSpace(markdown: string, span: Span, limit: number): Span {
  const text = markdown.slice(span.start, span.start + limit + 1);
  let cut = Math.max(text.lastIndexOf(' ', limit), text.lastIndexOf('\n', limit));
  if (cut <= 0) {
    cut = limit;
    // Never between the halves of a surrogate pair.
    if (isHighSurrogate(markdown.charCodeAt(span.start + cut - 1))) cut--;
  }
  let end = span.start + cut;
  while (end > span.start && /\s/.test(markdown[end - 1] as string)) end--;
  return { start: span.start, end: Math.max(end, span.start + 1) };
}

/** The best run of whole sentences of `list` within `limit` characters (the earliest of equals). */
function bestRun(markdown: string, list: Span[], limit: number, weigh: Weigh): { first: number; last: number } | Span {
  const weights = list.map((s) => weigh(markdown.slice(s.start, s.end)));
  let best: { first: number; last: number; weight: number } | undefined;
  let from = 0;
  let sum = 0;
  for (let to = 0; to < list.length; to++) {
    sum += weights[to] as number;
    while (from <= to && (list[to] as Span).end - (list[from] as Span).start > limit) {
      sum -= weights[from] as number;
      from++;
    }
    if (from <= to && (best === undefined || sum > best.weight)) best = { first: from, last: to, weight: sum };
  }
  if (best !== undefined) return best;
  // No sentence fits whole: the heaviest one, cut.
  let heaviest = 0;
  weights.forEach((w, i) => {
    if (w > (weights[heaviest] as number)) heaviest = i;
  });
  return cutAtSpace(markdown, list[heaviest] as Span, limit);
}

/** [first, last] grown by whole sentences of `list` while within `limit`: the one after, then the one before. */
function grow(list: Span[], first: number, last: number, limit: number): Span {
  for (let grew = true; grew;) {
    grew = false;
    const next = list[last + 1];
    if (next && next.end - (list[first] as Span).start <= limit) {
      last++;
      grew = true;
    }
    const previous = list[first - 1];
    if (previous && (list[last] as Span).end - previous.start <= limit) {
      first--;
      grew = true;
    }
  }
  return { start: (list[first] as Span).start, end: (list[last] as Span).end };
}

/** `passage` fitted to `limit` characters within `region` (its section, up to the chosen passages beside it). */
function fit(markdown: string, passage: Passage, region: Span, limit: number, weigh: Weigh): Span {
  const length = passage.end_char - passage.start_char;
  if (length > limit) {
    const inside = sentences(markdown, passage.start_char, passage.end_char);
    if (inside.length === 0) return { start: passage.start_char, end: passage.end_char };
    const run = bestRun(markdown, inside, limit, weigh);
    return 'start' in run ? run : grow(inside, run.first, run.last, limit);
  }
  // Only the text it could grow into, a sentence cut at either clipped edge left out.
  const from = Math.max(region.start, passage.start_char - limit);
  const to = Math.min(region.end, passage.end_char + limit);
  const around = sentences(markdown, from, to, region.start);
  if (from > region.start && (around[0]?.end ?? Infinity) <= passage.start_char) around.shift();
  if (to < region.end && (around[around.length - 1]?.start ?? -1) >= passage.end_char) around.pop();
  const first = around.findIndex((s) => s.end > passage.start_char);
  let last = -1;
  around.forEach((s, i) => {
    if (s.start < passage.end_char) last = i;
  });
  // The passage's edges are sentence edges unless a sentence straddles one: then it stays as it is.
  if (first === -1 || last < first) return { start: passage.start_char, end: passage.end_char };
  const own = { start: (around[first] as Span).start, end: (around[last] as Span).end };
  if (own.start !== passage.start_char || own.end !== passage.end_char)
    return { start: passage.start_char, end: passage.end_char };
  return grow(around, first, last, limit);
}

/**
 * `chosen` (a subset of the page's `passages`, both in page order) fitted to `maxChars`
 * characters in all. A passage is never dropped: a budget below the passages' count still
 * gives each a cut of its best sentence.
 */
export function fitPassages(
  markdown: string,
  passages: Passage[],
  chosen: Passage[],
  maxChars: number,
  weigh: Weigh,
): Passage[] {
  const regions = chosen.map((passage, c) => {
    let i = passages.indexOf(passage);
    let j = i;
    while (i > 0 && sameSection(passages[i - 1] as Passage, passage)) i--;
    while (j + 1 < passages.length && sameSection(passages[j + 1] as Passage, passage)) j++;
    const before = chosen[c - 1];
    const after = chosen[c + 1];
    return {
      start: Math.max((passages[i] as Passage).start_char, before?.end_char ?? 0),
      end: Math.min((passages[j] as Passage).end_char, after?.start_char ?? markdown.length),
    };
  });
  const lengths = chosen.map((p) => p.end_char - p.start_char);
  // When they fit, each keeps its text (and grows by an equal part of what is left); when they
  // do not, each gets an equal share, a longer one cut to its best sentences, a shorter one
  // grown. What one cannot use (its section ends) goes to those after it, the least room first.
  const kept = lengths.reduce((a, b) => a + b, 0) <= maxChars ? lengths : lengths.map(() => 0);
  const room = (c: number) => (regions[c] as Span).end - (regions[c] as Span).start - (kept[c] as number);
  const order = chosen.map((_, c) => c).sort((a, b) => room(a) - room(b) || a - b);
  const spans: Span[] = new Array<Span>(chosen.length);
  let left = maxChars - kept.reduce((a, b) => a + b, 0);
  order.forEach((c, n) => {
    const limit = Math.max(1, (kept[c] as number) + Math.floor(left / (order.length - n)));
    const span = fit(markdown, chosen[c] as Passage, regions[c] as Span, limit, weigh);
    spans[c] = span;
    left -= span.end - span.start - (kept[c] as number);
  });
  // Two passages grown into the gap between them: the later one starts where the earlier ends (a sentence end).
  for (let c = 1; c < spans.length; c++) {
    const span = spans[c] as Span;
    let start = Math.max(span.start, (spans[c - 1] as Span).end);
    while (start < span.end && /\s/.test(markdown[start] as string)) start++;
    spans[c] = { start, end: span.end };
  }
  return chosen.map((passage, c) => {
    const { start, end } = spans[c] as Span;
    if (start === passage.start_char && end === passage.end_char) return passage;
    const text = markdown.slice(start, end);
    const fitted: Passage = { ...passage, text, start_char: start, end_char: end };
    // Grown over its table's header or list's lead-in: the text shows it.
    if (fitted.lead_in !== undefined && text.includes(fitted.lead_in)) delete fitted.lead_in;
    return fitted;
  });
}

/** Whether two passages sit under the same headings. */
export function sameSection(a: Passage, b: Passage): boolean {
  return a.heading_path.length === b.heading_path.length && a.heading_path.every((h, i) => h === b.heading_path[i]);
}
