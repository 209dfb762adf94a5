/**
 * The passages of one page that answer a query, ranked offline: Okapi BM25 over the page's
 * passages (the page is the collection), the heading path (and a table's header or a
 * list's lead-in) as a second field weighted in before saturation (BM25F, Robertson et
 * al. 2004), and two bonuses for query words that stand together: adjacent pairs in query
 * order (phrases) and the tightest window holding every matched word (proximity).
 */
import type { Passage } from './passage.js';
import { splitPassages } from './split-passages.js';
import { stopWordsFor } from './stop-words.js';
import { scanWords, termOf, tokenize } from './tokenize.js';
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
} as const;

export interface SelectOptions {
  /** The page's language (BCP 47): its stop words join the English ones. */
  language?: string;
}

interface Query {
  terms: string[];
  /** Term indexes of the query's content words, in query order (for phrases). */
  sequence: number[];
}

function parseQuery(query: string, language: string | undefined): Query {
  const stop = stopWordsFor(language);
  const terms: string[] = [];
  const sequence: number[] = [];
  for (const token of tokenize(query)) {
    // A lone Latin letter is a possessive's "s" or an initial: it would match everywhere.
    if (stop.has(token) || /^[a-z]$/.test(token)) continue;
    const term = termOf(token);
    let index = terms.indexOf(term);
    if (index === -1) index = terms.push(term) - 1;
    sequence.push(index);
  }
  return { terms, sequence };
}

interface Stats {
  length: number;
  /** The body is mostly link or alt text. */
  mostlyLinked: boolean;
  /** Query-term hits in the body: position, term index; in position order. */
  hits: number[];
  body: Float64Array;
  heading: Float64Array;
}

/**
 * Maps a token to its query term's index (-1 for none). Porter keeps a word's first two
 * letters, so a token whose first two differ from every term's is never stemmed: most
 * of a page's words are skipped at the cost of a set lookup.
 */
function termMatcher(terms: string[]): (token: string) => number {
  const index = new Map(terms.map((t, i) => [t, i]));
  const prefixes = new Set(terms.map((t) => t.slice(0, 2)));
  const memo = new Map<string, number>();
  return (token) => {
    let found = memo.get(token);
    if (found !== undefined) return found;
    found = prefixes.has(token.slice(0, 2)) ? (index.get(termOf(token)) ?? -1) : -1;
    memo.set(token, found);
    return found;
  };
}

interface Matcher {
  match: (token: string) => number;
  terms: string[];
}

/**
 * Counts the query's terms in `text` into `tf` (and their positions into `hits`); returns
 * its length in words. A run without spaces is searched for the terms as substrings, its
 * positions in estimated words.
 */
function countTerms(text: string, matcher: Matcher, tf: Float64Array, hits: number[] | undefined): number {
  let position = 0;
  scanWords(text, (word, noSpaces) => {
    if (!noSpaces) {
      const t = matcher.match(word);
      if (t !== -1) {
        tf[t] = (tf[t] as number) + 1;
        hits?.push(position, t);
      }
      position += 1;
      return;
    }
    const found: [number, number][] = [];
    matcher.terms.forEach((term, t) => {
      for (let at = word.indexOf(term); at !== -1; at = word.indexOf(term, at + term.length)) {
        tf[t] = (tf[t] as number) + 1;
        found.push([position + Math.floor(at / CHARS_PER_WORD), t]);
      }
    });
    found.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
    for (const [p, t] of found) hits?.push(p, t);
    position += Math.ceil(word.length / CHARS_PER_WORD);
  });
  return position;
}

function statsOf(passage: Passage, matcher: Matcher): Stats {
  const body = new Float64Array(matcher.terms.length);
  const hits: number[] = [];
  const length = countTerms(passage.text, matcher, body, hits);
  const mostlyLinked = isMostlyLinked(passage.text, length);
  const heading = new Float64Array(matcher.terms.length);
  const context = passage.lead_in ? [...passage.heading_path, passage.lead_in] : passage.heading_path;
  countTerms(context.join('\n'), matcher, heading, undefined);
  return { length, mostlyLinked, hits, body, heading };
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

/** The smallest window of positions holding every distinct matched term (two or more). */
function proximityBonus(hits: number[], stats: Stats, idf: number[]): number {
  let distinct = 0;
  let idfSum = 0;
  stats.body.forEach((tf, t) => {
    if (tf > 0) {
      distinct++;
      idfSum += idf[t] as number;
    }
  });
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

/** Scores every passage (0 for no match), in place; the passages of the page in order. */
export function scorePassages(passages: Passage[], query: string, options: SelectOptions = {}): boolean {
  const { terms, sequence } = parseQuery(query, options.language);
  if (terms.length === 0) return false;
  const matcher: Matcher = { match: termMatcher(terms), terms };
  const stats = passages.map((p) => statsOf(p, matcher));
  const n = stats.length;
  const avgLength = Math.max(1, stats.reduce((sum, s) => sum + s.length, 0) / Math.max(1, n));
  const idf = terms.map((_, t) => {
    const df = stats.filter((s) => (s.body[t] as number) + (s.heading[t] as number) > 0).length;
    return Math.log(1 + (n - df + 0.5) / (df + 0.5));
  });
  passages.forEach((passage, i) => {
    const s = stats[i] as Stats;
    const norm = RANKING.k1 * (1 - RANKING.b + (RANKING.b * s.length) / avgLength);
    let score = 0;
    for (let t = 0; t < terms.length; t++) {
      const f = (s.body[t] as number) + RANKING.headingWeight * (s.heading[t] as number);
      if (f > 0) score += ((idf[t] as number) * f * (RANKING.k1 + 1)) / (f + norm);
    }
    if (score > 0 && s.hits.length > 2) score += phraseBonus(s.hits, sequence, idf) + proximityBonus(s.hits, s, idf);
    if (s.mostlyLinked) score *= RANKING.linkedWeight;
    passage.score = Math.round(score * 1000) / 1000;
  });
  return true;
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
 * scores; `[]` when the query has no content words or nothing matches. Deterministic:
 * equal scores go to the earlier passage. A `lead_in` the passage before already shows is
 * left out.
 */
export function selectPassages(
  markdown: string,
  query: string,
  maxPassages: number,
  options: SelectOptions = {},
): Passage[] {
  if (maxPassages < 1) return [];
  const passages = splitPassages(markdown);
  if (!scorePassages(passages, query, options)) return [];
  const chosen = passages
    .map((passage, order) => ({ passage, order }))
    .filter(({ passage }) => passage.score > 0)
    .sort((a, b) => b.passage.score - a.passage.score || a.order - b.order)
    .slice(0, Math.floor(maxPassages))
    .sort((a, b) => a.order - b.order)
    .map(({ passage }) => passage);
  return withoutRepeatedLeadIns(markdown, chosen);
}
