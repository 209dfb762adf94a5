/**
 * Output budgets for tool results. MCP clients cap what a tool may return (Claude Code
 * near 25k tokens), and a result cut by the client is cut silently. So the server cuts
 * first, fairly, and says how to get the rest: the page contents of a result share one
 * character budget (short pages keep everything, long ones split what remains), each cut
 * page carries `total_chars` / `next_start_char` (extract_urls) or `content_total_chars` /
 * `content_next_start_char` (web_search), and the text block names the exact next call.
 * `structuredContent` is cut the same way, so both views agree. include_links lists are
 * cut first, to at most half the budget (links_truncated says so), and structured data
 * (extract_urls, web_search) to a quarter (its `truncated` and a note say so).
 */
import type {
  ExtractResponse,
  ExtractResult,
  PassageResult,
  SearchResponse,
  SearchResult,
} from '../../core/schemas.js';
import { pageContent } from '../../services/pages/paging.js';

/** Characters kept aside per cut page for its continuation hint in the text block. */
const HINT_RESERVE = 300;

export interface Budgeted<T> {
  result: T;
  /** How many contents were cut. */
  cut: number;
}

/**
 * Water-filling: every item gets min(its length, an equal share of what is left), taken
 * shortest first, so the budget goes to the pages that need it and none is starved.
 */
export function fairShares(lengths: number[], total: number): number[] {
  const shares = new Array<number>(lengths.length).fill(0);
  const order = lengths.map((length, i) => ({ length, i })).sort((a, b) => a.length - b.length);
  let left = Math.max(0, total);
  order.forEach(({ length, i }, k) => {
    const share = Math.floor(left / (order.length - k));
    shares[i] = Math.min(length, share);
    left -= shares[i] as number;
  });
  return shares;
}

interface Cuttable {
  text: string;
  /** Offset of `text` within the whole page. */
  start: number;
  /** Length of the whole page. */
  total: number;
}

/** Cuts each content to its share; returns the new text and the next offset when cut. */
function cutAll(items: Cuttable[], budget: number): { text: string; next?: number }[] {
  const shares = fairShares(
    items.map((c) => c.text.length),
    budget,
  );
  return items.map((item, i) => {
    const share = shares[i] as number;
    if (item.text.length <= share) return { text: item.text };
    const page = pageContent(item.text, 0, Math.max(1, share));
    return { text: page.text, next: item.start + (page.nextStartChar ?? page.text.length) };
  });
}

/**
 * Characters kept aside for what differs between two answers to the same call: the
 * credits and the cache count in the summary line. The cut is measured on a rendering
 * with those fields fixed, so a cached answer is cut exactly where the fresh one was.
 */
const VOLATILE_RESERVE = 64;

function stableExtract(response: ExtractResponse): ExtractResponse {
  return {
    ...response,
    metadata: { ...response.metadata, credits_used: 0, cached_free: 0, response_time: 0, timestamp: '' },
  };
}

function stableSearch(response: SearchResponse): SearchResponse {
  return {
    ...response,
    id: '',
    metadata: { ...response.metadata, credits_used: 0, from_cache: false, response_time: 0, timestamp: '' },
  };
}

/** Budget left for page contents once the rest of the text block is paid for. */
function contentBudget(budget: number, skeletonLength: number, pages: number): number {
  return budget - skeletonLength - VOLATILE_RESERVE - HINT_RESERVE * pages;
}

/** Characters a passage costs in the text block beyond its text (tag, offsets, section). */
const PASSAGE_OVERHEAD = 160;

function passageSize(p: PassageResult): number {
  return p.text.length + (p.lead_in?.length ?? 0) + PASSAGE_OVERHEAD;
}

/**
 * Passages share the budget as page contents do (fairShares): each page keeps its best
 * passages that fit its share, in page order; when none fits, its best one is cut to the
 * share (end_char moved with it, so text is still the Markdown between the offsets).
 */
function fitPassages(lists: PassageResult[][], budget: number): { lists: PassageResult[][]; cut: number } {
  const sizes = lists.map((list) => list.reduce((n, p) => n + passageSize(p), 0));
  const shares = fairShares(sizes, budget);
  let cut = 0;
  const fitted = lists.map((list, i) => {
    const share = shares[i] as number;
    if ((sizes[i] as number) <= share || list.length === 0) return list;
    cut += 1;
    const best = [...list].sort((a, b) => b.score - a.score);
    const kept = new Set<PassageResult>();
    let left = share;
    for (const p of best) {
      if (passageSize(p) > left) continue;
      kept.add(p);
      left -= passageSize(p);
    }
    if (kept.size > 0) return list.filter((p) => kept.has(p));
    const top = best[0] as PassageResult;
    const text = pageContent(top.text, 0, Math.max(1, share - passageSize({ ...top, text: '' }))).text;
    return [{ ...top, text, end_char: top.start_char + text.length }];
  });
  return { lists: fitted, cut };
}

/** The passages of every result fitted to what the text block has left for them (cut 0: they fit). */
function fitResultPassages<R extends { passages?: PassageResult[] | undefined }, T extends { results: R[] }>(
  response: T,
  budget: number,
  skeletonLength: number,
): { result: T; cut: number } {
  const withPassages = response.results.filter((r) => (r.passages ?? []).length > 0);
  if (withPassages.length === 0) return { result: response, cut: 0 };
  const { lists, cut } = fitPassages(
    withPassages.map((r) => r.passages ?? []),
    contentBudget(budget, skeletonLength, withPassages.length),
  );
  if (cut === 0) return { result: response, cut: 0 };
  const index = new Map(withPassages.map((r, i) => [r, i]));
  const results = response.results.map((r) => {
    const i = index.get(r);
    return i === undefined ? r : { ...r, passages: lists[i] };
  });
  return { result: { ...response, results }, cut };
}

/** Characters a link costs in the text block beyond its text and URL (list marker, brackets, mark). */
const LINK_OVERHEAD = 24;

type Link = NonNullable<ExtractResult['links']>[number];

function linkSize(link: Link): number {
  return link.url.length + link.text.length + LINK_OVERHEAD;
}

/**
 * include_links lists take at most half the budget, shared fairly (fairShares): each page
 * keeps its first links that fit its share and says links_truncated, so ten link-heavy
 * pages cannot push the result past the budget or starve the contents.
 */
function fitLinks(response: ExtractResponse, budget: number): { result: ExtractResponse; cut: number } {
  const withLinks = response.results.filter((r) => (r.links ?? []).length > 0);
  const sizes = withLinks.map((r) => (r.links ?? []).reduce((n, l) => n + linkSize(l), 0));
  const shares = fairShares(sizes, budget);
  const kept = new Map<ExtractResult, Link[]>();
  withLinks.forEach((r, i) => {
    if ((sizes[i] as number) <= (shares[i] as number)) return;
    let left = shares[i] as number;
    const links: Link[] = [];
    for (const link of r.links ?? []) {
      if (linkSize(link) > left) break;
      links.push(link);
      left -= linkSize(link);
    }
    kept.set(r, links);
  });
  if (kept.size === 0) return { result: response, cut: 0 };
  const results = response.results.map((r) => {
    const links = kept.get(r);
    return links === undefined ? r : { ...r, links, links_truncated: true };
  });
  return { result: { ...response, results }, cut: kept.size };
}

type StructuredData = NonNullable<ExtractResult['structured_data']>;

function structuredSize(data: StructuredData): number {
  return JSON.stringify(data).length;
}

/**
 * include_structured_data takes at most a quarter of the budget, shared fairly: a page over
 * its share keeps its first items that fit (its Open Graph and Twitter records first), and
 * says truncated with a note naming `whole`, the endpoint that returns it uncut.
 */
function fitStructuredData<R extends { structured_data?: StructuredData | undefined }, T extends { results: R[] }>(
  response: T,
  budget: number,
  whole: string,
): { result: T; cut: number } {
  const withData = response.results.filter((r) => r.structured_data !== undefined);
  const sizes = withData.map((r) => structuredSize(r.structured_data!));
  const shares = fairShares(sizes, budget);
  const kept = new Map<R, StructuredData>();
  withData.forEach((r, i) => {
    if ((sizes[i] as number) <= (shares[i] as number)) return;
    const data = r.structured_data!;
    const fitted: StructuredData = {
      ...data,
      items: [],
      truncated: true,
      notes: [...(data.notes ?? []), `cut to fit the tool's output budget: ${whole} returns it whole`],
    };
    let left = (shares[i] as number) - structuredSize(fitted);
    for (const item of data.items) {
      const size = JSON.stringify(item).length + 1;
      if (size > left) break;
      fitted.items.push(item);
      left -= size;
    }
    const cut = left < 0 ? { items: [], truncated: true, notes: fitted.notes ?? [] } : fitted;
    // Only a cut that shrinks it: one already cut to nothing would otherwise gain a note on each pass, forever.
    if (structuredSize(cut) < (sizes[i] as number)) kept.set(r, cut);
  });
  if (kept.size === 0) return { result: response, cut: 0 };
  const results = response.results.map((r) => {
    const data = kept.get(r);
    return data === undefined ? r : { ...r, structured_data: data };
  });
  return { result: { ...response, results }, cut: kept.size };
}

export function budgetExtract(
  response: ExtractResponse,
  budget: number,
  render: (r: ExtractResponse) => string,
): Budgeted<ExtractResponse> {
  if (render(stableExtract(response)).length + VOLATILE_RESERVE <= budget) return { result: response, cut: 0 };
  const described = fitStructuredData(response, Math.floor(budget / 4), 'POST /api/crawl');
  if (described.cut > 0) {
    const rest = budgetExtract(described.result, budget, render);
    return { result: rest.result, cut: rest.result.results.filter((r, i) => r !== response.results[i]).length };
  }
  const linked = fitLinks(response, Math.floor(budget / 2));
  if (linked.cut > 0) {
    const rest = budgetExtract(linked.result, budget, render);
    // A page cut in its links and in its content is one cut page.
    return { result: rest.result, cut: rest.result.results.filter((r, i) => r !== response.results[i]).length };
  }
  // Passages first (with a query they are the page); then any max_chars slice, below.
  const bare = render(
    stableExtract({
      ...response,
      results: response.results.map((r) => (r.passages ? { ...r, passages: [], markdown: '' } : r)),
    }),
  );
  const fitted = fitResultPassages(response, budget, bare.length);
  if (fitted.cut > 0) {
    const rest = budgetExtract(fitted.result, budget, render);
    return { result: rest.result, cut: rest.cut + fitted.cut };
  }
  const field = (r: ExtractResult): 'html' | 'markdown' => (r.html !== undefined ? 'html' : 'markdown');
  const withContent = response.results.filter((r) => r.success && (r[field(r)] ?? '').length > 0);
  const total = withContent.reduce((n, r) => n + (r[field(r)] ?? '').length, 0);
  const skeleton = render(
    stableExtract({ ...response, results: response.results.map((r) => (r.success ? { ...r, [field(r)]: '' } : r)) }),
  );
  const items: Cuttable[] = withContent.map((r) => {
    const text = r[field(r)] ?? '';
    const whole = r.total_chars ?? text.length;
    const start = r.next_start_char !== undefined ? r.next_start_char - text.length : whole - text.length;
    return { text, start, total: whole };
  });
  const cuts = cutAll(items, Math.min(total, contentBudget(budget, skeleton.length, withContent.length)));
  let cut = 0;
  const byResult = new Map(withContent.map((r, i) => [r, i]));
  const results = response.results.map((r) => {
    const i = byResult.get(r);
    if (i === undefined) return r;
    const c = cuts[i] as { text: string; next?: number };
    if (c.next === undefined) return r;
    cut += 1;
    const item = items[i] as Cuttable;
    return { ...r, [field(r)]: c.text, total_chars: item.total, next_start_char: c.next };
  });
  return { result: { ...response, results }, cut };
}

export function budgetSearch(
  response: SearchResponse,
  budget: number,
  render: (r: SearchResponse) => string,
): Budgeted<SearchResponse> {
  if (render(stableSearch(response)).length + VOLATILE_RESERVE <= budget) return { result: response, cut: 0 };
  // include_structured_data: at most a quarter of the budget, as in extract_urls.
  const described = fitStructuredData(response, Math.floor(budget / 4), 'POST /api/search');
  if (described.cut > 0) {
    const rest = budgetSearch(described.result, budget, render);
    // A result cut in its structured data and in its content is one cut page.
    return { result: rest.result, cut: rest.result.results.filter((r, i) => r !== response.results[i]).length };
  }
  // content_mode "passages": the passages stand in for the contents.
  const bare = render(
    stableSearch({ ...response, results: response.results.map((r) => (r.passages ? { ...r, passages: [] } : r)) }),
  );
  const fitted = fitResultPassages(response, budget, bare.length);
  if (fitted.cut > 0) return fitted;
  const withContent = response.results.filter((r) => (r.content ?? '').length > 0);
  const total = withContent.reduce((n, r) => n + (r.content ?? '').length, 0);
  const skeleton = render(
    stableSearch({
      ...response,
      results: response.results.map((r) => (r.content !== undefined ? { ...r, content: '' } : r)),
    }),
  );
  const items: Cuttable[] = withContent.map((r) => ({
    text: r.content ?? '',
    start: 0,
    total: (r.content ?? '').length,
  }));
  const cuts = cutAll(items, Math.min(total, contentBudget(budget, skeleton.length, withContent.length)));
  let cut = 0;
  const byResult = new Map(withContent.map((r, i) => [r, i]));
  const results = response.results.map((r): SearchResult => {
    const i = byResult.get(r);
    if (i === undefined) return r;
    const c = cuts[i] as { text: string; next?: number };
    if (c.next === undefined) return r;
    cut += 1;
    return {
      ...r,
      content: c.text,
      content_total_chars: (items[i] as Cuttable).total,
      content_next_start_char: c.next,
    };
  });
  return { result: { ...response, results }, cut };
}
