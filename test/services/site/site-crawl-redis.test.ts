/**
 * A site crawl on the Redis store: the same job as on SQLite, its frontier, results and
 * credits in the Redis every instance shares; a second instance on the same Redis reads
 * the job and its pages (and another key's job stays a 404 there too).
 */
import { afterEach, expect, it } from 'vitest';
import { redisSuite } from '../../helpers/redis-server.js';
import { startTestApi, type TestApi } from '../../helpers/test-server.js';
import { startSmallSite, type SmallSite } from './small-site.js';

redisSuite('site crawls on Redis', (redis) => {
  let apis: TestApi[] = [];
  let site: SmallSite | undefined;
  afterEach(async () => {
    await Promise.all(apis.map((api) => api.close().catch(() => undefined)));
    apis = [];
    await site?.close();
  });

  it('crawls to the end, every page once, charged per page, readable from another instance', async () => {
    site = await startSmallSite({ treePages: 30 });
    const settings = {
      store: { kind: 'redis' as const, redisUrl: redis().url, redisPrefix: `site-${process.pid}:` },
      cache: { ttlMs: 0 },
      convert: { threads: 1 },
      auth: { rateLimitRequests: 0 },
    };
    apis = [
      await startTestApi({ ...settings, server: { instanceId: 'one' } }),
      await startTestApi({ ...settings, server: { instanceId: 'two' } }),
    ];
    const [one, two] = apis as [TestApi, TestApi];
    const { secret } = await one.core.keys.create({ name: 'crawler', credits: 500 });
    const auth = { authorization: `Bearer ${secret}` };
    const res = await one.post(
      '/api/site-crawls',
      { url: site.origin, limit: 30, max_depth: 10, max_chars: 20, wait_ms: 30_000 },
      auth,
    );
    const body = (await res.json()) as any;
    expect(res.status).toBe(200);
    expect(body).toMatchObject({ status: 'done', stop_reason: 'limit' });
    const read = await fetch(`${two.url}/api/site-crawls/${body.id}?limit=100`, { headers: auth });
    const all = (await read.json()) as any;
    const urls = all.pages.map((p: any) => p.url);
    expect(urls).toHaveLength(30);
    expect(new Set(urls).size).toBe(30);
    const succeeded = all.pages.filter((p: any) => p.success).length;
    expect(all.progress.credits_used).toBe(succeeded);
    const usage = (await (await fetch(`${two.url}/api/usage?limit=100`, { headers: auth })).json()) as any;
    expect(usage.balance).toBe(500 - succeeded);
    expect(usage.held_credits).toBe(0);
    const other = await one.core.keys.create({ name: 'other', credits: 5 });
    expect(
      (await fetch(`${two.url}/api/site-crawls/${body.id}`, { headers: { authorization: `Bearer ${other.secret}` } }))
        .status,
    ).toBe(404);
  });
});
