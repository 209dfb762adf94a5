/**
 * The search cache (what is cached, for how long, under which key, what a hit looks like)
 * and the politeness queues seen from the engine side (request start times).
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { EngineId } from '../../src/engines/types.js';
import { searchCacheKey } from '../../src/services/search/search-service.js';
import { startFixtureSite, type FixtureSite } from '../helpers/fixture-site.js';
import {
  startSearchHarness,
  searchRequest,
  type HarnessOptions,
  type SearchHarness,
} from '../helpers/search-harness.js';
import { testContext } from '../helpers/request-context.js';

let h: SearchHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});
async function harness(options: HarnessOptions = {}): Promise<SearchHarness> {
  h = await startSearchHarness(options);
  return h;
}

describe('search cache', () => {
  const TTL = 60_000;

  it('serves a repeated search from cache: fresh id and times, 0 credits, engines not asked again', async () => {
    const { service, fake, cache, clock } = await harness({ search: { cacheTtlMs: TTL } });
    const request = searchRequest('Rust  borrow checker', { engines: ['duckduckgo', 'brave'] });
    const first = await service.search(testContext(), request);
    expect(first.metadata).toMatchObject({ status: 'success', from_cache: false, credits_used: 1 });
    expect(cache.sets).toBe(1);

    clock.advance(1_000);
    const again = await service.search(
      testContext(),
      searchRequest(' rust borrow   CHECKER ', { engines: ['brave', 'duckduckgo'] }),
    );
    expect(fake.hits('duckduckgo')).toBe(1);
    expect(fake.hits('brave')).toBe(1);
    expect(again.id).not.toBe(first.id);
    expect(again.id).toMatch(/^srch_/);
    expect(again.query).toBe('rust borrow   CHECKER'); // the query as asked (trimmed by the schema)
    expect(again.metadata).toMatchObject({ from_cache: true, credits_used: 0, status: 'success' });
    expect(again.metadata.timestamp).toBe(new Date(clock.now()).toISOString());
    expect(again.metadata.response_time).toBeLessThan(0.05);
    expect(again.results).toEqual(first.results);
    expect(Object.keys(again.metadata)).toEqual(Object.keys(first.metadata));
    // The stored entry is not shared with the answers.
    again.results[0]!.title = 'changed';
    const third = await service.search(testContext(), request);
    expect(third.results[0]!.title).toBe(first.results[0]!.title);
    expect(first.metadata.from_cache).toBe(false);

    clock.advance(TTL);
    await service.search(testContext(), request);
    expect(fake.hits('duckduckgo')).toBe(2); // expired
  });

  it('caches page content with the answer', async () => {
    const site: FixtureSite = await startFixtureSite();
    try {
      const { service, fake } = await harness({ search: { cacheTtlMs: TTL } });
      fake.setScenario('searxng', {
        body: { results: [{ url: `${site.origin}/html?cached`, title: 't', content: 's' }] },
      });
      const request = searchRequest('q', { engines: ['searxng'], include_content: true });
      const first = await service.search(testContext(), request);
      expect(first.metadata).toMatchObject({ content_delivered: 1, credits_used: 2 });
      const hit = await service.search(testContext(), request);
      expect(hit.results[0]!.content).toBe(first.results[0]!.content);
      expect(hit.metadata).toMatchObject({
        from_cache: true,
        credits_used: 0,
        content_requested: 1,
        content_delivered: 1,
      });
      expect(site.hits('/html?cached')).toBe(1);
    } finally {
      await site.close();
    }
  });

  it('does not cache partial or empty answers', async () => {
    const { service, fake, cache } = await harness({ search: { cacheTtlMs: TTL } });
    fake.setScenario('mojeek', 'server_error');
    const partial = searchRequest('q', { engines: ['wikipedia', 'mojeek'] });
    expect((await service.search(testContext(), partial)).metadata.status).toBe('partial');
    await service.search(testContext(), partial);
    expect(fake.hits('wikipedia')).toBe(2);

    fake.setScenario('wikipedia', 'no_results');
    const empty = searchRequest('q', { engines: ['wikipedia'] });
    expect((await service.search(testContext(), empty)).metadata.status).toBe('no_results');
    await service.search(testContext(), empty);
    expect(fake.hits('wikipedia')).toBe(4);
    expect(cache.sets).toBe(0);
  });

  it('is off with a TTL of 0', async () => {
    const { service, fake, cache } = await harness({ search: { cacheTtlMs: 0 } });
    const request = searchRequest('q', { engines: ['wikipedia'] });
    await service.search(testContext(), request);
    await service.search(testContext(), request);
    expect(fake.hits('wikipedia')).toBe(2);
    expect(cache.gets + cache.sets).toBe(0);
  });

  it('survives a failing cache store', async () => {
    const { service, cache } = await harness({ search: { cacheTtlMs: TTL } });
    cache.get = async () => Promise.reject(new Error('redis down'));
    cache.set = async () => Promise.reject(new Error('redis down'));
    expect((await service.search(testContext(), searchRequest('q', { engines: ['wikipedia'] }))).metadata.status).toBe(
      'success',
    );
  });
});

describe('searchCacheKey', () => {
  const engines: EngineId[] = ['duckduckgo', 'wikipedia'];
  const base = searchRequest('canoe trips', { include_content: true });
  const key = searchCacheKey(base, engines);

  it('is a sha256 hex digest, equal for equivalent requests', () => {
    expect(key).toMatch(/^search:[0-9a-f]{64}$/);
    expect(
      searchCacheKey(searchRequest('  Canoe   TRIPS', { include_content: true }), ['wikipedia', 'duckduckgo']),
    ).toBe(key);
    const domains = (inc: string[], exc: string[]) =>
      searchCacheKey(searchRequest('q', { include_domains: inc, exclude_domains: exc }), engines);
    expect(domains(['b.org', 'a.com'], ['x.net'])).toBe(domains(['a.com', 'B.org'], ['x.net']));
    // content_results changes nothing without include_content.
    expect(searchCacheKey(searchRequest('q', { content_results: 3 }), engines)).toBe(
      searchCacheKey(searchRequest('q'), engines),
    );
  });

  it.each([
    ['q', { q: 'canoe trip' }],
    ['engines', 'engines'],
    ['max_results', { max_results: 5 }],
    ['country', { country: 'de' }],
    ['language', { language: 'de' }],
    ['safesearch', { safesearch: 'strict' }],
    ['time_range', { time_range: 'week' }],
    ['include_domains', { include_domains: ['a.com'] }],
    ['exclude_domains', { exclude_domains: ['a.com'] }],
    ['include_content', { include_content: false }],
    ['content_results', { content_results: 10 }],
  ] as const)('differs by %s', (_name, change) => {
    const changed =
      change === 'engines'
        ? searchCacheKey(base, ['duckduckgo'])
        : searchCacheKey(searchRequest('canoe trips', { include_content: true, ...change }), engines);
    expect(changed).not.toBe(key);
  });
});

describe('politeness', () => {
  // The lanes space request starts exactly (unit tests with a clock in search-settings);
  // here the fake engine sees arrivals, which a loaded machine delays by a few ms each.
  const ARRIVAL_JITTER_MS = 25;
  // One search first, so the measured ones run warm code paths and a warm connection.
  const warmUp = async (service: Awaited<ReturnType<typeof harness>>['service'], engine: 'brave' | 'duckduckgo') => {
    await service.search(testContext(), searchRequest('warm up', { engines: [engine] }));
  };

  it('DuckDuckGo: concurrent searches start their requests at least the interval apart', async () => {
    const { service, fake } = await harness({ search: { duckduckgoIntervalMs: 400 } });
    const request = searchRequest('q', { engines: ['duckduckgo'] });
    await warmUp(service, 'duckduckgo');
    await Promise.all([service.search(testContext(), request), service.search(testContext(), request)]);
    const [a, b] = fake.requests('duckduckgo').slice(1);
    expect(b!.at - a!.at).toBeGreaterThanOrEqual(400 - ARRIVAL_JITTER_MS);
  });

  it('DuckDuckGo: one request at a time', async () => {
    const { service, fake } = await harness({ search: { duckduckgoIntervalMs: 0 } });
    fake.setScenario('duckduckgo', 'slow:300');
    const request = searchRequest('q', { engines: ['duckduckgo'] });
    await Promise.all([service.search(testContext(), request), service.search(testContext(), request)]);
    const [a, b] = fake.requests('duckduckgo');
    expect(b!.at - a!.at).toBeGreaterThanOrEqual(290);
  });

  it('a call queued longer than its budget gives up in the queue', async () => {
    const { service, fake } = await harness({ search: { duckduckgoIntervalMs: 2_000, engineTimeoutMs: 300 } });
    const request = searchRequest('q', { engines: ['duckduckgo', 'wikipedia'] });
    const [first, second] = await Promise.all([
      service.search(testContext(), request),
      service.search(testContext(), request),
    ]);
    expect(first.metadata.status).toBe('success');
    expect(second.metadata.status).toBe('partial');
    expect(second.metadata.failed_engines).toEqual([
      { engine: 'duckduckgo', error: 'timeout', message: 'duckduckgo did not answer within 300 ms' },
    ]);
    expect(fake.hits('duckduckgo')).toBe(1);
  });

  it('Brave: request starts spaced by the configured rate', async () => {
    const { service, fake } = await harness({ search: { braveRatePerSecond: 5 } });
    const request = searchRequest('q', { engines: ['brave'] });
    await warmUp(service, 'brave');
    await Promise.all([
      service.search(testContext(), request),
      service.search(testContext(), request),
      service.search(testContext(), request),
    ]);
    const starts = fake
      .requests('brave')
      .slice(1)
      .map((r) => r.at);
    expect(starts[1]! - starts[0]!).toBeGreaterThanOrEqual(200 - ARRIVAL_JITTER_MS);
    expect(starts[2]! - starts[1]!).toBeGreaterThanOrEqual(200 - ARRIVAL_JITTER_MS);
    expect(starts[2]! - starts[0]!).toBeGreaterThanOrEqual(400 - ARRIVAL_JITTER_MS);
  });
});
