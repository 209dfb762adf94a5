/**
 * `/healthz` of an instance on Redis: 200 while the Redis answers, 503 soon after it is
 * gone (the server itself goes on answering), as a load balancer's probe needs; the crawl
 * queue (BullMQ, on its own connections) is reported beside the store.
 */
import { afterEach, expect, it } from 'vitest';
import { redisSuite } from '../helpers/redis-server.js';
import type { TestApi } from '../helpers/test-server.js';
import { startTestApi } from '../helpers/test-server.js';

redisSuite('/healthz on Redis', (redis) => {
  let api: TestApi | undefined;
  afterEach(async () => {
    await api?.close().catch(() => undefined);
  });

  it('is ok while the Redis answers and 503 once it is stopped', async () => {
    api = await startTestApi({
      store: { kind: 'redis', redisUrl: redis().url, redisPrefix: `healthz-${process.pid}:` },
    });
    const ok = await fetch(`${api.url}/healthz`);
    expect(ok.status).toBe(200);
    expect(await ok.json()).toMatchObject({
      status: 'ok',
      store: 'redis',
      crawl_queue: { kind: 'shared', reachable: true },
    });
    await redis().stop();
    const started = performance.now();
    const down = await fetch(`${api.url}/healthz`);
    expect(down.status).toBe(503);
    expect(await down.json()).toMatchObject({
      status: 'unavailable',
      store: 'redis',
      crawl_queue: { kind: 'shared', reachable: false },
    });
    expect(performance.now() - started).toBeLessThan(10_000);
  });
});
