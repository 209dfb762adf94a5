/**
 * The pieces under the search service: engine settings from config, suspensions and the
 * politeness lanes (no network).
 */
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, type Config, type DeepPartial } from '../../src/core/config.js';
import { AppError } from '../../src/core/errors.js';
import { EngineHealth } from '../../src/services/search/engine-health.js';
import { MemoryStore } from '../../src/store/memory-store.js';
import {
  engineSettingsProblems,
  parseWeights,
  resolveEngineSettings,
} from '../../src/services/search/engine-settings.js';
import { Lane } from '../../src/core/lane.js';
import { EngineThrottle } from '../../src/services/search/engine-throttle.js';
import { fakeClock } from '../helpers/search-harness.js';

const config = (overrides: DeepPartial<Config> = {}, env: Record<string, string> = {}): Config =>
  loadConfig({ env, overrides });

describe('engine settings', () => {
  it('configures the keyless engines always and the keyed ones only with their settings', () => {
    expect(resolveEngineSettings(config()).configured).toEqual(['duckduckgo', 'wikipedia', 'mojeek']);
    const all = resolveEngineSettings(
      config(
        {},
        { BRAVE_API_KEY: 'k', SEARXNG_URL: 'http://10.0.0.5:8888/', GOOGLE_API_KEY: 'g', GOOGLE_CSE_ID: 'cx' },
      ),
    );
    expect(all.configured).toEqual(['duckduckgo', 'wikipedia', 'mojeek', 'brave', 'searxng', 'google']);
    // Google needs both its key and its engine id.
    expect(resolveEngineSettings(config({}, { GOOGLE_API_KEY: 'g' })).configured).not.toContain('google');
  });

  it('builds each EngineContext from config', () => {
    const s = resolveEngineSettings(
      config({ fetch: { userAgent: 'UA/1' } }, { BRAVE_API_KEY: 'k', GOOGLE_API_KEY: 'g', GOOGLE_CSE_ID: 'cx' }),
    );
    expect(s.contexts.duckduckgo).toEqual({
      baseUrl: 'https://html.duckduckgo.com',
      fallbackUrl: 'https://lite.duckduckgo.com',
      userAgent: 'UA/1',
    });
    expect(s.contexts.brave).toEqual({ baseUrl: 'https://api.search.brave.com', apiKey: 'k', userAgent: 'UA/1' });
    expect(s.contexts.google).toEqual({
      baseUrl: 'https://www.googleapis.com',
      apiKey: 'g',
      cseId: 'cx',
      userAgent: 'UA/1',
    });
    expect(s.contexts.wikipedia.baseUrl).toBe('https://{lang}.wikipedia.org');
  });

  it('defaults to every configured engine, or to WEBSEARCH_ENGINES', () => {
    expect(resolveEngineSettings(config({}, { BRAVE_API_KEY: 'k' })).defaults).toEqual([
      'duckduckgo',
      'wikipedia',
      'mojeek',
      'brave',
    ]);
    // Canonical order whatever the order given; duplicates and blanks ignored.
    const s = resolveEngineSettings(
      config({}, { BRAVE_API_KEY: 'k', WEBSEARCH_ENGINES: ' Brave, duckduckgo,,brave ' }),
    );
    expect(s.defaults).toEqual(['duckduckgo', 'brave']);
    expect(s.configured).toContain('wikipedia');
  });

  it('reports every problem of WEBSEARCH_ENGINES and WEBSEARCH_ENGINE_WEIGHTS at once', () => {
    const problems = engineSettingsProblems(
      config(
        {},
        {
          WEBSEARCH_ENGINES: 'duckduckgo,bing,brave,google',
          WEBSEARCH_ENGINE_WEIGHTS: 'brave=1.2,wikipedia:0.5,yahoo=2,mojeek=0',
        },
      ),
    );
    expect(problems).toEqual([
      expect.stringMatching(/^WEBSEARCH_ENGINES: unknown engine "bing"/),
      'WEBSEARCH_ENGINES: "brave" is not configured: set BRAVE_API_KEY',
      'WEBSEARCH_ENGINES: "google" is not configured: set GOOGLE_API_KEY and GOOGLE_CSE_ID',
      expect.stringMatching(/^WEBSEARCH_ENGINE_WEIGHTS: "wikipedia:0.5" is not "engine=number"/),
      expect.stringMatching(/^WEBSEARCH_ENGINE_WEIGHTS: unknown engine "yahoo"/),
      expect.stringMatching(/^WEBSEARCH_ENGINE_WEIGHTS: the weight of "mojeek" must be above 0/),
    ]);
    expect(() => resolveEngineSettings(config({}, { WEBSEARCH_ENGINES: 'bing' }))).toThrow(ConfigError);
    expect(engineSettingsProblems(config({}, { WEBSEARCH_ENGINES: ' , ' }))).toEqual([
      'WEBSEARCH_ENGINES: names no engine',
    ]);
    expect(engineSettingsProblems(config())).toEqual([]);
  });

  it('takes weights from the engines, overridden by WEBSEARCH_ENGINE_WEIGHTS', () => {
    const s = resolveEngineSettings(config({}, { WEBSEARCH_ENGINE_WEIGHTS: 'brave=1.2, Wikipedia = .75' }));
    expect(s.weights).toEqual({ duckduckgo: 1, wikipedia: 0.75, mojeek: 0.8, brave: 1.2, searxng: 1, google: 1 });
    expect(parseWeights('brave=1,brave=2').problems).toEqual(['WEBSEARCH_ENGINE_WEIGHTS: "brave" is given twice']);
    expect(parseWeights(undefined)).toEqual({ weights: {}, problems: [] });
  });
});

describe('engine health', async () => {
  const blocked = new AppError('blocked', 'DuckDuckGo refused the request (HTTP 202): anomaly (CAPTCHA) page');
  it('suspends a blocked engine for suspendBlockedMs', async () => {
    const clock = fakeClock();
    const health = new EngineHealth({ suspendBlockedMs: 60_000, suspendRateLimitedMs: 5_000, now: clock.now });
    expect(await health.recordFailure('duckduckgo', blocked)).toMatchObject({
      reason: 'blocked',
      until: clock.now() + 60_000,
    });
    clock.advance(59_999);
    const s = await health.check('duckduckgo');
    expect(s?.reason).toBe('blocked');
    expect(health.describe('duckduckgo', s!)).toBe(
      `duckduckgo is suspended until ${new Date(Date.UTC(2025, 0, 1, 0, 1)).toISOString()} because it blocked the last request (${blocked.message})`,
    );
    expect(await health.check('wikipedia')).toBeUndefined();
    clock.advance(1);
    expect(await health.check('duckduckgo')).toBeUndefined();
  });

  it('suspends a rate-limited engine for its Retry-After, else the default', async () => {
    const clock = fakeClock();
    const health = new EngineHealth({ suspendBlockedMs: 60_000, suspendRateLimitedMs: 5_000, now: clock.now });
    await health.recordFailure('brave', new AppError('rate_limited', 'x', { retryAfter: 120 }));
    await health.recordFailure('google', new AppError('rate_limited', 'x'));
    clock.advance(5_000);
    expect(await health.check('google')).toBeUndefined();
    expect((await health.check('brave'))?.reason).toBe('rate_limited');
    clock.advance(115_000);
    expect(await health.check('brave')).toBeUndefined();
  });

  it('ignores transient failures and zero durations', async () => {
    const health = new EngineHealth({ suspendBlockedMs: 0, suspendRateLimitedMs: 5_000 });
    expect(await health.recordFailure('mojeek', new AppError('timeout', 'slow'))).toBeUndefined();
    expect(await health.recordFailure('mojeek', new AppError('http', '500', { statusCode: 500 }))).toBeUndefined();
    expect(await health.recordFailure('mojeek', blocked)).toBeUndefined();
    expect(await health.check('mojeek')).toBeUndefined();
  });
});

describe('engine health shared through the store', () => {
  it('rests an engine on every instance once one of them was blocked', async () => {
    const clock = fakeClock();
    const store = new MemoryStore();
    const options = { suspendBlockedMs: 60_000, suspendRateLimitedMs: 5_000, now: clock.now, store };
    const [a, b] = [new EngineHealth(options), new EngineHealth(options)];
    await a.recordFailure('duckduckgo', new AppError('blocked', 'CAPTCHA'));
    expect((await b.check('duckduckgo'))?.reason).toBe('blocked');
    expect(await b.check('mojeek')).toBeUndefined();
    clock.advance(60_000);
    expect(await b.check('duckduckgo')).toBeUndefined();
    await a.recordFailure('brave', new AppError('rate_limited', 'slow down'));
    await b.reset();
    expect(await new EngineHealth(options).check('brave')).toBeUndefined();
  });
});

describe('politeness lanes', () => {
  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

  it('runs one at a time, FIFO, with the minimum gap between starts', async () => {
    const lane = new Lane({ maxConcurrent: 1, intervalMs: 100 });
    const starts: [string, number][] = [];
    const t0 = performance.now();
    const job = async (name: string, holdMs: number) => {
      const release = await lane.acquire();
      starts.push([name, performance.now() - t0]);
      await sleep(holdMs);
      release();
      release(); // harmless twice
    };
    await Promise.all([job('a', 150), job('b', 0), job('c', 0)]);
    expect(starts.map(([n]) => n)).toEqual(['a', 'b', 'c']);
    const [a, b, c] = starts.map(([, t]) => t) as [number, number, number];
    expect(b - a).toBeGreaterThanOrEqual(148); // a held its slot for 150 ms
    expect(c - b).toBeGreaterThanOrEqual(98); // then the 100 ms gap
  });

  it('spaces starts without a concurrency cap (Brave)', async () => {
    const throttle = new EngineThrottle({ duckduckgoIntervalMs: 0, braveRatePerSecond: 10 });
    const t0 = performance.now();
    const times = await Promise.all(
      [0, 1, 2].map(async () => (await throttle.acquire('brave'), performance.now() - t0)),
    );
    expect(times[1]! - times[0]!).toBeGreaterThanOrEqual(98);
    expect(times[2]! - times[1]!).toBeGreaterThanOrEqual(98);
    // Unthrottled engines pass straight through.
    const release = await throttle.acquire('wikipedia');
    release();
  });

  it('lets an aborted waiter leave the queue with the signal reason', async () => {
    const lane = new Lane({ maxConcurrent: 1, intervalMs: 0 });
    const hold = await lane.acquire();
    const controller = new AbortController();
    const waiting = lane.acquire(controller.signal);
    const next = lane.acquire();
    expect(lane.waiting).toBe(2);
    const reason = new AppError('timeout', 'budget spent');
    controller.abort(reason);
    await expect(waiting).rejects.toBe(reason);
    expect(lane.waiting).toBe(1);
    hold();
    const release = await next; // the one behind it got the slot
    release();
    await expect(lane.acquire(AbortSignal.abort())).rejects.toMatchObject({ code: 'cancelled' });
  });
});
