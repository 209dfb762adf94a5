/**
 * The contract (docs/interface.md 2, 4) as zod schemas: request bodies and response
 * objects of both operations. The HTTP API validates with them, the MCP tools advertise
 * them as input/output schemas, so both faces speak exactly the same shapes.
 */
import { z } from 'zod';
import { PAGE_TYPES } from './page-types.js';

/** Longest URL string accepted in a request (browsers and CDNs cap near 8 KiB too). */
export const MAX_URL_LENGTH = 8192;

export const extractFormatSchema = z.enum(['markdown', 'html']);

export function extractRequestSchema(limits: { maxUrls: number; maxTimeoutMs: number }) {
  return z
    .object({
      urls: z
        .array(z.string().max(MAX_URL_LENGTH, `a URL is at most ${MAX_URL_LENGTH} characters`))
        .min(1, 'give at least one URL')
        .max(limits.maxUrls, `at most ${limits.maxUrls} URLs per request; split larger batches into several requests`)
        .describe(`URLs to extract (1 to ${limits.maxUrls}). Each URL succeeds or fails on its own.`),
      format: extractFormatSchema
        .default('markdown')
        .describe(
          '"markdown" (default): main content as Markdown, boilerplate removed (rendered in the headless browser when the page needs scripts). "html": the full page HTML after rendering when a browser is available, else as served, decoded to UTF-8.',
        ),
      stealth: z
        .boolean()
        .default(false)
        .describe(
          'Fetch with a realistic Chrome profile (headers, client hints; through the stealth proxy when one is configured) and, when the plain fetch is blocked (challenge page, 401/403/429/451), retry in the headless browser with that profile. 5 credits per successful URL instead of 1.',
        ),
      max_chars: z
        .number()
        .int()
        .min(1)
        .max(100_000_000)
        .optional()
        .describe(
          'Return at most this many characters of each page; the result then says total_chars and next_start_char.',
        ),
      start_char: z
        .number()
        .int()
        .min(0)
        .default(0)
        .describe('Character offset to start from, to continue a page cut by max_chars (use next_start_char).'),
      timeout_ms: z
        .number()
        .int()
        .min(100)
        .max(limits.maxTimeoutMs)
        .optional()
        .describe(`Deadline per URL in milliseconds (at most ${limits.maxTimeoutMs}).`),
    })
    .strict();
}
export type CrawlRequest = z.infer<ReturnType<typeof extractRequestSchema>>;

export const extractionErrorTypeSchema = z.enum([
  'http',
  'unsupported_content_type',
  'too_large',
  'robots_disallowed',
  'invalid_url',
  'forbidden_address',
  'timeout',
  'network',
  'blocked',
  'empty_content',
  'render_failed',
  'busy',
]);

/** What kind of page the HTML extractor takes a page for (page-types.ts). */
export const pageTypeSchema = z.enum(PAGE_TYPES);

export const extractResultSchema = z.object({
  url: z.string().describe('The submitted URL.'),
  success: z.boolean(),
  markdown: z.string().describe('Extracted Markdown; empty string on failure or with format "html".'),
  html: z.string().optional().describe('Full page HTML (format "html" only).'),
  rendered: z
    .boolean()
    .optional()
    .describe(
      'On success: whether the content comes from the page rendered in the headless browser (true) or from the static response (false).',
    ),
  status_code: z.number().int().describe('HTTP status of the target page; 0 when no response came.'),
  error: z.string().optional(),
  error_type: extractionErrorTypeSchema.optional(),
  title: z.string().optional(),
  description: z.string().optional(),
  language: z.string().optional(),
  published_at: z.string().optional(),
  page_type: pageTypeSchema
    .optional()
    .describe("The extractor's guess of what kind of page it is; only on pages converted from HTML to Markdown."),
  content_type: z.string().optional(),
  final_url: z.string().optional().describe('URL after redirects.'),
  total_chars: z
    .number()
    .int()
    .optional()
    .describe('Length of the whole content when max_chars or start_char was given.'),
  next_start_char: z.number().int().optional().describe('Offset of the rest of the content, when it was cut.'),
});
export type CrawlResult = z.infer<typeof extractResultSchema>;

export const extractMetadataSchema = z.object({
  total_urls: z.number().int(),
  processed_urls: z.number().int(),
  successful_crawls: z.number().int(),
  failed_crawls: z.number().int(),
  credits_used: z.number().int(),
  cached_free: z.number().int(),
  response_time: z.number().describe('Seconds.'),
  timestamp: z.string().describe('ISO 8601 UTC.'),
});

export const extractResponseSchema = z.object({
  results: z.array(extractResultSchema),
  metadata: extractMetadataSchema,
});
export type CrawlResponse = z.infer<typeof extractResponseSchema>;

/** Request-level error body (docs/decisions.md, "Gaps in part 7 (request-level errors)"). */
export const errorBodySchema = z.object({
  error: z.object({
    code: z.string(),
    message: z.string(),
    details: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
  }),
});
export type ErrorBody = z.infer<typeof errorBodySchema>;

/** Turns zod issues into `{ path, message }` details with dotted paths (`urls.3`). */
export function issuesToDetails(error: z.ZodError): { path: string; message: string }[] {
  return error.issues.map((issue) => ({
    path: issue.path.length > 0 ? issue.path.map(String).join('.') : '(body)',
    message: issue.message,
  }));
}

// ---------------------------------------------------------------- search (docs/interface.md 2.1-2.3, 4.1)

export const SEARCH_ENGINE_IDS = ['duckduckgo', 'wikipedia', 'mojeek', 'brave', 'searxng', 'google'] as const;
export const MAX_QUERY_LENGTH = 400;

/** A host name as given in include/exclude_domains: letters, digits, dots, hyphens (IDN allowed). */
const hostName = z
  .string()
  .trim()
  .toLowerCase()
  .min(1)
  .max(253)
  .regex(/^(?!-)[\p{L}\p{N}-]+(\.[\p{L}\p{N}-]+)*\.?$/u, 'a host name such as "example.com" (no scheme, path or port)')
  .transform((h) => h.replace(/\.$/, ''));

export const searchRequestSchema = z
  .object({
    q: z
      .string()
      .trim()
      .min(1, 'the query is empty')
      .max(MAX_QUERY_LENGTH, `the query is at most ${MAX_QUERY_LENGTH} characters`)
      .describe('The search query.'),
    include_content: z
      .boolean()
      .default(false)
      .describe("Also fetch the top results' pages and attach their main content as Markdown."),
    content_results: z
      .number()
      .int()
      .min(1)
      .max(10)
      .default(5)
      .describe('How many of the top results get content (1-10, default 5). Used with include_content.'),
    max_results: z.number().int().min(1).max(20).default(10).describe('Number of results (1-20, default 10).'),
    engines: z
      .array(z.enum(SEARCH_ENGINE_IDS))
      .min(1)
      .optional()
      .describe('Engines to query (default: every configured engine). duckduckgo, wikipedia and mojeek need no key.'),
    country: z
      .string()
      .regex(/^[A-Za-z]{2}$/, 'an ISO 3166-1 alpha-2 code such as "us" or "de"')
      .transform((c) => c.toLowerCase())
      .optional()
      .describe('Country to bias results to (ISO 3166-1 alpha-2).'),
    language: z
      .string()
      .regex(/^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$/, 'a BCP 47 tag such as "en" or "pt-BR"')
      .optional()
      .describe('Language of results (BCP 47).'),
    safesearch: z.enum(['off', 'moderate', 'strict']).default('moderate').describe('Adult-content filter.'),
    time_range: z
      .enum(['day', 'week', 'month', 'year'])
      .optional()
      .describe('Only results from the past day/week/month/year.'),
    include_domains: z
      .array(hostName)
      .max(20)
      .optional()
      .describe('Only results on these hosts (or their subdomains).'),
    exclude_domains: z.array(hostName).max(20).optional().describe('No results on these hosts (or their subdomains).'),
  })
  .strict();
export type SearchRequest = z.infer<typeof searchRequestSchema>;

export const contentErrorSchema = z.enum([
  'blocked',
  'robots_disallowed',
  'http_error',
  'timeout',
  'network_error',
  'unsupported_content_type',
  'too_large',
  'forbidden_address',
  'empty_content',
  'busy',
]);

export const searchResultSchema = z.object({
  title: z.string(),
  url: z.string(),
  snippet: z.string(),
  position: z.number().int().min(1),
  engine: z.string().describe('The engine that ranked this result best.'),
  engines: z.array(z.string()).optional().describe('Every engine that returned this result, best first.'),
  published_at: z.string().optional(),
  content: z.string().optional().describe('Page content as Markdown (include_content, fetch succeeded).'),
  content_error: contentErrorSchema
    .optional()
    .describe('Why the page content could not be fetched (include_content, fetch failed).'),
  content_total_chars: z
    .number()
    .int()
    .optional()
    .describe('Length of the whole content, when it was cut to fit the output budget (MCP).'),
  content_next_start_char: z
    .number()
    .int()
    .optional()
    .describe('Offset of the rest of the content (continue with extract_urls start_char).'),
});
export type SearchResult = z.infer<typeof searchResultSchema>;

export const searchMetadataSchema = z.object({
  number_of_results: z.number().int(),
  credits_used: z.number().int(),
  from_cache: z.boolean(),
  status: z.enum(['success', 'partial', 'no_results']),
  response_time: z.number().describe('Seconds.'),
  timestamp: z.string(),
  content_requested: z.number().int().optional(),
  content_delivered: z.number().int().optional(),
  failed_engines: z
    .array(z.object({ engine: z.string(), error: z.string(), message: z.string() }))
    .optional()
    .describe('Engines that failed or timed out (status "partial").'),
});

export const searchResponseSchema = z.object({
  id: z.string().describe('srch_ followed by a ULID.'),
  query: z.string(),
  engines: z.array(z.string()),
  results: z.array(searchResultSchema),
  metadata: searchMetadataSchema,
});
export type SearchResponse = z.infer<typeof searchResponseSchema>;
