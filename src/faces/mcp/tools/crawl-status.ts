/**
 * The `crawl_status` tool: a site crawl's state and its pages after a cursor (`GET
 * /api/site-crawls/{id}`) for models, waiting for new pages with wait_ms.
 */
import { z } from 'zod';
import { siteCrawlStatusQuerySchema, siteCrawlStatusSchema, type SiteCrawlStatus } from '../../../core/site-schemas.js';
import { validate } from '../../../core/validate.js';
import type { Operations } from '../../../services/operations.js';
import { budgetSiteCrawl } from '../budget-site-crawl.js';
import type { ToolDefinition, ToolLogLine } from '../tool-definition.js';
import { renderSiteCrawlMarkdown } from './render-site-crawl-markdown.js';

const inputSchema = z
  .object({
    id: z.string().trim().min(1, 'give the id crawl_site answered').describe('The job id crawl_site answered.'),
    ...siteCrawlStatusQuerySchema.shape,
  })
  .strict();

/** What the client's log says of a crawl's answer (crawl_site's too). */
export function siteCrawlLogLines(tool: string, r: SiteCrawlStatus): ToolLogLine[] {
  const p = r.progress;
  return [
    {
      level: 'info',
      message: `${tool}: job ${r.id} ${r.status}${r.stop_reason ? ` (${r.stop_reason})` : ''}, ${p.pages} page(s) delivered, ${p.queued} queued, ${p.credits_used} credit(s)`,
    },
    ...(r.error !== undefined
      ? [{ level: 'warning' as const, message: `${tool}: job ${r.id}: ${r.error.code}: ${r.error.message}` }]
      : []),
    ...r.pages
      .filter((x) => !x.success)
      .map((x) => ({ level: 'notice' as const, message: `${tool}: ${x.url}: ${x.error_type}: ${x.error}` })),
  ];
}

export function crawlStatusTool(deps: {
  services: () => Promise<{ operations: Pick<Operations, 'siteCrawlStatus'> }>;
}) {
  const tool: ToolDefinition<typeof inputSchema, typeof siteCrawlStatusSchema> = {
    name: 'crawl_status',
    title: "Read a website crawl's pages",
    description: [
      'Read on in a crawl that crawl_site started: its status and progress, and its pages after cursor (the next_cursor of the previous answer; none for the first pages), in the order they completed, at most limit per answer.',
      'wait_ms (at most 60000): while the crawl runs and no page follows the cursor yet, wait up to this long for one. Keep calling with each answer\'s next_cursor while status is "running" or next_cursor is present; every page is delivered once.',
      'Finished crawls and their pages are kept for a while (expires_at), then deleted. No charge: pages are charged as the crawl delivers them.',
    ].join('\n'),
    inputSchema,
    outputSchema: siteCrawlStatusSchema,
    annotations: {
      title: "Read a website crawl's pages",
      readOnlyHint: true,
      // Its pages are the web's content, as extract_urls' are.
      openWorldHint: true,
      idempotentHint: true,
      destructiveHint: false,
    },
    handler: async (args, ctx) => {
      const { id, ...query } = validate(inputSchema, args);
      return (await deps.services()).operations.siteCrawlStatus(ctx.request, id, query, {
        onProgress: ({ progress: p }) => {
          // The job's limit is not in its status: the total is what the crawl knows of so far.
          const known = p.pages + p.queued + p.in_flight;
          ctx.progress(p.pages, known, `${p.pages} pages, ${p.queued} queued`);
        },
      });
    },
    renderText: renderSiteCrawlMarkdown,
    budget: budgetSiteCrawl,
    logLines: (r) => siteCrawlLogLines('crawl_status', r),
  };
  return tool;
}
