/**
 * Builds a real SearchService for tests: the real guarded client, robots checker and page
 * extractor, every engine pointed at the fake engine server, a fake wall clock (engine
 * suspensions) and an in-memory cache that counts its traffic.
 */
import type { CacheStore } from '../../src/core/ports/cache-port.js';
import { loadConfig, type Config, type DeepPartial } from '../../src/core/config.js';
import { silentLogger } from '../../src/core/logger.js';
import { searchRequestSchema, type SearchRequest, type SearchResponse } from '../../src/core/schemas.js';
import { GuardedFetcher } from '../../src/net/guarded-fetcher.js';
import { RobotsChecker } from '../../src/net/robots.js';
import type { ExtractedPage } from '../../src/services/pages/extracted-page.js';
import { PageExtractor } from '../../src/services/pages/page-extractor.js';
import { InThreadConverter } from '../../src/workers/in-thread-converter.js';
import { SearchService } from '../../src/services/search/search-service.js';
import { startFakeEngines, type FakeEngines } from './fake-engines.js';

/** A Map with TTLs on the harness clock; counts reads and writes. */
export class TestCache<V> implements CacheStore<V> {
  readonly entries = new Map<string, { value: V; expires: number }>();
  gets = 0;
  sets = 0;
  readonly #now: () => number;
  constructor(now: () => number) {
    this.#now = now;
  }
  async get(key: string): Promise<V | undefined> {
    this.gets++;
    const entry = this.entries.get(key);
    if (!entry || entry.expires <= this.#now()) return undefined;
    return entry.value;
  }
  async set(key: string, value: V, ttlMs: number): Promise<void> {
    this.sets++;
    this.entries.set(key, { value, expires: this.#now() + ttlMs });
  }
}

export interface Clock {
  now(): number;
  advance(ms: number): void;
}

export function fakeClock(start = Date.UTC(2025, 0, 1)): Clock {
  let t = start;
  return { now: () => t, advance: (ms) => void (t += ms) };
}

export interface HarnessOptions {
  search?: DeepPartial<Config['search']>;
  engines?: Partial<Config['engines']>;
  /** Replaces the real page extractor. */
  pages?: Pick<PageExtractor, 'extract'>;
}

export interface SearchHarness {
  fake: FakeEngines;
  config: Config;
  clock: Clock;
  cache: TestCache<SearchResponse>;
  service: SearchService;
  /** Builds a second service on the same config (fresh health, throttle state). */
  newService(): SearchService;
  close(): Promise<void>;
}

export async function startSearchHarness(options: HarnessOptions = {}): Promise<SearchHarness> {
  const fake = await startFakeEngines();
  const config = loadConfig({
    env: {},
    overrides: {
      engines: { ...fake.engineConfig, ...options.engines },
      search: {
        duckduckgoIntervalMs: 0,
        braveRatePerSecond: 1000,
        engineTimeoutMs: 3000,
        contentTimeoutMs: 5000,
        cacheTtlMs: 0,
        ...options.search,
      },
      // Every engine shares one host:port here, so lift the per-host cap.
      fetch: { allowPrivateAddresses: true, perHostConcurrency: 64, timeoutMs: 5000 },
      cache: { ttlMs: 0 },
      log: { level: 'silent' },
    },
  });
  const clock = fakeClock();
  const cache = new TestCache<SearchResponse>(clock.now);
  const client = new GuardedFetcher(config.fetch);
  const robots = new RobotsChecker(client, config.robots, config.fetch.productToken);
  const pages =
    options.pages ??
    new PageExtractor({
      config,
      client,
      robots,
      cache: new TestCache<ExtractedPage>(clock.now),
      converter: new InThreadConverter(),
      logger: silentLogger,
    });
  const newService = (): SearchService => new SearchService({ config, client, pages, cache, now: clock.now });
  return {
    fake,
    config,
    clock,
    cache,
    service: newService(),
    newService,
    close: async () => {
      await client.close();
      await fake.close();
    },
  };
}

/** A validated request, defaults applied, exactly as the faces hand it to the service. */
export function searchRequest(q: string, extra: Record<string, unknown> = {}): SearchRequest {
  return searchRequestSchema.parse({ q, ...extra });
}
