/**
 * The composition root: builds the one in-process core from a validated config. Only
 * this file picks concrete adapters.
 */
import type { Config } from './core/config.js';
import type { Logger } from './core/logger.js';
import { GuardedFetcher } from './net/guarded-fetcher.js';
import { RobotsChecker } from './net/robots.js';
import type { SearchResponse } from './core/schemas.js';
import { CrawlService } from './services/crawl-service.js';
import { SearchService } from './services/search-service.js';
import type { ExtractedPage } from './services/page-extractor.js';
import { PageExtractor } from './services/page-extractor.js';
import { MemoryCache } from './store/memory-cache.js';

export interface Core {
  config: Config;
  logger: Logger;
  crawl: CrawlService;
  search: SearchService;
  pages: PageExtractor;
  close(): Promise<void>;
}

export async function buildCore(config: Config, logger: Logger): Promise<Core> {
  const client = new GuardedFetcher(config.fetch);
  const robots = new RobotsChecker(client, config.robots, config.fetch.productToken);
  const cache = new MemoryCache<ExtractedPage>(config.cache.maxEntries);
  const pages = new PageExtractor({ config, client, robots, cache, logger });
  const crawl = new CrawlService(pages);
  const searchCache = new MemoryCache<SearchResponse>(config.cache.maxEntries);
  // Throws one ConfigError listing every engine-setting problem (unknown engine, missing key).
  const search = new SearchService({ config, client, pages, cache: searchCache, logger });
  return {
    config,
    logger,
    crawl,
    search,
    pages,
    close: async () => {
      await client.close();
      await cache.close();
      await searchCache.close();
    },
  };
}
