/**
 * The `map_site` tool: the map operation (`POST /api/map`) for models, its text a compact
 * list of the URLs, cut to the output budget with a sentence saying how many were left out.
 */
import { MAP_PRICE_TEXT } from '../../../core/prices.js';
import {
  MAP_DEFAULT_LIMIT,
  MAP_MAX_LIMIT,
  mapRequestSchema,
  mapResponseSchema,
  type MapLink,
  type MapResponse,
} from '../../../core/site-schemas.js';
import type { Operations } from '../../../services/operations.js';
import type { Budgeted } from '../output-budget.js';
import type { ToolDefinition } from '../tool-definition.js';

/** One URL as a list item: its title as the label when known, its score with a search. */
function linkLine(link: MapLink): string {
  const title = link.title?.replace(/[[\]\n]/g, ' ').trim();
  const item = title ? `[${title}](${link.url})` : link.url;
  return `- ${item}${link.score !== undefined ? ` (score ${link.score.toFixed(2)})` : ''}`;
}

/** How many URLs the call asked to see: what the answer held before the output budget cut it. */
function listed(response: MapResponse, args: unknown): number {
  const limit = (args as { limit?: unknown } | null)?.limit;
  return Math.min(response.metadata.total, typeof limit === 'number' ? limit : MAP_DEFAULT_LIMIT);
}

export function renderMapMarkdown(response: MapResponse, args?: unknown): string {
  const m = response.metadata;
  const head = [
    `Map of ${response.url}: ${response.links.length} URL(s) listed of ${m.total} found (sitemaps ${m.sources.sitemap}, feeds ${m.sources.feed}, links ${m.sources.links}); ${m.sitemaps_read} sitemap file(s) read; ${m.robots_disallowed} left out as robots.txt disallows them; ${m.credits_used} credit(s).`,
  ];
  if (m.truncated)
    head.push(
      `More URLs were found than limit lets through: narrow with search, include_paths or exclude_paths, or raise limit (at most ${MAP_MAX_LIMIT}).`,
    );
  const cut = listed(response, args) - response.links.length;
  if (cut > 0)
    head.push(
      `[Output budget: ${cut} more URL(s) did not fit here (the list stops early); narrow with search, include_paths or exclude_paths, or a smaller limit.]`,
    );
  for (const warning of m.warnings ?? []) head.push(`Warning: ${warning}`);
  if (response.links.length === 0)
    head.push('No URL found in scope: try sitemap "skip" or "include", or a wider scope.');
  return [head.join('\n'), response.links.map(linkLine).join('\n')].filter(Boolean).join('\n\n');
}

/** Characters kept aside for what may differ between two renderings (the cut sentence, the credits). */
const RESERVE = 400;

/** The first URLs that fit the budget, structuredContent cut the same way; `cut` stays 0: the text says what was left out. */
export function budgetMap(
  response: MapResponse,
  budget: number,
  render: (r: MapResponse) => string,
): Budgeted<MapResponse> {
  if (render(response).length + RESERVE / 4 <= budget) return { result: response, cut: 0 };
  let left = budget - render({ ...response, links: [] }).length - RESERVE;
  let kept = 0;
  for (const link of response.links) {
    left -= linkLine(link).length + 1;
    if (left < 0) break;
    kept += 1;
  }
  return { result: { ...response, links: response.links.slice(0, kept) }, cut: 0 };
}

export function mapSiteTool(deps: { services: () => Promise<{ operations: Pick<Operations, 'map'> }> }) {
  const tool: ToolDefinition<typeof mapRequestSchema, typeof mapResponseSchema> = {
    name: 'map_site',
    title: 'Map a website',
    description: [
      "List the URLs of one website without reading its pages: from its sitemaps (robots.txt's Sitemap lines, /sitemap.xml, indexes, gzipped files), its RSS/Atom feeds and its links (the start page's, then a shallow walk when that finds few). Each URL comes with source (sitemap, feed or links), lastmod (from the sitemap) and title (anchor text or feed title) when known.",
      'Pass search (a few words) to rank the URLs by relevance (their path, title and anchor text): each then has a score, best first.',
      "Use it before crawl_site or extract_urls to find the right pages of a site (its documentation, a blog's posts, a product's pages) instead of guessing URLs.",
      `Scope: the start URL's origin (include_subdomains for its subdomains), include_paths / exclude_paths path globs such as "/docs/**"; sitemap "skip" ignores sitemaps, "only" uses nothing else. limit: at most ${MAP_MAX_LIMIT} URLs (default ${MAP_DEFAULT_LIMIT}); metadata.truncated says more were found. URLs that robots.txt disallows are never listed (robots_disallowed counts them); a page nothing links to and no sitemap lists cannot be found.`,
      MAP_PRICE_TEXT,
    ].join('\n'),
    inputSchema: mapRequestSchema,
    outputSchema: mapResponseSchema,
    annotations: {
      title: 'Map a website',
      readOnlyHint: true,
      openWorldHint: true,
      idempotentHint: true,
      destructiveHint: false,
    },
    handler: async (args, ctx) => (await deps.services()).operations.map(ctx.request, args),
    renderText: renderMapMarkdown,
    budget: budgetMap,
    logLines: (r) => [
      {
        level: 'info',
        message: `map_site: ${r.links.length} of ${r.metadata.total} URL(s) from ${r.url}, ${r.metadata.credits_used} credit(s)`,
      },
      ...(r.metadata.warnings ?? []).map((w) => ({ level: 'notice' as const, message: `map_site: ${w}` })),
    ],
  };
  return tool;
}
