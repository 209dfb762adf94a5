/**
 * Weighted reciprocal rank fusion of the engines' result lists:
 *
 *   score(u) = Σ_e w_e / (k + rank_e(u)),  k = 60, rank_e starting at 1.
 *
 * - rank_e(u) is the 1-based position of u in engine e's list as the engine returned it;
 *   entries that are dropped (non-http URLs, later duplicates) do not renumber the others.
 * - URLs are merged on normalizeUrlKey (scheme ignored, tracking params dropped, …); a
 *   URL whose key is null (not http/https) is dropped.
 * - Within one list a repeated key keeps its first (best) rank and contributes once.
 * - Merged fields: the URL of the best-ranked occurrence, except that an https URL is
 *   preferred when both schemes were seen (the best-ranked https one); the longest non-empty
 *   title and snippet (trimmed, white space collapsed; equal lengths → the better-ranked
 *   occurrence); the first published_at in occurrence order.
 * - Occurrence order ("best first"): lower rank, then higher weight, then earlier list.
 *   `engine` is the first engine in that order, `engines` every engine in that order.
 * - Sorted by score descending; equal scores (within 1e-12) by best rank, then by the
 *   list index of the best occurrence, then by first appearance.
 * - Include/exclude domain filters (exact host or subdomain) apply after fusion (exclude
 *   wins); then the list is cut to maxResults and numbered 1..n.
 * - A weight that is not a positive finite number counts as 0.
 */
import type { EngineId, EngineResult } from './types.js';
import { cleanText } from './common.js';
import { hostMatchesAny, normalizeUrlKey, parseHttpUrl } from './normalize-url.js';

export const DEFAULT_RRF_K = 60;
const SCORE_EPSILON = 1e-12;

export interface EngineResultList {
  engine: EngineId;
  weight: number;
  results: EngineResult[];
}

export interface FuseOptions {
  /** RRF constant (default 60). */
  k?: number;
  maxResults: number;
  includeDomains?: string[];
  excludeDomains?: string[];
}

export interface FusedResult {
  title: string;
  url: string;
  snippet: string;
  /** 1..n in the fused list. */
  position: number;
  /** The engine that ranked it best (lowest rank; ties → higher weight, then list order). */
  engine: EngineId;
  /** Every engine that returned it, best first. */
  engines: EngineId[];
  published_at?: string;
  score: number;
}

interface Occurrence {
  listIndex: number;
  engine: EngineId;
  weight: number;
  rank: number;
  url: URL;
  title: string;
  snippet: string;
  published_at?: string;
}

interface Group {
  firstSeen: number;
  score: number;
  occurrences: Occurrence[];
}

function compareOccurrences(a: Occurrence, b: Occurrence): number {
  return a.rank - b.rank || b.weight - a.weight || a.listIndex - b.listIndex;
}

function longest(values: string[]): string {
  let best = '';
  for (const v of values) if (v.length > best.length) best = v;
  return best;
}

export function fuseResults(lists: EngineResultList[], opts: FuseOptions): FusedResult[] {
  const k = opts.k !== undefined && Number.isFinite(opts.k) && opts.k >= 0 ? opts.k : DEFAULT_RRF_K;
  const groups = new Map<string, Group>();

  lists.forEach((list, listIndex) => {
    const weight = Number.isFinite(list.weight) && list.weight > 0 ? list.weight : 0;
    const seenInList = new Set<string>();
    list.results.forEach((result, index) => {
      const key = normalizeUrlKey(result.url);
      if (key === null || seenInList.has(key)) return;
      seenInList.add(key);
      const url = parseHttpUrl(result.url);
      if (!url) return;
      const rank = index + 1;
      const occurrence: Occurrence = {
        listIndex,
        engine: list.engine,
        weight,
        rank,
        url,
        title: cleanText(result.title),
        snippet: cleanText(result.snippet),
        ...(result.published_at ? { published_at: result.published_at } : {}),
      };
      let group = groups.get(key);
      if (!group) {
        group = { firstSeen: groups.size, score: 0, occurrences: [] };
        groups.set(key, group);
      }
      group.score += weight / (k + rank);
      group.occurrences.push(occurrence);
    });
  });

  const merged = [...groups.values()].map((group) => {
    const occ = [...group.occurrences].sort(compareOccurrences);
    const best = occ[0] as Occurrence;
    const https = occ.find((o) => o.url.protocol === 'https:');
    const chosen = best.url.protocol === 'https:' || !https ? best : https;
    const engines: EngineId[] = [];
    for (const o of occ) if (!engines.includes(o.engine)) engines.push(o.engine);
    const published = occ.find((o) => o.published_at)?.published_at;
    return {
      group,
      best,
      host: chosen.url.hostname,
      result: {
        title: longest(occ.map((o) => o.title)),
        url: chosen.url.href,
        snippet: longest(occ.map((o) => o.snippet)),
        position: 0,
        engine: best.engine,
        engines,
        ...(published ? { published_at: published } : {}),
        score: group.score,
      } satisfies FusedResult,
    };
  });

  merged.sort((a, b) => {
    const diff = b.group.score - a.group.score;
    if (Math.abs(diff) > SCORE_EPSILON) return diff;
    return a.best.rank - b.best.rank || a.best.listIndex - b.best.listIndex || a.group.firstSeen - b.group.firstSeen;
  });

  const include = opts.includeDomains?.filter((d) => d.trim() !== '') ?? [];
  const exclude = opts.excludeDomains?.filter((d) => d.trim() !== '') ?? [];
  const max = Math.max(0, Math.floor(opts.maxResults));
  const out: FusedResult[] = [];
  for (const m of merged) {
    if (out.length >= max) break;
    if (include.length > 0 && !hostMatchesAny(m.host, include)) continue;
    if (exclude.length > 0 && hostMatchesAny(m.host, exclude)) continue;
    out.push({ ...m.result, position: out.length + 1 });
  }
  return out;
}
