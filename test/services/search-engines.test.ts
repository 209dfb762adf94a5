/**
 * SearchService against the fake engine server: every engine's real wire format through
 * the real guarded client, and every way an engine can fail (blocked, rate-limited, 5xx,
 * hanging, malformed), which must cost the search one engine, never the answer.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { AppError } from '../../src/core/errors.js';
import { searchResponseSchema, type SearchResponse } from '../../src/core/schemas.js';
import { ENGINE_IDS, type EngineId } from '../../src/engines/types.js';
import {
  startSearchHarness,
  searchRequest,
  type HarnessOptions,
  type SearchHarness,
} from '../helpers/search-harness.js';
import { testContext } from '../helpers/request-context.js';

/** Result counts of the fixture bodies served by the 'results' scenario (manifest.json). */
const FIXTURE_COUNTS: Record<EngineId, number> = {
  duckduckgo: 6,
  wikipedia: 4,
  mojeek: 3,
  brave: 3,
  searxng: 3,
  google: 3,
};

let h: SearchHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});
async function harness(options: HarnessOptions = {}): Promise<SearchHarness> {
  h = await startSearchHarness(options);
  return h;
}

async function rejection(promise: Promise<unknown>): Promise<AppError> {
  try {
    await promise;
  } catch (err) {
    expect(err).toBeInstanceOf(AppError);
    return err as AppError;
  }
  throw new Error('expected the search to fail');
}

function expectWellFormed(response: SearchResponse): void {
  expect(searchResponseSchema.parse(response)).toEqual(response);
  expect(response.id).toMatch(/^srch_[0-9A-HJKMNP-TV-Z]{26}$/);
  expect(response.metadata.timestamp).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
  expect(Number.isInteger(response.metadata.response_time * 1000)).toBe(true);
  expect(response.results.map((r) => r.position)).toEqual(response.results.map((_, i) => i + 1));
  expect(response.metadata.number_of_results).toBe(response.results.length);
}

describe('each engine through the service', () => {
  it.each(ENGINE_IDS.map((id) => [id]))('%s answers with its fixture results', async (id) => {
    const { service, fake } = await harness();
    const response = await service.search(testContext(), searchRequest('test query', { engines: [id] }));
    expectWellFormed(response);
    expect(response.engines).toEqual([id]);
    expect(response.results).toHaveLength(FIXTURE_COUNTS[id]);
    for (const r of response.results) {
      expect(r.engine).toBe(id);
      expect(r.engines).toEqual([id]);
      expect(Object.keys(r)).not.toContain('content');
      expect(Object.keys(r)).not.toContain('content_error');
    }
    expect(response.metadata).toMatchObject({ status: 'success', credits_used: 1, from_cache: false });
    expect(Object.keys(response.metadata)).toEqual([
      'number_of_results',
      'credits_used',
      'from_cache',
      'status',
      'response_time',
      'timestamp',
    ]);
    expect(fake.hits(id)).toBe(1);
  });

  it('queries every configured engine by default, in canonical order, and fuses them', async () => {
    const { service, fake } = await harness();
    const response = await service.search(testContext(), searchRequest('test query', { max_results: 20 }));
    expect(response.engines).toEqual([...ENGINE_IDS]);
    for (const id of ENGINE_IDS) expect(fake.hits(id)).toBe(1);
    expect(new Set(response.results.map((r) => r.engine))).toEqual(new Set(ENGINE_IDS));
    expect(response.metadata.status).toBe('success');
    // Engine selection order never changes the answer.
    const reordered = await service.search(
      testContext(),
      searchRequest('test query', { max_results: 20, engines: [...ENGINE_IDS].reverse() }),
    );
    expect(reordered.engines).toEqual([...ENGINE_IDS]);
    expect(reordered.results).toEqual(response.results);
  });

  it('sends the engines the request parameters, and engine requests may go to private addresses', async () => {
    const { service, fake } = await harness();
    await service.search(
      testContext(),
      searchRequest('tide tables', {
        engines: ['brave', 'searxng'],
        country: 'DE',
        language: 'de',
        safesearch: 'strict',
        time_range: 'week',
      }),
    );
    const brave = new URL(fake.requests('brave')[0]!.path, fake.baseUrl).searchParams;
    expect(Object.fromEntries(brave)).toMatchObject({
      q: 'tide tables',
      count: '10',
      country: 'DE',
      search_lang: 'de',
      safesearch: 'strict',
      freshness: 'pw',
    });
    expect(fake.requests('brave')[0]!.headers['x-subscription-token']).toBe('test-brave-key');
    const searx = new URL(fake.requests('searxng')[0]!.path, fake.baseUrl).searchParams;
    expect(Object.fromEntries(searx)).toMatchObject({
      q: 'tide tables',
      format: 'json',
      safesearch: '2',
      time_range: 'week',
      language: 'de',
    });
  });
});

describe('engine failures', () => {
  it('no results anywhere → no_results, 0 credits', async () => {
    const { service, fake } = await harness();
    for (const id of ENGINE_IDS) fake.setScenario(id, 'no_results');
    const response = await service.search(testContext(), searchRequest('nothing'));
    expectWellFormed(response);
    expect(response.results).toEqual([]);
    expect(response.metadata).toMatchObject({ status: 'no_results', credits_used: 0, number_of_results: 0 });
    expect(response.metadata.failed_engines).toBeUndefined();
  });

  it('no results from the engines that answered → no_results even when others failed', async () => {
    const { service, fake } = await harness();
    fake.setScenario('wikipedia', 'no_results');
    fake.setScenario('mojeek', 'server_error');
    const response = await service.search(
      testContext(),
      searchRequest('nothing', { engines: ['wikipedia', 'mojeek'] }),
    );
    expect(response.metadata).toMatchObject({ status: 'no_results', credits_used: 0 });
    expect(response.metadata.failed_engines).toEqual([
      { engine: 'mojeek', error: 'http', message: 'Mojeek answered HTTP 500' },
    ]);
  });

  it('a CAPTCHA (202 anomaly page) suspends DuckDuckGo; the search goes on as partial', async () => {
    const { service, fake, clock, config } = await harness();
    fake.setScenario('duckduckgo', 'captcha');
    const request = searchRequest('canoe', { engines: ['duckduckgo', 'wikipedia'] });
    const first = await service.search(testContext(), request);
    expectWellFormed(first);
    expect(first.metadata.status).toBe('partial');
    expect(first.metadata.credits_used).toBe(1);
    expect(first.results).toHaveLength(FIXTURE_COUNTS.wikipedia);
    expect(first.metadata.failed_engines).toEqual([
      { engine: 'duckduckgo', error: 'blocked', message: expect.stringContaining('anomaly (CAPTCHA) page') },
    ]);
    expect(fake.hits('duckduckgo')).toBe(1);
    expect(fake.hits('duckduckgo_lite')).toBe(0); // a block is never retried on the lite page

    fake.setScenario('duckduckgo', 'results');
    const second = await service.search(testContext(), request);
    expect(fake.hits('duckduckgo')).toBe(1); // suspended: not asked
    const until = new Date(clock.now() + config.search.suspendBlockedMs).toISOString();
    expect(second.metadata.failed_engines).toEqual([
      {
        engine: 'duckduckgo',
        error: 'blocked',
        message: expect.stringContaining(`duckduckgo is suspended until ${until}`),
      },
    ]);
    expect(second.metadata.status).toBe('partial');

    clock.advance(config.search.suspendBlockedMs);
    const third = await service.search(testContext(), request);
    expect(fake.hits('duckduckgo')).toBe(2);
    expect(third.metadata.status).toBe('success');
  });

  it('429 with Retry-After suspends for that long', async () => {
    const { service, fake, clock } = await harness({ search: { suspendRateLimitedMs: 5_000 } });
    fake.setScenario('brave', 'rate_limited');
    const request = searchRequest('q', { engines: ['brave', 'mojeek'] });
    const first = await service.search(testContext(), request);
    expect(first.metadata.status).toBe('partial');
    expect(first.metadata.failed_engines?.[0]).toMatchObject({ engine: 'brave', error: 'rate_limited' });
    fake.setScenario('brave', 'results');
    clock.advance(119_999);
    const during = await service.search(testContext(), request);
    expect(during.metadata.failed_engines?.[0]?.message).toMatch(
      /^brave is suspended until .* because it rate-limited the last request/,
    );
    expect(fake.hits('brave')).toBe(1);
    clock.advance(1);
    expect((await service.search(testContext(), request)).metadata.status).toBe('success');
    expect(fake.hits('brave')).toBe(2);
  });

  it('429 without Retry-After suspends for the configured default', async () => {
    const { service, fake, clock } = await harness({ search: { suspendRateLimitedMs: 60_000 } });
    fake.setScenario('google', 'rate_limited_no_retry_after');
    const request = searchRequest('q', { engines: ['google', 'mojeek'] });
    expect((await service.search(testContext(), request)).metadata.failed_engines?.[0]).toMatchObject({
      engine: 'google',
      error: 'rate_limited',
    });
    clock.advance(59_999);
    await service.search(testContext(), request);
    expect(fake.hits('google')).toBe(1);
    clock.advance(1);
    await service.search(testContext(), request);
    expect(fake.hits('google')).toBe(2);
  });

  it('500 → partial, and the engine is asked again next time', async () => {
    const { service, fake } = await harness();
    fake.setScenario('searxng', 'server_error');
    const request = searchRequest('q', { engines: ['searxng', 'brave'] });
    const response = await service.search(testContext(), request);
    expect(response.metadata.status).toBe('partial');
    expect(response.metadata.failed_engines).toEqual([
      { engine: 'searxng', error: 'http', message: expect.stringContaining('HTTP 500') },
    ]);
    await service.search(testContext(), request);
    expect(fake.hits('searxng')).toBe(2);
  });

  it('a hanging engine costs at most its time budget', async () => {
    const { service, fake } = await harness({ search: { engineTimeoutMs: 300 } });
    fake.setScenario('wikipedia', 'hang');
    const t0 = performance.now();
    const response = await service.search(testContext(), searchRequest('q', { engines: ['wikipedia', 'mojeek'] }));
    const elapsed = performance.now() - t0;
    expect(elapsed).toBeGreaterThanOrEqual(290);
    expect(elapsed).toBeLessThan(1_000);
    expect(response.metadata.status).toBe('partial');
    expect(response.metadata.failed_engines).toEqual([
      { engine: 'wikipedia', error: 'timeout', message: 'wikipedia did not answer within 300 ms' },
    ]);
    expect(response.results).toHaveLength(FIXTURE_COUNTS.mojeek);
  });

  it('a malformed answer → partial', async () => {
    const { service, fake } = await harness();
    fake.setScenario('wikipedia', 'malformed');
    const response = await service.search(testContext(), searchRequest('q', { engines: ['wikipedia', 'google'] }));
    expect(response.metadata.status).toBe('partial');
    expect(response.metadata.failed_engines?.[0]).toMatchObject({ engine: 'wikipedia', error: 'malformed_response' });
  });

  it('a SearXNG without JSON output says how to enable it', async () => {
    const { service, fake } = await harness();
    fake.setScenario('searxng', 'searxng_json_disabled');
    const response = await service.search(testContext(), searchRequest('q', { engines: ['searxng', 'mojeek'] }));
    expect(response.metadata.failed_engines?.[0]?.message).toContain('formats: [html, json]');
  });

  it.each([
    ['malformed', 'malformed'],
    ['a 5xx', 'server_error'],
  ] as const)('DuckDuckGo falls back to the lite page after %s', async (_name, scenario) => {
    const { service, fake } = await harness();
    fake.setScenario('duckduckgo', scenario);
    const response = await service.search(testContext(), searchRequest('q', { engines: ['duckduckgo'] }));
    expect(fake.hits('duckduckgo')).toBe(1);
    expect(fake.hits('duckduckgo_lite')).toBe(1);
    expect(fake.requests('duckduckgo_lite')[0]!.method).toBe('POST');
    expect(response.metadata.status).toBe('success');
    expect(response.results).toHaveLength(3); // lite_results.html
  });

  it('DuckDuckGo fails when the lite page fails too', async () => {
    const { service, fake } = await harness();
    fake.setScenario('duckduckgo', 'malformed');
    fake.setScenario('duckduckgo_lite', 'captcha');
    const response = await service.search(testContext(), searchRequest('q', { engines: ['duckduckgo', 'mojeek'] }));
    expect(response.metadata.failed_engines?.[0]).toMatchObject({ engine: 'duckduckgo', error: 'blocked' });
  });

  it('every selected engine failing → engines_unavailable with per-engine details, never charged', async () => {
    const { service, fake } = await harness({ search: { engineTimeoutMs: 300 } });
    fake.setScenario('duckduckgo', 'captcha');
    fake.setScenario('wikipedia', 'hang');
    fake.setScenario('brave', 'rate_limited');
    const err = await rejection(
      service.search(testContext(), searchRequest('q', { engines: ['duckduckgo', 'wikipedia', 'brave'] })),
    );
    expect(err.code).toBe('engines_unavailable');
    expect(err.retryable).toBe(true);
    expect(err.message).toMatch(
      /^Every selected search engine failed: duckduckgo: blocked \(DuckDuckGo refused .*\); wikipedia: timeout \(wikipedia did not answer within 300 ms\); brave: rate_limited \(Brave Search rate-limited .*\)$/,
    );
    expect(err.details).toEqual([
      { path: 'engines.duckduckgo', message: expect.stringMatching(/^blocked: /) },
      { path: 'engines.wikipedia', message: 'timeout: wikipedia did not answer within 300 ms' },
      { path: 'engines.brave', message: expect.stringMatching(/^rate_limited: /) },
    ]);
  });

  it('an engine that is not configured → invalid_request naming the missing setting', async () => {
    const { service, fake } = await harness({
      engines: { braveApiKey: undefined, googleCseId: undefined, searxngUrl: undefined },
    });
    expect(service.settings.configured).toEqual(['duckduckgo', 'wikipedia', 'mojeek']);
    const err = await rejection(
      service.search(testContext(), searchRequest('q', { engines: ['duckduckgo', 'brave', 'google', 'searxng'] })),
    );
    expect(err.code).toBe('invalid_request');
    expect(err.message).toBe(
      'Not configured on this server: brave, google, searxng (configured engines: duckduckgo, wikipedia, mojeek).',
    );
    expect(err.details).toEqual([
      { path: 'engines.1', message: '"brave" is not configured: set BRAVE_API_KEY' },
      { path: 'engines.2', message: '"google" is not configured: set GOOGLE_CSE_ID' },
      { path: 'engines.3', message: '"searxng" is not configured: set SEARXNG_URL' },
    ]);
    expect(fake.requests()).toHaveLength(0);
  });

  it('a cancelled search rejects with cancelled, not engines_unavailable', async () => {
    const { service, fake } = await harness();
    fake.setScenario('mojeek', 'hang');
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    const err = await rejection(
      service.search(testContext({ signal: controller.signal }), searchRequest('q', { engines: ['mojeek'] })),
    );
    expect(err.code).toBe('cancelled');
  });
});
