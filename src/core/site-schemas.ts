/**
 * Exploring a site (docs/decisions.md, "Site maps and
 * crawls"): the map's request and answer, the site crawl's request, its status and its
 * pages, as zod schemas that every face validates with and advertises.
 */
import { z } from 'zod';
import { MAX_GLOB_LENGTH, MAX_GLOBS } from './path-glob.js';
import {
  checkPageOptions,
  extractResultSchema,
  MAX_QUERY_LENGTH,
  MAX_URL_LENGTH,
  pageOptionsShape,
} from './schemas.js';

export const MAP_DEFAULT_LIMIT = 5_000;
export const MAP_MAX_LIMIT = 30_000;
export const SITE_CRAWL_DEFAULT_LIMIT = 50;
export const SITE_CRAWL_MAX_LIMIT = 1_000;
export const SITE_CRAWL_DEFAULT_DEPTH = 3;
export const SITE_CRAWL_MAX_DEPTH = 20;
export const SITE_CRAWL_DEFAULT_TIMEOUT_MS = 600_000;
export const MAX_WAIT_MS = 60_000;
export const STATUS_DEFAULT_PAGES = 20;
export const STATUS_MAX_PAGES = 100;

const startUrl = z
  .string()
  .trim()
  .min(1, 'give the site: a page or a bare origin such as https://example.com')
  .max(MAX_URL_LENGTH, `a URL is at most ${MAX_URL_LENGTH} characters`);

const globList = (what: string) =>
  z
    .array(
      z
        .string()
        .trim()
        .min(1, 'a path glob is empty')
        .max(MAX_GLOB_LENGTH, `a path glob is at most ${MAX_GLOB_LENGTH} characters`),
    )
    .max(MAX_GLOBS, `at most ${MAX_GLOBS} path globs`)
    .optional()
    .describe(
      `${what} Path globs (at most ${MAX_GLOBS}, ${MAX_GLOB_LENGTH} characters each; no regular expressions): * within one path segment, ? one character, ** any number of segments, e.g. "/docs/**".`,
    );

const scopeShape = {
  include_paths: globList('Only URLs whose path matches one of these.'),
  exclude_paths: globList('Leave out URLs whose path matches one of these (checked after include_paths).'),
  include_subdomains: z
    .boolean()
    .default(false)
    .describe("Also URLs on the start host's subdomains (default false: the start URL's origin only)."),
};

export const mapRequestSchema = z
  .object({
    url: startUrl.describe('The site: a page of it or its bare origin.'),
    search: z
      .string()
      .trim()
      .min(1, 'the search is empty')
      .max(MAX_QUERY_LENGTH, `the search is at most ${MAX_QUERY_LENGTH} characters`)
      .optional()
      .describe(
        'Words to rank the URLs by (their path, title and anchor text); each link then has a score. Without it, sitemap order, then the order links were found.',
      ),
    limit: z
      .number()
      .int()
      .min(1)
      .max(MAP_MAX_LIMIT, `at most ${MAP_MAX_LIMIT} URLs`)
      .default(MAP_DEFAULT_LIMIT)
      .describe(`URLs to return at most (1-${MAP_MAX_LIMIT}, default ${MAP_DEFAULT_LIMIT}).`),
    ...scopeShape,
    sitemap: z
      .enum(['include', 'skip', 'only'])
      .default('include')
      .describe('"include" (default): sitemaps, feeds and links; "skip": feeds and links only; "only": sitemaps only.'),
  })
  .strict();
export type MapRequest = z.infer<typeof mapRequestSchema>;

export const mapLinkSchema = z.object({
  url: z.string(),
  source: z.enum(['sitemap', 'feed', 'links']).describe('Where the URL was found first.'),
  lastmod: z.string().optional().describe("The sitemap's lastmod, ISO 8601, when it gives one."),
  title: z.string().optional().describe('Anchor text or feed title, when known.'),
  score: z.number().optional().describe('With search: relevance (higher first).'),
});
export type MapLink = z.infer<typeof mapLinkSchema>;

export const mapResponseSchema = z.object({
  url: z.string().describe('The site as mapped (the start URL, normalised).'),
  links: z.array(mapLinkSchema),
  metadata: z.object({
    total: z.number().int().describe('URLs found in scope (before limit).'),
    truncated: z.boolean().describe('More URLs were found than limit lets through.'),
    robots_disallowed: z.number().int().describe('URLs left out because robots.txt disallows them (never fetched).'),
    sources: z
      .object({ sitemap: z.number().int(), feed: z.number().int(), links: z.number().int() })
      .describe('URLs found per source (a URL counts where it was found first).'),
    sitemaps_read: z.number().int().describe('Sitemap files read (indexes and gzipped ones included).'),
    warnings: z
      .array(z.string())
      .optional()
      .describe("What could not be read, each in a sentence (a sitemap that failed, robots.txt's status)."),
    credits_used: z.number().int(),
    response_time: z.number().describe('Seconds.'),
    timestamp: z.string().describe('ISO 8601 UTC.'),
  }),
});
export type MapResponse = z.infer<typeof mapResponseSchema>;

/** A site crawl's request: the site, how far to go, and the page options of /api/crawl. */
export function siteCrawlRequestSchema(limits: { maxTimeoutMs: number; maxJobTimeoutMs: number }) {
  const { start_char: _start, screenshot: _shot, timeout_ms: _timeout, ...pageOptions } = pageOptionsShape(limits);
  return z
    .object({
      url: startUrl.describe('Where the crawl starts: a page of the site or its bare origin.'),
      limit: z
        .number()
        .int()
        .min(1)
        .max(SITE_CRAWL_MAX_LIMIT, `at most ${SITE_CRAWL_MAX_LIMIT} pages`)
        .default(SITE_CRAWL_DEFAULT_LIMIT)
        .describe(
          `Pages to deliver at most (1-${SITE_CRAWL_MAX_LIMIT}, default ${SITE_CRAWL_DEFAULT_LIMIT}); failed pages count.`,
        ),
      max_depth: z
        .number()
        .int()
        .min(0)
        .max(SITE_CRAWL_MAX_DEPTH)
        .default(SITE_CRAWL_DEFAULT_DEPTH)
        .describe(
          `Links followed from the start URL at most (0: the start page only; default ${SITE_CRAWL_DEFAULT_DEPTH}). Sitemap URLs count as depth 1.`,
        ),
      ...scopeShape,
      use_sitemap: z
        .boolean()
        .default(true)
        .describe("Seed the crawl with the site's map (sitemaps and feeds), not only the start page's links."),
      timeout_ms: z
        .number()
        .int()
        .min(1_000)
        .max(limits.maxJobTimeoutMs)
        .default(Math.min(SITE_CRAWL_DEFAULT_TIMEOUT_MS, limits.maxJobTimeoutMs))
        .describe(
          `The whole crawl's deadline in milliseconds (default ${SITE_CRAWL_DEFAULT_TIMEOUT_MS / 60_000} minutes, at most ${limits.maxJobTimeoutMs}); the job then stops with stop_reason "deadline".`,
        ),
      wait_ms: z
        .number()
        .int()
        .min(0)
        .max(MAX_WAIT_MS, `wait_ms is at most ${MAX_WAIT_MS}`)
        .default(0)
        .describe(
          `Wait up to this long (at most ${MAX_WAIT_MS} ms) for the crawl before answering, so a small crawl is one call; the answer then holds its pages so far.`,
        ),
      ...pageOptions,
    })
    .strict()
    .superRefine(checkPageOptions);
}
export type SiteCrawlRequest = z.infer<ReturnType<typeof siteCrawlRequestSchema>>;

export const siteCrawlPageSchema = extractResultSchema.extend({
  depth: z.number().int().describe('Links followed from the start URL (sitemap seeds: 1).'),
  parent: z.string().optional().describe('The page this one was found on.'),
});
export type SiteCrawlPage = z.infer<typeof siteCrawlPageSchema>;

export const siteCrawlStopReasonSchema = z
  .enum(['completed', 'limit', 'credits', 'cancelled', 'deadline', 'failed'])
  .describe(
    'completed: nothing left to crawl; limit: `limit` pages delivered (links past max_depth are not followed: a crawl that ran out of pages within it is completed); credits: the key ran out; cancelled: DELETE; deadline: timeout_ms passed; failed: see error.',
  );

export const siteCrawlStatusSchema = z.object({
  id: z.string().describe('The job id: GET /api/site-crawls/{id} reads on, DELETE cancels.'),
  url: z.string(),
  status: z.enum(['running', 'done']),
  stop_reason: siteCrawlStopReasonSchema.optional(),
  error: z.object({ code: z.string(), message: z.string() }).optional(),
  progress: z.object({
    discovered: z.number().int().describe('URLs found in scope so far.'),
    queued: z.number().int().describe('URLs waiting to be fetched.'),
    in_flight: z.number().int(),
    pages: z.number().int().describe('Results delivered (failed pages included).'),
    succeeded: z.number().int(),
    failed: z.number().int(),
    duplicates: z
      .number()
      .int()
      .describe('Pages recognised as one already crawled (canonical, redirect, same content).'),
    robots_disallowed: z.number().int(),
    credits_used: z.number().int(),
  }),
  pages: z.array(siteCrawlPageSchema).describe('Results after the cursor, in the order they completed.'),
  next_cursor: z
    .string()
    .optional()
    .describe('Pass as cursor to read the results after these; absent when none are left yet.'),
  created_at: z.string(),
  finished_at: z.string().optional(),
  expires_at: z.string().optional().describe('When a finished job and its results are deleted.'),
});
export type SiteCrawlStatus = z.infer<typeof siteCrawlStatusSchema>;

export const siteCrawlStatusQuerySchema = z
  .object({
    cursor: z
      .string()
      .regex(/^\d{1,12}$/, 'a cursor is the next_cursor of an earlier answer')
      .optional()
      .describe('next_cursor of an earlier answer: the results after it.'),
    limit: z
      .number()
      .int()
      .min(1)
      .max(STATUS_MAX_PAGES)
      .default(STATUS_DEFAULT_PAGES)
      .describe(`Pages per answer (1-${STATUS_MAX_PAGES}, default ${STATUS_DEFAULT_PAGES}).`),
    wait_ms: z
      .number()
      .int()
      .min(0)
      .max(MAX_WAIT_MS, `wait_ms is at most ${MAX_WAIT_MS}`)
      .optional()
      .describe(
        `While the crawl runs and no result follows the cursor, wait up to this long (at most ${MAX_WAIT_MS} ms) for one.`,
      ),
  })
  .strict();
export type SiteCrawlStatusQuery = z.infer<typeof siteCrawlStatusQuerySchema>;
