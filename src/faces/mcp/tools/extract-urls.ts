/**
 * The `extract_urls` tool: the extraction operation (`POST /api/crawl`) for models.
 */
import type { Config } from '../../../core/config.js';
import { EXTRACT_PRICE_TEXT } from '../../../core/prices.js';
import { extractRequestSchema, extractResponseSchema } from '../../../core/schemas.js';
import type { Operations } from '../../../services/operations.js';
import { budgetExtract } from '../output-budget.js';
import type { ToolDefinition } from '../tool-definition.js';
import { renderExtractMarkdown } from './render-extract-markdown.js';

export function extractUrlsTool(deps: {
  config: Config;
  services: () => Promise<{ operations: Pick<Operations, 'extract'> }>;
}) {
  const maxUrls = deps.config.crawl.maxUrls;
  const inputSchema = extractRequestSchema({ maxUrls, maxTimeoutMs: deps.config.fetch.maxTimeoutMs });
  const tool: ToolDefinition<typeof inputSchema, typeof extractResponseSchema> = {
    name: 'extract_urls',
    title: 'Extract web pages',
    description: [
      `Fetch 1 to ${maxUrls} web pages and return their main content as clean Markdown (navigation, ads and boilerplate removed), or with format "html" the page's full HTML.`,
      'Use it to read pages you already have URLs for (from web_search results or the user). Supports HTML, plain text, Markdown, CSV (as a table), JSON, and XML including RSS/Atom feeds and sitemaps.',
      "Each URL succeeds or fails on its own: a failed URL has success=false and an error_type: invalid_url, forbidden_address (private network), unsupported_content_type (PDF, images, archives, office files and other binaries — refused, never charged), too_large (over 10 MB), robots_disallowed (the site's robots.txt forbids it), http (error status from the site), blocked (anti-bot challenge), empty_content (no readable text, even after rendering), render_failed (the headless browser crashed or hung; retry), render_unavailable (wait_for_selector or screenshot on a server without a browser), timeout, network, busy (the server could not convert it now: retry later).",
      'Pages that need scripts are rendered in a headless browser when the server has one; each successful result says rendered=true|false.',
      "Page controls: include_links lists the links (in_content marks those in the content); include_comments adds the readers' comments under \"## Comments\" (left out by default); include_structured_data returns the page's JSON-LD, microdata, RDFa and OpenGraph as schema.org items in structured_data; include_selectors / exclude_selectors (CSS) pick or drop parts of the page; wait_for_selector (CSS) renders and waits for it; screenshot returns a PNG image; max_age (seconds) refetches older cached copies (0: always). Results say from_cache and cached_at. wait_for_selector and screenshot need the server's browser: render_unavailable otherwise.",
      'Looking for something specific? Prefer passing query (a question or topic): each page then returns only its few passages that answer it (max_passages, default 3, about 1,500 characters in all: max_passage_chars) with start_char/end_char, instead of the whole page; read on with start_char=end_char.',
      'Long pages: pass max_chars to get a slice; the result then carries total_chars and next_start_char; call again with start_char=next_start_char for the rest.',
      EXTRACT_PRICE_TEXT,
    ].join('\n'),
    inputSchema,
    outputSchema: extractResponseSchema,
    annotations: {
      title: 'Extract web pages',
      readOnlyHint: true,
      openWorldHint: true,
      idempotentHint: true,
      destructiveHint: false,
    },
    handler: async (args, ctx) =>
      (await deps.services()).operations.extract(ctx.request, args, {
        onProgress: (p) => ctx.progress(p.done, p.total, `${p.done} of ${p.total}: ${p.url}`),
      }),
    renderText: renderExtractMarkdown,
    // Each screenshot as MCP image content beside the text (structuredContent keeps the base64 too).
    images: (r) =>
      r.results.flatMap((x) => (x.screenshot !== undefined ? [{ data: x.screenshot, mimeType: 'image/png' }] : [])),
    budget: budgetExtract,
    logLines: (r) => [
      {
        level: 'info',
        message: `extract_urls: ${r.metadata.successful_crawls} of ${r.metadata.total_urls} URL(s) extracted, ${r.metadata.credits_used} credit(s)`,
      },
      ...r.results
        .filter((x) => !x.success)
        .map((x) => ({ level: 'notice' as const, message: `extract_urls: ${x.url}: ${x.error_type}: ${x.error}` })),
    ],
  };
  return tool;
}
