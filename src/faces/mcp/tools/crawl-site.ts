/**
 * The `crawl_site` tool: starts a site crawl (`POST /api/site-crawls`) for models and waits
 * for it within a tool call's time, then answers the pages done so far and the job's id,
 * which crawl_status reads on from.
 */
import { z } from 'zod';
import type { Config } from '../../../core/config.js';
import { SITE_CRAWL_PRICE_TEXT } from '../../../core/prices.js';
import {
  MAX_WAIT_MS,
  SITE_CRAWL_DEFAULT_DEPTH,
  SITE_CRAWL_DEFAULT_LIMIT,
  SITE_CRAWL_MAX_LIMIT,
  STATUS_MAX_PAGES,
  siteCrawlRequestSchema,
  siteCrawlStatusSchema,
} from '../../../core/site-schemas.js';
import type { Operations } from '../../../services/operations.js';
import { budgetSiteCrawl } from '../budget-site-crawl.js';
import type { ToolDefinition } from '../tool-definition.js';
import { siteCrawlLogLines } from './crawl-status.js';
import { renderSiteCrawlMarkdown } from './render-site-crawl-markdown.js';

/**
 * How long a call waits for its crawl unless it says (wait_ms): MCP clients give up on a
 * tool call near 60 s, so it answers well before, with the job's id to read on.
 */
export const TOOL_WAIT_MS = 45_000;

export function crawlSiteTool(deps: {
  config: Config;
  services: () => Promise<{ operations: Pick<Operations, 'startSiteCrawl'> }>;
}) {
  // As Operations builds it, but advertising this tool's own wait (the API's is 0).
  const inputSchema = siteCrawlRequestSchema({
    maxTimeoutMs: deps.config.fetch.maxTimeoutMs,
    maxJobTimeoutMs: deps.config.site.maxJobTimeoutMs,
  }).safeExtend({
    wait_ms: z
      .number()
      .int()
      .min(0)
      .max(MAX_WAIT_MS, `wait_ms is at most ${MAX_WAIT_MS}`)
      .default(TOOL_WAIT_MS)
      .describe(
        `Wait up to this long (at most ${MAX_WAIT_MS} ms, default ${TOOL_WAIT_MS}) for the crawl before answering, so a small crawl is one call; the answer then holds its pages so far.`,
      ),
  });
  const tool: ToolDefinition<typeof inputSchema, typeof siteCrawlStatusSchema> = {
    name: 'crawl_site',
    title: 'Crawl a website',
    description: [
      "Crawl the pages of one website as a job and get each page's main content as Markdown (as extract_urls gives it), with its depth (links followed from the start URL) and parent (the page it was found on).",
      `The crawl starts at url, is seeded with the site's sitemaps and feeds (use_sitemap, default true), and follows same-site links up to max_depth hops (default ${SITE_CRAWL_DEFAULT_DEPTH}), within include_paths / exclude_paths (path globs such as "/docs/**") and include_subdomains; it delivers at most limit pages (default ${SITE_CRAWL_DEFAULT_LIMIT}, at most ${SITE_CRAWL_MAX_LIMIT}), respects robots.txt, and stops at timeout_ms.`,
      'Looking for something? Pass query (a question or topic): the crawl then goes best-first (the links most likely to answer it first) and each page carries only its passages that answer it (max_passages, max_passage_chars).',
      `The call waits up to wait_ms (default ${TOOL_WAIT_MS / 1000} s) and returns the pages done so far that fit, in the order they completed, plus the job's id. When status is "running" or next_cursor is present, call crawl_status with the id and cursor=next_cursor to read on (its wait_ms waits for new pages); every page is delivered once.`,
      'stop_reason once done: completed (nothing left to crawl), limit (limit pages delivered), credits (the key ran out), cancelled, deadline (timeout_ms passed), failed (see error). A failed page has success=false and an error_type as in extract_urls.',
      'To find the right pages first, use map_site; to read a few known URLs, extract_urls.',
      SITE_CRAWL_PRICE_TEXT,
    ].join('\n'),
    inputSchema,
    outputSchema: siteCrawlStatusSchema,
    annotations: {
      title: 'Crawl a website',
      readOnlyHint: true,
      openWorldHint: true,
      // Each call starts a job of its own.
      idempotentHint: false,
      destructiveHint: false,
    },
    handler: async (args, ctx) => {
      const given = typeof args === 'object' && args !== null && !Array.isArray(args) ? args : undefined;
      const input = given !== undefined && !('wait_ms' in given) ? { ...given, wait_ms: TOOL_WAIT_MS } : args;
      const asked = (given as { limit?: unknown } | undefined)?.limit;
      const limit = typeof asked === 'number' ? asked : SITE_CRAWL_DEFAULT_LIMIT;
      return (await deps.services()).operations.startSiteCrawl(ctx.request, input, {
        onProgress: ({ progress }) =>
          ctx.progress(progress.pages, limit, `${progress.pages} pages, ${progress.queued} queued`),
        pages: STATUS_MAX_PAGES,
      });
    },
    renderText: renderSiteCrawlMarkdown,
    budget: budgetSiteCrawl,
    logLines: (r) => siteCrawlLogLines('crawl_site', r),
  };
  return tool;
}
