/**
 * The `web_search` tool: the search operation (`POST /api/search`) for models.
 */
import type { Config } from '../../../core/config.js';
import { SEARCH_PRICE_TEXT } from '../../../core/prices.js';
import { searchRequestSchema, searchResponseSchema } from '../../../core/schemas.js';
import { resolveEngineSettings } from '../../../services/search/engine-settings.js';
import type { Operations } from '../../../services/operations.js';
import { budgetSearch } from '../output-budget.js';
import type { ToolDefinition } from '../tool-definition.js';
import { renderSearchMarkdown } from './render-search-markdown.js';

export function webSearchTool(deps: {
  config: Config;
  engines: readonly string[];
  services: () => Promise<{ operations: Pick<Operations, 'search'> }>;
}) {
  const configured = deps.engines.join(', ');
  // WEBSEARCH_ENGINES narrows the set a search without `engines` runs: the agent is told which.
  const defaults = resolveEngineSettings(deps.config).defaults.join(', ');
  const byDefault = defaults === configured ? '' : ` (a search without engines uses ${defaults})`;
  const tool: ToolDefinition<typeof searchRequestSchema, typeof searchResponseSchema> = {
    name: 'web_search',
    title: 'Search the web',
    description: [
      'Search the web and get a ranked list of results (title, url, snippet), fused from several search engines.',
      'Use it to find pages about a topic or to answer questions that need current information; then read promising results with extract_urls, or set include_content=true to get the Markdown of the top results (content_results, default 5) in the same call.',
      'Prefer content_mode="passages" with include_content: each page then carries only the passages that answer q (max_passages each, default 3, about 1,500 characters in all: max_passage_chars) instead of its whole Markdown; read more with extract_urls start_char.',
      "With include_content, include_comments adds each page's readers' comments to its content under \"## Comments\" (left out by default), and include_structured_data returns each page's JSON-LD, microdata, RDFa and OpenGraph as schema.org items in structured_data (as extract_urls does).",
      `Engines configured here: ${configured}${byDefault}. Narrow with include_domains / exclude_domains, time_range (day/week/month/year), country, language, safesearch.`,
      'With include_content, each of the top results carries either content (Markdown) or content_error (blocked, robots_disallowed, http_error, timeout, network_error, unsupported_content_type, too_large, forbidden_address, empty_content, busy). PDFs and other binaries are listed but cannot be read.',
      'metadata.status is success, partial (an engine failed; results are still usable) or no_results. Errors: invalid_request (bad parameter), engines_unavailable (every engine failed; try later), and on a metered server insufficient_credits or rate_limited.',
      SEARCH_PRICE_TEXT,
    ].join('\n'),
    inputSchema: searchRequestSchema,
    outputSchema: searchResponseSchema,
    annotations: {
      title: 'Search the web',
      readOnlyHint: true,
      openWorldHint: true,
      idempotentHint: true,
      destructiveHint: false,
    },
    handler: async (args, ctx) =>
      (await deps.services()).operations.search(ctx.request, args, {
        onProgress: (p) => ctx.progress(p.done, p.total, `${p.done} of ${p.total}: ${p.url}`),
      }),
    renderText: renderSearchMarkdown,
    budget: budgetSearch,
    logLines: (r) => [
      {
        level: 'info',
        message: `web_search: ${r.metadata.number_of_results} result(s), status ${r.metadata.status}, ${r.metadata.credits_used} credit(s)`,
      },
      ...(r.metadata.failed_engines ?? []).map((f) => ({
        level: 'warning' as const,
        message: `web_search: engine ${f.engine} failed: ${f.error}: ${f.message}`,
      })),
      ...r.results
        .filter((x) => x.content_error !== undefined)
        .map((x) => ({ level: 'notice' as const, message: `web_search: no content for ${x.url}: ${x.content_error}` })),
    ],
  };
  return tool;
}
