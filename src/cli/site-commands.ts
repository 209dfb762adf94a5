/**
 * `websearch-mcp map` and `websearch-mcp crawl-site`: a site's URLs, and its pages as they
 * are crawled. Each composes the core as `extract` does (converting on this thread, the
 * local caller) and goes through Operations, which validates the request as POST /api/map
 * and POST /api/site-crawls do; the options are flags derived from those schemas
 * (crawl-flags.ts).
 */
import { buildCore } from '../compose.js';
import { LOCAL_CALLER } from '../core/caller.js';
import type { Config } from '../core/config.js';
import type { Logger } from '../core/logger.js';
import { incomingRequest } from '../core/request-context.js';
import type { MapResponse, SiteCrawlPage, SiteCrawlStatus } from '../core/site-schemas.js';
import { SITE_CRAWL_DEFAULT_LIMIT, STATUS_MAX_PAGES } from '../core/site-schemas.js';
import { linksText, readerText } from '../faces/reader-text.js';
import { UsageError } from './args.js';
import { mapFlagSource, requestBody, siteCrawlFlagSource, type GivenOptions } from './crawl-flags.js';
import { ProgressLine } from './progress.js';

export interface SiteCommandArgs {
  options: GivenOptions;
  positionals: string[];
  logger: Logger;
}

/** How long each read of a running crawl waits for its next pages. */
const READ_WAIT_MS = 5_000;

/** The command's one URL: the site. */
function siteUrl(command: string, positionals: string[]): string {
  if (positionals.length === 0) throw new UsageError(`${command} needs the site's URL`);
  if (positionals.length > 1)
    throw new UsageError(
      `${command} takes one URL, the site (got ${positionals.length}); scope it with --include-paths`,
    );
  return positionals[0] as string;
}

/** A title on one line of a tab-separated output. */
const oneLine = (text: string) => text.replace(/\s+/g, ' ').trim();

/** The map's summary for stderr: what was found, whether --limit cut it, what was left out, and why. */
function mapSummary(response: MapResponse): string {
  const m = response.metadata;
  const lines = [
    `${response.links.length} of ${m.total} URL(s) of ${response.url} (sitemaps ${m.sources.sitemap}, feeds ${m.sources.feed}, links ${m.sources.links}; ${m.sitemaps_read} sitemap file(s) read)${m.truncated ? '; truncated: more were found than --limit lets through' : ''}; ${m.robots_disallowed} disallowed by robots.txt; ${m.warnings?.length ?? 0} warning(s)`,
    ...(m.warnings ?? []).map((w) => `warning: ${w}`),
  ];
  return `${lines.join('\n')}\n`;
}

/**
 * `map <url>`: one URL a line on stdout (then, tab-separated, its score with --search and
 * its title when known), the summary on stderr; `--json` prints the response object.
 */
export async function runMap(config: Config, { options, positionals, logger }: SiteCommandArgs): Promise<number> {
  const url = siteUrl('map', positionals);
  // Read and checked as POST /api/map's body before anything is fetched.
  const body = requestBody(mapFlagSource(), { url }, options);
  const core = await buildCore(config, logger, { converter: 'in-thread' });
  try {
    const response = await core.operations.map(incomingRequest({ caller: LOCAL_CALLER, logger }), body);
    if (options.json === true) {
      process.stdout.write(`${JSON.stringify(response, null, 2)}\n`);
      return 0;
    }
    const lines = response.links.map((link) =>
      [
        link.url,
        ...(link.score !== undefined ? [String(Math.round(link.score * 1000) / 1000)] : []),
        ...(link.title !== undefined ? [oneLine(link.title)] : []),
      ].join('\t'),
    );
    process.stdout.write(lines.length > 0 ? `${lines.join('\n')}\n` : '');
    process.stderr.write(mapSummary(response));
    return 0;
  } finally {
    await core.close();
  }
}

/** One crawled page as `extract` prints one, with its depth and parent; `after`: a page was printed before it. */
function printPage(page: SiteCrawlPage, after: boolean): boolean {
  if (!page.success) {
    process.stderr.write(`${page.url}: ${page.error_type}: ${page.error}\n`);
    return false;
  }
  const found = `Depth: ${page.depth}${page.parent !== undefined ? `\nFound on: ${page.parent}` : ''}\n`;
  const links = page.links !== undefined ? `\n${linksText(page.links, page.links_truncated === true)}\n` : '';
  process.stdout.write(`${after ? '\n---\n\n' : ''}${found}${readerText(page)}${links}`);
  return true;
}

/** The job's end in a line for stderr. */
function crawlSummary(status: SiteCrawlStatus): string {
  const p = status.progress;
  const error = status.error !== undefined ? `: ${status.error.code}: ${status.error.message}` : '';
  return `crawl ${status.id} ${status.status} (${status.stop_reason ?? 'running'}${error}): ${p.pages} page(s), ${p.succeeded} succeeded, ${p.failed} failed, ${p.duplicates} duplicate(s), ${p.robots_disallowed} disallowed by robots.txt, ${p.credits_used} credit(s)\n`;
}

/** The status without its pages and cursor, `status` first: the last line of --jsonl. */
function statusLine(status: SiteCrawlStatus): string {
  const { pages: _pages, next_cursor: _cursor, status: state, ...rest } = status;
  return `${JSON.stringify({ status: state, ...rest })}\n`;
}

/**
 * `crawl-site <url>`: starts the crawl and reads on by cursor until the job is done and
 * every page was read, printing each page as it arrives (Markdown, or a JSON line with
 * --jsonl and a last status line; --json prints the whole status with every page at the
 * end). Ctrl-C cancels the job (exit 130); a job that stopped `failed` exits 1.
 */
export async function runCrawlSite(config: Config, { options, positionals, logger }: SiteCommandArgs): Promise<number> {
  const url = siteUrl('crawl-site', positionals);
  const json = options.json === true;
  const jsonl = options.jsonl === true;
  if (json && jsonl) throw new UsageError('--json and --jsonl are two output forms: choose one');
  // Read and checked as POST /api/site-crawls' body; this command waits by reading on.
  const body: Record<string, unknown> = { ...requestBody(siteCrawlFlagSource(config), { url }, options), wait_ms: 0 };
  const limit = typeof body.limit === 'number' ? body.limit : SITE_CRAWL_DEFAULT_LIMIT;
  const core = await buildCore(config, logger, { converter: 'in-thread' });
  const interrupted = new AbortController();
  const interrupt = () => interrupted.abort();
  process.once('SIGINT', interrupt);
  const request = () => incomingRequest({ caller: LOCAL_CALLER, logger, cancel: interrupted.signal });
  const progress = new ProgressLine(process.stderr, limit, { what: 'pages' });
  const all: SiteCrawlPage[] = [];
  let printed = 0;
  const show = (status: SiteCrawlStatus) => {
    const p = status.progress;
    for (const page of status.pages) {
      all.push(page);
      progress.step(!page.success, Math.min(limit, Math.max(p.pages, p.pages + p.queued + p.in_flight)));
      if (json) continue;
      progress.print(() => {
        if (jsonl) process.stdout.write(`${JSON.stringify(page)}\n`);
        else if (printPage(page, printed > 0)) printed++;
      });
    }
  };
  let id: string | undefined;
  try {
    progress.start();
    let status = await core.operations.startSiteCrawl(request(), body, { pages: STATUS_MAX_PAGES });
    id = status.id;
    show(status);
    let cursor = status.next_cursor;
    while (!interrupted.signal.aborted && (status.status === 'running' || status.next_cursor !== undefined)) {
      // From "0" before the first page: a read without a cursor waits for the crawl's end, not its first page.
      status = await core.operations.siteCrawlStatus(request(), id, {
        cursor: cursor ?? '0',
        limit: STATUS_MAX_PAGES,
        wait_ms: READ_WAIT_MS,
      });
      show(status);
      if (status.next_cursor !== undefined) cursor = status.next_cursor;
    }
    progress.finish();
    if (interrupted.signal.aborted) {
      const cancelled = await core.operations.cancelSiteCrawl(incomingRequest({ caller: LOCAL_CALLER, logger }), id);
      process.stderr.write(crawlSummary(cancelled));
      return 130;
    }
    if (json) process.stdout.write(`${JSON.stringify({ ...status, pages: all }, null, 2)}\n`);
    else if (jsonl) process.stdout.write(statusLine(status));
    process.stderr.write(crawlSummary(status));
    return status.stop_reason === 'failed' ? 1 : 0;
  } catch (err) {
    // Ctrl-C while the crawl starts or a read waits: the job, once started, is cancelled all the same.
    if (!interrupted.signal.aborted) throw err;
    if (id !== undefined)
      await core.operations
        .cancelSiteCrawl(incomingRequest({ caller: LOCAL_CALLER, logger }), id)
        .catch(() => undefined);
    return 130;
  } finally {
    process.off('SIGINT', interrupt);
    progress.finish();
    await core.close();
  }
}
