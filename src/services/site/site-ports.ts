/**
 * What exploring a site needs from outside: robots.txt (allow and disallow, and its other
 * records: sitemaps, Crawl-delay), the HTTP client, the page journey for the crawl's pages,
 * and the job store.
 */
import type { Config } from '../../core/config.js';
import type { Logger } from '../../core/logger.js';
import type { SiteJobStore } from '../../core/ports/site-job-store.js';
import type { RequestDeadline } from '../../core/request-context.js';
import type { WordVectors } from '../../extract/passages/word-vectors.js';
import type { HttpClient } from '../../net/fetch-types.js';
import type { RobotsDirectives } from '../../net/robots.js';
import type { PageExtractor } from '../pages/page-extractor.js';
import type { RobotsPolicy } from '../pages/page-ports.js';

export interface SiteRobots extends RobotsPolicy {
  directives(url: URL, ctx: RequestDeadline): Promise<RobotsDirectives>;
}

export interface SiteDiscoveryDeps {
  config: Config;
  client: HttpClient;
  robots: SiteRobots;
  /** The operator's word vectors (WEBSEARCH_WORD_VECTORS): links are ranked by meaning too (rank-links.ts). */
  wordVectors?: WordVectors;
}

export interface SiteCrawlDeps extends SiteDiscoveryDeps {
  pages: Pick<PageExtractor, 'run'>;
  jobs: SiteJobStore;
  logger: Logger;
}
