/**
 * A site crawl's answer fitted to the output budget (`crawl_site`, `crawl_status`): whole
 * pages from the first while they fit, the rest left for the next call by moving
 * next_cursor back to the last page kept, so nothing is lost; a first page too large on its
 * own is cut as extract_urls cuts its pages (budgetExtract), with the offsets to read on.
 */
import type { ExtractResponse } from '../../core/schemas.js';
import type { SiteCrawlPage, SiteCrawlStatus } from '../../core/site-schemas.js';
import { budgetExtract, type Budgeted } from './output-budget.js';
import { firstSeq } from './tools/render-site-crawl-markdown.js';

/** Characters kept aside for what differs between two answers to the same call (counts, credits). */
const VOLATILE_RESERVE = 64;

/** The answer's first `kept` pages; next_cursor the seq of the last one kept when any were dropped. */
function firstPages(status: SiteCrawlStatus, kept: number): SiteCrawlStatus {
  if (kept >= status.pages.length) return status;
  return { ...status, pages: status.pages.slice(0, kept), next_cursor: String(firstSeq(status) + kept - 1) };
}

export function budgetSiteCrawl(
  status: SiteCrawlStatus,
  budget: number,
  render: (r: SiteCrawlStatus) => string,
): Budgeted<SiteCrawlStatus> {
  const fits = (kept: number) => render(firstPages(status, kept)).length + VOLATILE_RESERVE <= budget;
  if (fits(status.pages.length)) return { result: status, cut: 0 };
  // The largest prefix that fits (a page more never shortens the text).
  let low = 0;
  let high = status.pages.length - 1;
  while (low < high) {
    const mid = Math.ceil((low + high) / 2);
    if (fits(mid)) low = mid;
    else high = mid - 1;
  }
  if (low > 0) return { result: firstPages(status, low), cut: 0 };
  // Not even the first page fits whole: it alone, cut to the budget as an extraction's page is.
  const one = firstPages(status, 1);
  const asExtract = (pages: SiteCrawlPage[]): ExtractResponse => ({
    results: pages,
    metadata: {
      total_urls: pages.length,
      processed_urls: pages.length,
      successful_crawls: 0,
      failed_crawls: 0,
      credits_used: 0,
      cached_free: 0,
      response_time: 0,
      timestamp: '',
    },
  });
  const cut = budgetExtract(asExtract(one.pages), budget, (r) =>
    render({ ...one, pages: r.results as SiteCrawlPage[] }),
  );
  return { result: { ...one, pages: cut.result.results as SiteCrawlPage[] }, cut: cut.cut };
}
