/**
 * The spec as zod schemas: request bodies and response objects of both operations. The
 * HTTP API validates with them, the MCP tools advertise them as input/output schemas,
 * so both faces speak exactly the same shapes.
 */
import { z } from 'zod';

/** Longest URL string accepted in a request (browsers and CDNs cap near 8 KiB too). */
export const MAX_URL_LENGTH = 8192;

export const crawlFormatSchema = z.enum(['markdown', 'html']);

export function crawlRequestSchema(limits: { maxUrls: number; maxTimeoutMs: number }) {
  return z
    .object({
      urls: z
        .array(z.string().max(MAX_URL_LENGTH, `a URL is at most ${MAX_URL_LENGTH} characters`))
        .min(1, 'give at least one URL')
        .max(limits.maxUrls, `at most ${limits.maxUrls} URLs per request; split larger batches into several requests`)
        .describe(`URLs to extract (1 to ${limits.maxUrls}). Each URL succeeds or fails on its own.`),
      format: crawlFormatSchema
        .default('markdown')
        .describe('"markdown" (default): main content as Markdown, boilerplate removed. "html": the full page HTML, decoded to UTF-8.'),
      stealth: z
        .boolean()
        .default(false)
        .describe('Charge the stealth rate (5 credits per successful URL instead of 1).'),
      max_chars: z
        .number()
        .int()
        .min(1)
        .max(100_000_000)
        .optional()
        .describe('Return at most this many characters of each page; the result then says total_chars and next_start_char.'),
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
export type CrawlRequest = z.infer<ReturnType<typeof crawlRequestSchema>>;

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
]);

export const crawlResultSchema = z.object({
  url: z.string().describe('The submitted URL.'),
  success: z.boolean(),
  markdown: z.string().describe('Extracted Markdown; empty string on failure or with format "html".'),
  html: z.string().optional().describe('Full page HTML (format "html" only).'),
  status_code: z.number().int().describe('HTTP status of the target page; 0 when no response came.'),
  error: z.string().optional(),
  error_type: extractionErrorTypeSchema.optional(),
  title: z.string().optional(),
  description: z.string().optional(),
  language: z.string().optional(),
  published_at: z.string().optional(),
  content_type: z.string().optional(),
  final_url: z.string().optional().describe('URL after redirects.'),
  total_chars: z.number().int().optional().describe('Length of the whole content when max_chars or start_char was given.'),
  next_start_char: z.number().int().optional().describe('Offset of the rest of the content, when it was cut.'),
});
export type CrawlResult = z.infer<typeof crawlResultSchema>;

export const crawlMetadataSchema = z.object({
  total_urls: z.number().int(),
  processed_urls: z.number().int(),
  successful_crawls: z.number().int(),
  failed_crawls: z.number().int(),
  credits_used: z.number().int(),
  cached_free: z.number().int(),
  response_time: z.number().describe('Seconds.'),
  timestamp: z.string().describe('ISO 8601 UTC.'),
});

export const crawlResponseSchema = z.object({
  results: z.array(crawlResultSchema),
  metadata: crawlMetadataSchema,
});
export type CrawlResponse = z.infer<typeof crawlResponseSchema>;

/** Request-level error body (decisions.md, part 7). */
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
