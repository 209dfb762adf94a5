/**
 * The map operation (`POST /api/map`, `map_site`, `websearch-mcp map`, the library's `map`):
 * a site's URLs in one call from its sitemaps, feeds and links (site-discovery.ts), ranked by
 * `search` when given (extract/passages/rank-links.ts), cut at `limit`. Priced by
 * core/pricing.ts (one credit a call).
 */
import { mapCredits } from '../../core/pricing.js';
import type { RequestContext } from '../../core/request-context.js';
import type { MapLink, MapRequest, MapResponse } from '../../core/site-schemas.js';
import { rankLinks } from '../../extract/passages/rank-links.js';
import { elapsedSeconds } from '../pages/extract-service.js';
import { discoverSite, type FoundUrl } from './site-discovery.js';
import type { SiteDiscoveryDeps } from './site-ports.js';
import { SiteScope } from './site-scope.js';

/** URLs collected at most before ranking and the limit (a bound on memory and time). */
const MAX_COLLECTED = 100_000;
/** The map's link walk goes this many hops from the start page. */
const WALK_DEPTH = 2;

export class MapService {
  readonly #deps: SiteDiscoveryDeps;

  constructor(deps: SiteDiscoveryDeps) {
    this.#deps = deps;
  }

  async map(ctx: RequestContext, request: MapRequest): Promise<MapResponse> {
    const startedAt = performance.now();
    const timestamp = new Date().toISOString();
    const scope = new SiteScope(request.url, request);
    const discovery = await discoverSite(this.#deps, ctx, scope, {
      sitemap: request.sitemap,
      // With a search every URL competes; without, the first `limit` in order are the answer.
      maxUrls: request.search !== undefined ? MAX_COLLECTED : Math.min(MAX_COLLECTED, request.limit + 1),
      walkUntil: request.limit,
      walkDepth: WALK_DEPTH,
    });
    let links = discovery.urls.map(toLink);
    if (request.search !== undefined) {
      const scores = rankLinks(
        request.search,
        discovery.urls.map((u) => ({ url: u.url, ...(u.title !== undefined ? { title: u.title } : {}) })),
        this.#deps.wordVectors,
      );
      links = links
        .map((link, i) => ({ link: { ...link, score: scores[i]! }, i }))
        .sort((a, b) => b.link.score - a.link.score || a.i - b.i)
        .map((x) => x.link);
    }
    const sources = { sitemap: 0, feed: 0, links: 0 };
    for (const u of discovery.urls) sources[u.source] += 1;
    return {
      url: scope.start.href,
      links: links.slice(0, request.limit),
      metadata: {
        total: discovery.urls.length,
        truncated: discovery.urls.length > request.limit,
        robots_disallowed: discovery.robotsDisallowed,
        sources,
        sitemaps_read: discovery.sitemapsRead,
        ...(discovery.warnings.length > 0 ? { warnings: discovery.warnings } : {}),
        credits_used: mapCredits(),
        response_time: elapsedSeconds(startedAt),
        timestamp,
      },
    };
  }
}

function toLink(found: FoundUrl): MapLink {
  return {
    url: found.url,
    source: found.source,
    ...(found.lastmod !== undefined ? { lastmod: found.lastmod } : {}),
    ...(found.title !== undefined ? { title: found.title } : {}),
  };
}
