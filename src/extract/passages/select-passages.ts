/**
 * The passages of one page that answer a query, ranked offline: Okapi BM25 over the page's
 * passages (the page is the collection), the heading path (and a table's header or a
 * list's lead-in) as a second field weighted in before saturation (BM25F, Robertson et
 * al. 2004), and two bonuses for query words that stand together: adjacent pairs in query
 * order (phrases) and the tightest window holding every matched word (proximity). For a
 * question asked in other words than its answer: the query's synonyms and related words
 * count at lower weights (query-terms.ts), a passage holding the kind of value the question asks for (a
 * date for "when", a number for "how many": answer-cues.ts) gains, and so does a passage
 * beside a good one in its section (the answer often follows the sentence that names the
 * topic).
 */
import type { Passage } from './passage.js';
import { answerCue } from './answer-cues.js';
import { fitPassages, sameSection, sentences, type Weigh } from './fit-passages.js';
import { queryTerms, type QueryTerms } from './query-terms.js';
import { splitPassages } from './split-passages.js';
import { firstTwo, prefixKey } from './stem.js';
import { stopWordsFor } from './stop-words.js';
import { termOf as porterTerm, tokenize, WordCursor } from './tokenize.js';
import { byPlace, WordTable } from './word-table.js';
import { cosine, meanOfRows, meaningRow, meanVector, type WordVectors } from './word-vectors.js';
import { CHARS_PER_WORD, isMostlyLinked } from './visible-text.js';

/** The ranking's knobs in one place (BM25's k1 and b at their textbook values). */
export const RANKING = {
  k1: 1.2,
  b: 0.75,
  /** A query word in the heading path counts this many times a word of the body. */
  headingWeight: 1.5,
  /** Per query pair found within `phraseGap` positions, in order: this times the pair's mean IDF. */
  phraseWeight: 0.6,
  phraseGap: 2,
  /** The summed IDF of the matched words times words/window span, times this. */
  proximityWeight: 0.4,
  /**
   * A passage with no more words of its own than of link and alt text (a row of links, an
   * image alone: visible-text.ts) keeps this share of its score: below a passage of text
   * that matches as well, still found when nothing else matches.
   */
  linkedWeight: 0.5,
  /** A passage holding the kind of value the question asks for gains this times the query words' mean IDF. */
  cueWeight: 1,
  /** ... and this times the weight of the query's terms in its best sentence that holds such a value. */
  cueSentenceWeight: 1,
  /** A passage gains this share of the better score of its neighbours in its section. */
  neighbourWeight: 0.3,
  /** A passage scoring under this share of the page's best is not an answer (a synonym's stray match). */
  floor: 0.2,
  /**
   * With word vectors: a passage whose words' mean vector is nearer the query's than
   * `meaningFrom` (cosine) gains the excess times this times the query words' mean IDF.
   */
  meaningWeight: 4,
  meaningFrom: 0.3,
} as const;

export interface SelectOptions {
  /** The page's language (BCP 47): its stop words join the English ones, its stemmer applies. */
  language?: string;
  /**
   * The passages' characters in all (`max_passage_chars`): they are cut or grown at sentence
   * ends to fill it (fit-passages.ts). Absent: passages as split.
   */
  maxChars?: number;
  /** Word vectors the operator configured (word-vectors.ts): near words count, and so does a passage's meaning. */
  vectors?: WordVectors;
}

interface Stats {
  length: number;
  /** The body is mostly link or alt text. */
  mostlyLinked: boolean;
  /** Query-term hits in the body: position, term index; in position order. */
  hits: number[];
  body: Float64Array;
  heading: Float64Array;
  /** The indexes of the terms found in the body or the heading path, each once. */
  matched: number[];
  /** Where the body's hits stand, when asked for (a question with a cue: cueSentenceWeight). */
  places?: HitPlaces;
}

interface Matcher {
  /** The query term index of the word `text.slice(start, end)` (a WordCursor's), -1 for none. */
  match: (text: string, start: number, end: number) => number;
  terms: string[];
}

// Terms (and vector rows) of words met lately, found where the words stand. Bounded: emptied when full.
const TERMS_KEPT = 50_000;
const termTables = new WeakMap<(token: string) => string, WordTable<string>>();

/** A word's term (`termOf`) by its place in a text. */
function termsByPlace(termOf: (token: string) => string): (text: string, start: number, end: number) => string {
  let table = termTables.get(termOf);
  if (table === undefined) termTables.set(termOf, (table = new WordTable<string>()));
  return byPlace(table, termOf, TERMS_KEPT);
}

/**
 * Maps a word to its query term's index (-1 for none). Where the stemmer keeps a word's
 * first two letters, up to a fold of their accents (stem.ts prefixKey), a word whose first
 * two differ from every term's is never cut out nor stemmed: most of a page's words cost
 * two character reads (three for an English term of four letters or more). A word met
 * before, in this call or an earlier one, is found where it stands (WordTable).
 */
function termMatcher(query: QueryTerms, language: string | undefined): Matcher {
  const { terms, termOf } = query;
  const index = new Map<string, number>();
  terms.forEach((t, i) => {
    if (!index.has(t)) index.set(t, i);
  });
  const key = prefixKey(language);
  const prefixes = key ? new Set(terms.map(key)) : undefined;
  // The plain two-letter key as character codes: ASCII pairs in a table, others in a set.
  const plain = key === firstTwo;
  // Porter keeps the first three letters of a stem of four or more (checked on 2.5 million
  // English words): a term that long is looked for by its first three, a shorter one by two.
  const byThree = termOf === porterTerm;
  // Per ASCII pair: 1 a word may match, 2 only if its third letter is a long term's too.
  const asciiPairs = new Uint8Array(128 * 128);
  const otherPairs = new Set<number>();
  const triples = new Set<number>();
  for (const t of terms) {
    const first = t.charCodeAt(0);
    const second = t.length > 1 ? t.charCodeAt(1) : 0;
    if (first >= 128 || second >= 128) otherPairs.add(first * 65536 + second);
    else if (byThree && t.length >= 4) {
      triples.add((first * 128 + second) * 65536 + t.charCodeAt(2));
      asciiPairs[first * 128 + second] ||= 2;
    } else asciiPairs[first * 128 + second] = 1;
  }
  const termAt = termsByPlace(termOf);
  const match = (text: string, start: number, end: number): number => {
    if (plain) {
      const first = text.charCodeAt(start);
      const second = end - start > 1 ? text.charCodeAt(start + 1) : 0;
      if (first < 128 && second < 128) {
        const pair = asciiPairs[first * 128 + second];
        if (pair === 0) return -1;
        if (
          pair === 2 &&
          (end - start < 3 || !triples.has((first * 128 + second) * 65536 + text.charCodeAt(start + 2)))
        )
          return -1;
      } else if (!otherPairs.has(first * 65536 + second)) return -1;
    } else if (key && !prefixes?.has(key(text.slice(start, end)))) return -1;
    return index.get(termAt(text, start, end)) ?? -1;
  };
  return { match, terms };
}

/**
 * Counts the query's terms in `text` into `tf` (and their positions into `hits`); returns
 * its length in words. A run without spaces is searched for the terms as substrings, its
 * positions in estimated words.
 */
function countTerms(
  text: string,
  matcher: Matcher,
  tf: Float64Array,
  hits: number[] | undefined,
  places?: HitPlaces,
): number {
  let position = 0;
  const words = new WordCursor(text);
  const folded = words.text;
  if (places) places.aligned = folded.length === text.length;
  while (words.next()) {
    if (!words.noSpaces) {
      const t = matcher.match(folded, words.start, words.end);
      if (t !== -1) {
        tf[t] = (tf[t] as number) + 1;
        hits?.push(position, t);
        places?.offsets.push(words.start);
      }
      position += 1;
      continue;
    }
    const word = folded.slice(words.start, words.end);
    const found: [number, number, number][] = [];
    matcher.terms.forEach((term, t) => {
      for (let at = word.indexOf(term); at !== -1; at = word.indexOf(term, at + term.length)) {
        tf[t] = (tf[t] as number) + 1;
        found.push([position + Math.floor(at / CHARS_PER_WORD), t, words.start + at]);
      }
    });
    found.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
    for (const [p, t, offset] of found) {
      hits?.push(p, t);
      places?.offsets.push(offset);
    }
    position += Math.ceil(word.length / CHARS_PER_WORD);
  }
  return position;
}

/** Where in a text its hits stand: each hit's offset in the folded text, and whether those are the text's own. */
interface HitPlaces {
  offsets: number[];
  /** The folded text is as long as the text (no link target left out, no NFKC change of length): offsets are the text's. */
  aligned: boolean;
}

/**
 * A heading path's (and lead-in's) term counts, counted once per call for all the passages
 * under it: by the path's array (split-passages.ts shares one per section), then the lead-in.
 */
type HeadingCounts = Map<readonly string[], Map<string, { counts: Float64Array; matched: number[] }>>;

/**
 * One passage's counts. `scratch` (zeros, as long as the terms, left as found) takes the
 * counting; a passage with no hit shares `none`: most passages of a long page match no term.
 */
function statsOf(
  passage: Passage,
  matcher: Matcher,
  headings: HeadingCounts,
  scratch: Float64Array,
  none: Float64Array,
  wantPlaces: boolean,
): Stats {
  const terms = matcher.terms.length;
  const hits: number[] = [];
  const places: HitPlaces | undefined = wantPlaces ? { offsets: [], aligned: false } : undefined;
  const length = countTerms(passage.text, matcher, scratch, hits, places);
  let body = none;
  if (hits.length > 0) {
    body = new Float64Array(terms);
    for (let i = 1; i < hits.length; i += 2) {
      const t = hits[i] as number;
      if (scratch[t] === 0) continue;
      body[t] = scratch[t] as number;
      scratch[t] = 0;
    }
  }
  const mostlyLinked = isMostlyLinked(passage.text, length);
  let byLeadIn = headings.get(passage.heading_path);
  if (byLeadIn === undefined) headings.set(passage.heading_path, (byLeadIn = new Map()));
  let heading = byLeadIn.get(passage.lead_in ?? '');
  if (heading === undefined) {
    const context = (passage.lead_in ? [...passage.heading_path, passage.lead_in] : passage.heading_path).join('\n');
    const counts = new Float64Array(terms);
    const found: number[] = [];
    if (context !== '') countTerms(context, matcher, counts, found);
    heading = { counts, matched: [...new Set(found.filter((_, i) => i % 2 === 1))] };
    byLeadIn.set(passage.lead_in ?? '', heading);
  }
  const matched = [...heading.matched];
  for (let i = 1; i < hits.length; i += 2) if (!matched.includes(hits[i] as number)) matched.push(hits[i] as number);
  return { length, mostlyLinked, hits, body, heading: heading.counts, matched, ...(places ? { places } : {}) };
}

/** Query pairs (in query order) found within `phraseGap` positions of each other, in order. */
function phraseBonus(hits: number[], sequence: number[], idf: number[]): number {
  let bonus = 0;
  const seen = new Set<number>();
  for (let q = 0; q + 1 < sequence.length; q++) {
    const a = sequence[q] as number;
    const b = sequence[q + 1] as number;
    const pair = a * 1024 + b;
    if (a === b || seen.has(pair)) continue;
    seen.add(pair);
    found: for (let i = 0; i < hits.length; i += 2) {
      if (hits[i + 1] !== a) continue;
      const position = hits[i] as number;
      for (let j = i + 2; j < hits.length && (hits[j] as number) - position <= RANKING.phraseGap; j += 2) {
        if (hits[j + 1] === b) {
          bonus += (RANKING.phraseWeight * ((idf[a] as number) + (idf[b] as number))) / 2;
          break found;
        }
      }
    }
  }
  return bonus;
}

/** The smallest window of positions holding every distinct matched term of the query's own (two or more). */
function proximityBonus(hits: number[], stats: Stats, idf: number[], own: number): number {
  let distinct = 0;
  let idfSum = 0;
  for (const t of stats.matched)
    if (t < own && (stats.body[t] as number) > 0) {
      distinct++;
      idfSum += idf[t] as number;
    }
  if (distinct < 2) return 0;
  const inWindow = new Map<number, number>();
  let best = Infinity;
  let left = 0;
  for (let right = 0; right < hits.length; right += 2) {
    const t = hits[right + 1] as number;
    inWindow.set(t, (inWindow.get(t) ?? 0) + 1);
    while (inWindow.size === distinct) {
      best = Math.min(best, (hits[right] as number) - (hits[left] as number) + 1);
      const leftTerm = hits[left + 1] as number;
      const count = (inWindow.get(leftTerm) as number) - 1;
      if (count === 0) inWindow.delete(leftTerm);
      else inWindow.set(leftTerm, count);
      left += 2;
    }
  }
  return RANKING.proximityWeight * idfSum * (distinct / best);
}

/** The hits of the query's own terms (the first `own`), for the phrase and proximity bonuses. */
function ownHits(hits: number[], own: number): number[] {
  const out: number[] = [];
  for (let i = 0; i < hits.length; i += 2) {
    const t = hits[i + 1] as number;
    if (t < own) out.push(hits[i] as number, t);
  }
  return out;
}

/** Scores every passage (0 for no match), in place; the passages of the page in order. */
export function scorePassages(passages: Passage[], query: string, options: SelectOptions = {}): boolean {
  return score(passages, query, options) !== undefined;
}

/** scorePassages, returning how much a stretch of the page's text answers the query (undefined: no content words). */
function score(passages: Passage[], query: string, options: SelectOptions): Weigh | undefined {
  const parsed = queryTerms(query, options.language, options.vectors);
  const { terms, weights, own, sequence } = parsed;
  if (own === 0) return undefined;
  const matcher = termMatcher(parsed, options.language);
  const headings: HeadingCounts = new Map();
  const scratch = new Float64Array(terms.length);
  const none = new Float64Array(terms.length);
  const cue = answerCue(query);
  const stats = passages.map((p) => statsOf(p, matcher, headings, scratch, none, cue !== undefined));
  const n = stats.length;
  const avgLength = Math.max(1, stats.reduce((sum, s) => sum + s.length, 0) / Math.max(1, n));
  const df = new Float64Array(terms.length);
  for (const s of stats) for (const t of s.matched) df[t] = (df[t] as number) + 1;
  const idf = terms.map((_, t) => Math.log(1 + (n - (df[t] as number) + 0.5) / ((df[t] as number) + 0.5)));
  const meanIdf = idf.slice(0, own).reduce((a, b) => a + b, 0) / own;
  const cueBonus = RANKING.cueWeight * meanIdf;
  const meaning = options.vectors && meaningOf(options.vectors, query, options.language);
  const scores = passages.map((passage, i) => {
    const s = stats[i] as Stats;
    const norm = RANKING.k1 * (1 - RANKING.b + (RANKING.b * s.length) / avgLength);
    let value = 0;
    for (const t of s.matched) {
      const f = (s.body[t] as number) + RANKING.headingWeight * (s.heading[t] as number);
      value += ((weights[t] as number) * (idf[t] as number) * f * (RANKING.k1 + 1)) / (f + norm);
    }
    if (value > 0 && s.hits.length > 2) {
      const hits = terms.length === own ? s.hits : ownHits(s.hits, own);
      value += phraseBonus(hits, sequence, idf) + proximityBonus(hits, s, idf, own);
    }
    if (cue?.test(passage.text)) {
      value += cueBonus;
      if (s.matched.length > 0)
        value += RANKING.cueSentenceWeight * cueSentenceWeight(passage.text, cue, s, matcher, weights, idf);
    }
    if (meaning) value += RANKING.meaningWeight * meanIdf * meaning(passage.text);
    if (s.mostlyLinked) value *= RANKING.linkedWeight;
    return value;
  });
  // A page that neither the query's words nor their relatives reach does not answer it, whatever the cue matches.
  if (!stats.some((s) => s.matched.length > 0)) scores.fill(0);
  passages.forEach((passage, i) => {
    let neighbour = 0;
    for (const j of [i - 1, i + 1]) {
      const other = passages[j];
      if (other && sameSection(other, passage)) neighbour = Math.max(neighbour, scores[j] as number);
    }
    const total = (scores[i] as number) + RANKING.neighbourWeight * neighbour;
    passage.score = Math.round(total * 1000) / 1000;
  });
  // A sentence's weight for a cut to a budget (fit-passages.ts): the IDF of the terms it holds, and the cue.
  return (text) => (cue?.test(text) ? cueBonus : 0) + termWeight(text, matcher, weights, idf);
}

/** The weight times the IDF of each query term `text` holds, each term once. */
function termWeight(text: string, matcher: Matcher, weights: number[], idf: number[]): number {
  const tf = new Float64Array(weights.length);
  countTerms(text, matcher, tf, undefined);
  let weight = 0;
  tf.forEach((f, t) => {
    if (f > 0) weight += (weights[t] as number) * (idf[t] as number);
  });
  return weight;
}

/**
 * The most the query's terms weigh (weight times IDF, each term once) in one sentence of
 * `text` that holds the cue's kind of value: "a staff of 5,000" answers "how many employees"
 * where a passage's number and its query words lie sentences apart does less. The
 * passage's own hits are placed in its sentences; a text whose hits stand elsewhere in its
 * folded copy (a link's target left out) is counted again sentence by sentence.
 */
function cueSentenceWeight(
  text: string,
  cue: RegExp,
  stats: Stats,
  matcher: Matcher,
  weights: number[],
  idf: number[],
): number {
  const places = stats.places;
  const spans = sentences(text, 0, text.length);
  let best = 0;
  if (places?.aligned) {
    const { offsets } = places;
    let hit = 0;
    for (const span of spans) {
      const seen = new Set<number>();
      while (hit < offsets.length && (offsets[hit] as number) < span.end) {
        if ((offsets[hit] as number) >= span.start) seen.add(stats.hits[hit * 2 + 1] as number);
        hit++;
      }
      if (seen.size === 0 || !cue.test(text.slice(span.start, span.end))) continue;
      let weight = 0;
      for (const t of seen) weight += (weights[t] as number) * (idf[t] as number);
      best = Math.max(best, weight);
    }
    return best;
  }
  for (const span of spans) {
    const sentence = text.slice(span.start, span.end);
    if (cue.test(sentence)) best = Math.max(best, termWeight(sentence, matcher, weights, idf));
  }
  return best;
}

/**
 * How much nearer a text's mean word vector is to the query's than RANKING.meaningFrom
 * (0 when not, or when the query has no word with a vector); null without such a word.
 */
function meaningOf(vectors: WordVectors, query: string, language?: string): ((text: string) => number) | null {
  const skip = stopWordsFor(language);
  const wanted = meanVector(vectors, tokenize(query), skip);
  if (wanted === null) return null;
  const rowAt = rowsByPlace(vectors, skip);
  return (text) => {
    // The cursor's words, not tokenize's: a page's runs need no segmenting here.
    const words = new WordCursor(text);
    const rows: number[] = [];
    while (words.next()) {
      const row = rowAt(words.text, words.start, words.end);
      if (row !== -1) rows.push(row);
    }
    const found = meanOfRows(vectors, rows);
    return found === null ? 0 : Math.max(0, cosine(wanted, found) - RANKING.meaningFrom);
  };
}

// Per vectors and stop words.
const rowTables = new WeakMap<WordVectors, WeakMap<ReadonlySet<string>, WordTable<number>>>();

/** A word's row in a mean (word-vectors.ts meaningRow) by its place in a text. */
function rowsByPlace(
  vectors: WordVectors,
  skip: ReadonlySet<string>,
): (text: string, start: number, end: number) => number {
  let bySkip = rowTables.get(vectors);
  if (bySkip === undefined) rowTables.set(vectors, (bySkip = new WeakMap()));
  let table = bySkip.get(skip);
  if (table === undefined) bySkip.set(skip, (table = new WordTable<number>()));
  return byPlace(table, (word) => meaningRow(vectors, word, skip), TERMS_KEPT);
}

/**
 * Drops a passage's `lead_in` where the passage before it in the answer already shows it:
 * holds that very header or lead-in line, or carried it as its own `lead_in`.
 */
function withoutRepeatedLeadIns(markdown: string, passages: Passage[]): Passage[] {
  return passages.map((passage, i) => {
    const previous = passages[i - 1];
    const leadIn = passage.lead_in;
    if (previous === undefined || leadIn === undefined) return passage;
    // The lead-in's own place: its last occurrence before the passage (its table or list starts after it).
    const at = markdown.lastIndexOf(leadIn, passage.start_char - leadIn.length);
    const held = at >= previous.start_char && at + leadIn.length <= previous.end_char;
    const carried = previous.lead_in === leadIn && previous.start_char > at;
    if (!held && !carried) return passage;
    const { lead_in: _shown, ...rest } = passage;
    return rest;
  });
}

/**
 * The best `maxPassages` passages of `markdown` for `query`, in page order with their
 * scores, cut to `options.maxChars` in all when given; `[]` when the query has no content
 * words or nothing scores. Deterministic: equal scores go to the earlier passage. A
 * `lead_in` the passage before already shows is left out.
 */
export function selectPassages(
  markdown: string,
  query: string,
  maxPassages: number,
  options: SelectOptions = {},
): Passage[] {
  if (maxPassages < 1) return [];
  const passages = splitPassages(markdown);
  const weigh = score(passages, query, options);
  if (weigh === undefined) return [];
  const best = Math.max(0, ...passages.map((p) => p.score));
  const chosen = passages
    .map((passage, order) => ({ passage, order }))
    .filter(({ passage }) => passage.score > 0 && passage.score >= RANKING.floor * best)
    .sort((a, b) => b.passage.score - a.passage.score || a.order - b.order)
    .slice(0, Math.floor(maxPassages))
    .sort((a, b) => a.order - b.order)
    .map(({ passage }) => passage);
  const fitted =
    options.maxChars === undefined ? chosen : fitPassages(markdown, passages, chosen, options.maxChars, weigh);
  return withoutRepeatedLeadIns(markdown, fitted);
}
