/**
 * `GET /api/usage` (docs/decisions.md, "A key holder's own usage"): the query it takes and
 * the answer it gives, as zod schemas, so the route validates with them and the OpenAPI
 * document shows them. HTTP only: MCP clients have no use for a ledger listing.
 */
import { z } from 'zod';
import type { UsageRecord } from './ports/ledger-store.js';

/** Records per page: 20 unless asked, at most 100 (a page stays one small answer). */
export const USAGE_PAGE_DEFAULT = 20;
export const USAGE_PAGE_MAX = 100;

export const usageQuerySchema = z
  .object({
    limit: z.coerce
      .number()
      .int()
      .min(1)
      .max(USAGE_PAGE_MAX)
      .default(USAGE_PAGE_DEFAULT)
      .describe(`Records per page (1-${USAGE_PAGE_MAX}, default ${USAGE_PAGE_DEFAULT}).`),
    // Checked against the calling key by services/accounts/usage-cursor.ts.
    cursor: z
      .string()
      .regex(/^[A-Za-z0-9_-]{1,64}$/, 'the next_cursor of the previous page')
      .optional()
      .describe(
        "Where the page starts: the next_cursor of the previous page, as given (opaque, and the calling key's own).",
      ),
  })
  .strict();
export type UsageQuery = z.infer<typeof usageQuerySchema>;

export const usageRecordSchema = z.object({
  request_id: z.string().describe('The X-Request-Id of the request charged.'),
  operation: z
    .enum(['search', 'crawl', 'map', 'site_crawl'])
    .describe(
      '"crawl": /api/crawl, /r/ and extract_urls; "search": the searches; "map": a site map; "site_crawl": one page of a site crawl (filed under the job\'s id).',
    ),
  credits: z.number().int(),
  at: z.string().describe('ISO 8601 UTC.'),
  urls: z.array(z.string()).optional().describe('The URLs submitted (crawl).'),
  query: z.string().optional().describe('The query (search).'),
});
export type UsageRecordJson = z.infer<typeof usageRecordSchema>;

/** A stored usage record as the API's JSON writes it (snake_case), for /api/usage and `keys usage --json`. */
export function usageRecordJson(r: UsageRecord): UsageRecordJson {
  return {
    request_id: r.requestId,
    operation: r.operation,
    credits: r.credits,
    at: r.at,
    ...(r.urls !== undefined ? { urls: r.urls } : {}),
    ...(r.query !== undefined ? { query: r.query } : {}),
  };
}

export const usageResponseSchema = z.object({
  metered: z.boolean().describe('false in open mode (no API keys): nothing is charged or recorded.'),
  key: z.object({ id: z.string(), name: z.string(), prefix: z.string() }).optional(),
  balance: z.number().int().nullable().describe("The key's credits; null when unlimited (or not metered)."),
  held_credits: z
    .number()
    .int()
    .describe('Credits held by requests in progress (each holds its largest possible cost until it is charged).'),
  records: z.array(usageRecordSchema).describe('Usage records, newest first.'),
  next_cursor: z
    .string()
    .optional()
    .describe(
      'Pass as cursor for the next (older) page, as it is (opaque; only this key may use it); absent on the last page.',
    ),
});
export type UsageResponse = z.infer<typeof usageResponseSchema>;
