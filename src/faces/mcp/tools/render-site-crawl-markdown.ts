/**
 * The text block of a site crawl's status (`crawl_site`, `crawl_status`): the job's state
 * and the exact crawl_status call that reads on, then each page as extract_urls shows one
 * (numbered by its result seq, so the numbers run on across calls), a failed page one line.
 */
import type { SiteCrawlPage, SiteCrawlStatus } from '../../../core/site-schemas.js';
import { followUpOptions, renderExtractResult } from './render-extract-markdown.js';

const STOP_REASONS: Record<NonNullable<SiteCrawlStatus['stop_reason']>, string> = {
  completed: 'nothing left to crawl',
  limit: 'limit pages delivered',
  credits: 'the key ran out of credits',
  cancelled: 'cancelled',
  deadline: 'timeout_ms passed',
  failed: 'the crawl failed',
};

/**
 * The result seq of the answer's first page. Results are numbered from 1 in completion
 * order; an answer holds the ones after its cursor, and next_cursor is the last one's seq
 * (absent only when the job is done and these were the last: then the job's count).
 */
export function firstSeq(status: SiteCrawlStatus): number {
  const last = status.next_cursor !== undefined ? Number(status.next_cursor) : status.progress.pages;
  return last - status.pages.length + 1;
}

function renderPage(page: SiteCrawlPage, seq: number, carry: ReturnType<typeof followUpOptions>): string {
  if (!page.success)
    return `**Page ${seq}: failed** ${page.url} (${page.error_type}, status ${page.status_code}, depth ${page.depth}): ${page.error ?? ''}`;
  const facts = [`depth ${page.depth}`, ...(page.parent !== undefined ? [`found on ${page.parent}`] : [])];
  return renderExtractResult(page, seq - 1, carry, facts);
}

/** The sentence that says what to call next, with its arguments. */
function nextCall(status: SiteCrawlStatus): string {
  const call = (args: object) => `call crawl_status with ${JSON.stringify({ id: status.id, ...args })}`;
  const cursor = status.next_cursor !== undefined ? { cursor: status.next_cursor } : {};
  if (status.status === 'running')
    return `The crawl is still running: ${call({ ...cursor, wait_ms: 30_000 })} for the pages after these (it waits up to 30 s for the next ones).`;
  if (status.next_cursor !== undefined) return `More pages are ready: ${call(cursor)} for the pages after these.`;
  return 'Every page of this crawl has been delivered.';
}

/** `args`: the call's arguments; a read-on slice of a cut page repeats their document-shaping options. */
export function renderSiteCrawlMarkdown(status: SiteCrawlStatus, args?: unknown): string {
  const p = status.progress;
  const state =
    status.status === 'running'
      ? 'running'
      : `done (stop_reason ${status.stop_reason ?? 'completed'}: ${STOP_REASONS[status.stop_reason ?? 'completed']})`;
  const head = [
    `Site crawl id "${status.id}" of ${status.url}: ${state}.`,
    `Progress: ${p.pages} page(s) delivered (${p.succeeded} succeeded, ${p.failed} failed), ${p.discovered} URL(s) found, ${p.queued} queued, ${p.in_flight} in flight, ${p.duplicates} duplicate(s), ${p.robots_disallowed} disallowed by robots.txt; ${p.credits_used} credit(s) used.`,
  ];
  if (status.error !== undefined) head.push(`Error: ${status.error.code}: ${status.error.message}`);
  const first = firstSeq(status);
  head.push(
    status.pages.length > 0
      ? `This answer: page(s) ${first}-${first + status.pages.length - 1}.`
      : 'This answer holds no page.',
    nextCall(status),
  );
  const carry = followUpOptions(args);
  return [head.join('\n'), ...status.pages.map((page, i) => renderPage(page, first + i, carry))].join('\n\n');
}
