/**
 * A store that does not answer is a store that is down (security issue, item 5): Redis
 * frozen by SIGSTOP keeps its connection open, so only a timeout ends the wait. A metered
 * crawl then answers 503 store_unavailable with Retry-After well inside its 15 s deadline,
 * the server works again once Redis is back, and no credit hold is left behind.
 */
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { STORE_RETRY_AFTER_S } from '../../src/store/store-outage.js';
import { startFixtureSite, type FixtureSite } from '../helpers/fixture-site.js';
import { redisSuite } from '../helpers/redis-server.js';
import type { TestApi } from '../helpers/test-server.js';
import { startTestApi } from '../helpers/test-server.js';

redisSuite('a request while Redis is frozen (SIGSTOP)', (redis) => {
  let api: TestApi | undefined;
  let site: FixtureSite;
  beforeAll(async () => {
    site = await startFixtureSite();
  });
  afterAll(async () => {
    await site?.close();
  });
  afterEach(async () => {
    process.kill(redis().pid, 'SIGCONT');
    await api?.close().catch(() => undefined);
  });

  it('answers 503 store_unavailable within its deadline, then works again with no hold left', async () => {
    let secret = '';
    let keyId = '';
    api = await startTestApi(
      // The crawl's deadline is 15 s (the default); the store's bound is its default 2 s.
      {
        fetch: { timeoutMs: 15_000 },
        store: { kind: 'redis', redisUrl: redis().url, redisPrefix: `frozen-${process.pid}:` },
      },
      {
        beforeStart: async (core) => {
          const { secret: s, record } = await core.keys.create({ name: 'a', credits: 10 });
          secret = s;
          keyId = record.id;
        },
      },
    );
    expect(api.core.config.store.timeoutMs).toBe(2_000);
    const crawl = () =>
      fetch(`${api?.url}/api/crawl`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${secret}` },
        body: JSON.stringify({ urls: [`${site.origin}/text`] }),
        // Without a bound the request would wait for Redis for as long as it is frozen.
        signal: AbortSignal.timeout(20_000),
      });
    const used = async (res: Response) => ((await res.json()) as { metadata: { credits_used: number } }).metadata;

    const before = await crawl();
    expect(before.status).toBe(200);
    let spent = (await used(before)).credits_used;

    process.kill(redis().pid, 'SIGSTOP');
    try {
      // Twice: the first request meets a connection that looks healthy, the second one too.
      for (let i = 0; i < 2; i++) {
        const started = performance.now();
        const res = await crawl();
        const ms = performance.now() - started;
        expect(res.status).toBe(503);
        expect(res.headers.get('retry-after')).toBe(String(STORE_RETRY_AFTER_S));
        expect(await res.json()).toMatchObject({ error: { code: 'store_unavailable' } });
        expect(ms).toBeLessThan(8_000);
      }
    } finally {
      process.kill(redis().pid, 'SIGCONT');
    }

    // Back: the commands left unanswered are answered, and requests go through again.
    let after: Response | undefined;
    for (let i = 0; i < 50 && after?.status !== 200; i++) {
      if (i > 0) await new Promise((r) => setTimeout(r, 100));
      after = await crawl();
    }
    expect(after?.status).toBe(200);
    spent += (await used(after as Response)).credits_used;
    expect(await api.core.store.heldCredits(keyId, Date.now())).toBe(0);
    expect((await api.core.store.keyById(keyId))?.balance).toBe(10 - spent);
  }, 60_000);
});
