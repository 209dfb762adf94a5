/**
 * The composition root: builds the one in-process core from a validated config. Only
 * this file picks concrete adapters.
 */
import type { Config } from './core/config.js';
import type { ConverterPort } from './core/ports/converter-port.js';
import type { CrawlQueue } from './core/ports/crawl-queue.js';
import { ConfigError } from './core/config.js';
import type { Logger } from './core/logger.js';
import type { SearchResponse } from './core/schemas.js';
import type { Store } from './core/ports/store-port.js';
import type { BrowserStatus, Renderer } from './core/ports/render-port.js';
import { addressPolicyFor } from './net/address-policy.js';
import { GuardedFetcher } from './net/guarded-fetcher.js';
import { browserStatus } from './render/browser-status.js';
import type { StoredRobots } from './net/robots.js';
import { RobotsChecker } from './net/robots.js';
import { ApiKeys } from './services/accounts/api-keys.js';
import { ExtractService } from './services/pages/extract-service.js';
import { Metering } from './services/accounts/metering.js';
import type { Metrics } from './services/metrics.js';
import { Operations } from './services/operations.js';
import type { ExtractedPage } from './services/pages/extracted-page.js';
import { PageExtractor } from './services/pages/page-extractor.js';
import { SearchService } from './services/search/search-service.js';
import { PageHolds } from './services/accounts/page-holds.js';
import { MapService } from './services/site/map-service.js';
import { SiteCrawlService } from './services/site/site-crawl-service.js';
import { LocalCrawlQueue } from './store/local-crawl-queue.js';
import { SqliteStore } from './store/sqlite-store.js';
import type { ConvertInput, ConvertOutput, Passage, PassagesInput } from './extract/index.js';
import type { WordVectors } from './extract/passages/word-vectors.js';
import { loadWordVectors } from './load-word-vectors.js';
import { ConvertPool } from './workers/convert-pool.js';
import { InThreadConverter } from './workers/in-thread-converter.js';

const MiB = 1024 * 1024;

export interface Core {
  config: Config;
  logger: Logger;
  store: Store;
  keys: ApiKeys;
  /** Credits: a server calls `releaseOwnHolds` as it starts (the holds its earlier life left). */
  metering: Metering;
  metrics?: Metrics;
  /** The two operations, validated and metered for a caller: what every face calls (HTTP, MCP, the CLI, the library). */
  operations: Operations;
  extract: ExtractService;
  search: SearchService;
  pages: PageExtractor;
  /** Site crawl jobs: servers call `resume()` once they listen (their own jobs from an earlier life, orphans of dead instances). */
  siteCrawls: SiteCrawlService;
  /** The browser's part of /healthz, when there is a renderer (answers within `timeoutMs`). */
  browserStatus?: (timeoutMs: number) => Promise<BrowserStatus>;
  /** Where pages are converted: the worker pool, or the calling thread. */
  converter: ConverterPort<ConvertInput, ConvertOutput, PassagesInput, Passage[]>;
  /** The operator's word vectors (WEBSEARCH_WORD_VECTORS), loaded at start; absent: words and WordNet only. */
  wordVectors?: WordVectors;
  close(): Promise<void>;
}

export interface CoreOptions {
  /** The server's Prometheus metrics; the services report to it as they work. */
  metrics?: Metrics;
  /**
   * `pool` (default): conversions on worker threads, under the URL's deadline and the
   * memory bound; `in-thread`: on the calling thread (unit tests, one-shot CLI runs).
   */
  converter?: 'pool' | 'in-thread';
  /** How the pool is sized (convert-pool.ts): `footprint` for the stdio server, `throughput` (default) for `serve`. */
  poolSizing?: 'throughput' | 'footprint';
}

/** Opens the configured store: the SQLite file (default) or a Redis server shared by instances. */
export async function openStore(config: Config): Promise<Store> {
  try {
    if (config.store.kind === 'redis') {
      // Loaded only for a Redis store: its client costs ~20 MB of memory a SQLite user never needs.
      const { RedisStore } = await import('./store/redis-store.js');
      return await RedisStore.connect({
        url: config.store.redisUrl as string,
        prefix: config.store.redisPrefix,
        commandTimeoutMs: config.store.timeoutMs,
      });
    }
    return SqliteStore.open(config.store.path, { timeoutMs: config.store.timeoutMs });
  } catch (err) {
    // A store that cannot be opened is a setting to fix: one clear line, exit 2.
    throw new ConfigError([
      `${config.store.kind === 'redis' ? 'REDIS_URL' : 'WEBSEARCH_STORE_PATH'}: ${(err as Error).message}`,
    ]);
  }
}

/**
 * Who works on a site crawl's pages (core/ports/crawl-queue.ts): with Redis, a BullMQ queue
 * every instance works on; else the job store's own frontier, in this process.
 */
export async function openCrawlQueue(config: Config, store: Store): Promise<CrawlQueue> {
  if (config.store.kind !== 'redis') return new LocalCrawlQueue(store.siteJobs);
  // Loaded only for a Redis store, as its client.
  const { RedisCrawlQueue } = await import('./store/redis/redis-crawl-queue.js');
  return new RedisCrawlQueue({ url: config.store.redisUrl as string, prefix: config.store.redisPrefix });
}

export async function buildCore(config: Config, logger: Logger, options: CoreOptions = {}): Promise<Core> {
  // Before the store: a bad file stops the start with nothing to close.
  const vectors = await loadWordVectors(config, logger);
  const store = await openStore(config);
  try {
    return assemble(config, logger, store, await openCrawlQueue(config, store), {
      ...options,
      ...(vectors ? { vectors } : {}),
    });
  } catch (err) {
    await store.close();
    throw err;
  }
}

function assemble(
  config: Config,
  logger: Logger,
  store: Store,
  queue: CrawlQueue,
  options: CoreOptions & { vectors?: WordVectors },
): Core {
  const client = new GuardedFetcher(config.fetch);
  const { metrics, vectors } = options;
  const ranking = vectors ? { wordVectors: vectors } : {};
  const robots = new RobotsChecker(client, config.robots, config.fetch.productToken, {
    shared: store.cache<StoredRobots>('robots'),
    ...(metrics ? { onLookup: (cached: boolean) => metrics.cacheLookup('robots', cached) } : {}),
  });
  const observer = metrics ? { observer: metrics } : {};
  const renderer = buildRenderer(config, logger, client);
  // The remote browser's sessions, read when scraped.
  if (metrics && renderer?.sessions && config.render.browserEndpoint !== undefined)
    metrics.setRemoteBrowserGauge(renderer.sessions);
  const converter =
    options.converter === 'in-thread'
      ? new InThreadConverter(vectors)
      : new ConvertPool({
          ...config.convert,
          ...(options.poolSizing ? { sizing: options.poolSizing } : {}),
          ...(vectors ? { vectors } : {}),
        });
  const pages = new PageExtractor({
    config,
    client,
    robots,
    cache: store.cache<ExtractedPage>('page'),
    converter,
    logger,
    ...observer,
    ...(renderer ? { renderer } : {}),
  });
  const extract = new ExtractService(pages);
  // Throws one ConfigError listing every engine-setting problem (unknown engine, missing key).
  const search = new SearchService({
    config,
    client,
    pages,
    cache: store.cache<SearchResponse>('search'),
    suspensions: store,
    ...observer,
  });
  const metering = new Metering({ ledger: store, rateWindows: store, config, ...observer });
  const map = new MapService({ config, client, robots, ...ranking });
  const siteCrawls = new SiteCrawlService({
    config,
    client,
    robots,
    pages,
    jobs: store.siteJobs,
    logger: logger.child({ component: 'site-crawl' }),
    metering,
    holds: new PageHolds({ ledger: store, ...observer }),
    queue,
    hostGate: store.hostGate,
    ...observer,
    ...ranking,
  });
  return {
    config,
    logger,
    store,
    ...(options.metrics ? { metrics: options.metrics } : {}),
    ...(renderer?.status ? { browserStatus: renderer.status } : {}),
    keys: new ApiKeys(store),
    metering,
    operations: new Operations({ config, metering, extract, search, map, siteCrawls }),
    extract,
    search,
    pages,
    siteCrawls,
    converter,
    ...ranking,
    close: async () => {
      // Runs stop first (their jobs stay running in the store: the next start resumes them).
      await siteCrawls.close();
      await queue.close();
      await renderer?.close();
      await converter.close();
      await client.close();
      await store.close();
    },
  };
}

/**
 * The headless browser, when there is one (a local Chromium, or a remote one at
 * WEBSEARCH_BROWSER_ENDPOINT, whose pages' requests `client` fetches) and rendering is on.
 * Nothing starts here: the browser launches, or is connected to, on the first page that needs it.
 */
function buildRenderer(config: Config, logger: Logger, client: GuardedFetcher): Renderer | undefined {
  const { mode, chromiumPath, pages, browserEndpoint, browserEndpointKind } = config.render;
  const remote = browserEndpoint === undefined ? undefined : { endpoint: browserEndpoint, kind: browserEndpointKind };
  if (mode === 'never' || (chromiumPath === undefined && remote === undefined)) return undefined;
  return lazyRenderer(remote, async () => {
    const { ChromiumRenderer } = await import('./render/chromium-renderer.js');
    return new ChromiumRenderer({
      ...(remote ? { remote: { ...remote, client } } : { executablePath: chromiumPath }),
      pages,
      policy: addressPolicyFor(config.fetch.allowPrivateAddresses),
      connectTimeoutMs: config.fetch.connectTimeoutMs,
      userAgent: config.fetch.userAgent,
      memory: {
        heapBytes: config.render.heapMb * MiB,
        pageBytes: config.render.pageMemoryMb * MiB,
        totalBytes: config.render.memoryMb * MiB,
      },
      screenshot: { maxHeight: config.render.screenshotMaxHeight, maxBytes: config.render.screenshotMaxBytes },
      logger: logger.child({ component: 'render' }),
      ...(config.fetch.stealthProxy ? { stealthProxy: config.fetch.stealthProxy } : {}),
    });
  });
}

/**
 * A renderer that loads the browser driver (playwright-core, ~90 MB of memory once
 * imported) on the first page that needs it: most pages never do, and the stdio server a
 * desktop client keeps all day should not carry it (BENCHMARKS.md, "Memory of each face").
 */
function lazyRenderer(remote: Parameters<typeof browserStatus>[0], load: () => Promise<Renderer>): Renderer {
  let loaded: Promise<Renderer> | undefined;
  let ready: Renderer | undefined;
  return {
    async render(request, ctx) {
      loaded ??= load().then((r) => (ready = r));
      return (await loaded).render(request, ctx);
    },
    browserMajor: () => ready?.browserMajor?.(),
    // Before it is loaded: nothing open, and a remote endpoint probed without playwright-core.
    status: (timeoutMs) => ready?.status?.(timeoutMs) ?? browserStatus(remote, undefined, timeoutMs),
    sessions: () => ready?.sessions?.() ?? { contexts: 0, pages: 0 },
    async close() {
      if (loaded) await (await loaded.catch(() => undefined))?.close();
    },
  };
}
