/**
 * A site crawl on the Redis store: the same job as on SQLite, its frontier, results and
 * credits in the Redis every instance shares; a second instance on the same Redis reads
 * the job and its pages (and another key's job stays a 404 there too). With the shared crawl
 * queue both instances work on the job; one that stops gives its pages back at once, and
 * entries the queue lost are put back from the frontier.
 */
import { Queue } from 'bullmq';
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

  /** Two instances on one Redis prefix, a key with credits, and a crawl of at most `pages` started on the first. */
  async function crawlOnTwo(prefix: string, pages: number, site_: { treePages: number; latencyMs: number }) {
    site = await startSmallSite(site_);
    const settings = {
      store: { kind: 'redis' as const, redisUrl: redis().url, redisPrefix: prefix },
      cache: { ttlMs: 0 },
      convert: { threads: 1 },
      auth: { rateLimitRequests: 0 },
      site: { pagesInFlight: 2 },
    };
    apis = [
      await startTestApi({ ...settings, server: { instanceId: 'one' } }),
      await startTestApi({ ...settings, server: { instanceId: 'two' } }),
    ];
    const [one, two] = apis as [TestApi, TestApi];
    // The second instance looks for running crawls as a server does.
    await two.core.siteCrawls.resume();
    const { secret } = await one.core.keys.create({ name: 'crawler', credits: 1_000 });
    const auth = { authorization: `Bearer ${secret}` };
    const res = await one.post(
      '/api/site-crawls',
      { url: site.origin, limit: pages, max_depth: 15, use_sitemap: false, max_chars: 20 },
      auth,
    );
    expect(res.status).toBe(202);
    const { id } = (await res.json()) as { id: string };
    const status = async (api: TestApi, wait = 0): Promise<any> =>
      (
        await fetch(`${api.url}/api/site-crawls/${id}?limit=1&wait_ms=${wait}&cursor=${pages}`, { headers: auth })
      ).json();
    const until = async (api: TestApi, done: (s: any) => boolean): Promise<any> => {
      for (let i = 0; i < 400; i++) {
        const seen = await status(api, 250);
        if (done(seen)) return seen;
      }
      throw new Error('the crawl did not get there');
    };
    const all = async (api: TestApi): Promise<any[]> => {
      const out: any[] = [];
      let cursor: string | undefined = '0';
      while (cursor !== undefined) {
        const page = (await (
          await fetch(`${api.url}/api/site-crawls/${id}?limit=100&cursor=${cursor}`, { headers: auth })
        ).json()) as any;
        out.push(...page.pages);
        cursor = page.next_cursor;
      }
      return out;
    };
    return { one, two, id, auth, status, until, all };
  }

  it('an instance that stops gives its pages back at once: the other ends the crawl, every page once', async () => {
    const { one, two, until, all, auth } = await crawlOnTwo(`stop-${process.pid}:`, 60, {
      treePages: 80,
      latencyMs: 150,
    });
    // Both instances work on the crawl before the first stops.
    await until(one, (s) => s.progress.pages >= 10);
    // Both hold pages at the moment the first stops.
    const holding = async (api: TestApi): Promise<boolean> => {
      for (let i = 0; i < 250; i++) {
        if (api.core.siteCrawls.pagesInHand() > 0) return true;
        await new Promise((r) => setTimeout(r, 20));
      }
      return false;
    };
    expect(await holding(two)).toBe(true);
    // The site holds its answers: a page in hand is then one being fetched, not one being
    // completed (which a loaded machine let finish before the stop, giving none back).
    site!.pause();
    await new Promise((r) => setTimeout(r, 1_000));
    expect(await holding(one)).toBe(true);
    await one.core.siteCrawls.close();
    await one.close();
    apis = [two];
    site!.resume();
    // The pages it held were given back (retried at once by the queue), not left to lapse.
    const metrics = (await one.core.metrics!.render()).body;
    const givenBack = /^websearch_site_pages_total\{outcome="given_back"\} (\d+)$/m.exec(metrics);
    expect(Number(givenBack?.[1] ?? 0)).toBeGreaterThan(0);
    const done = await until(two, (s) => s.status === 'done');
    expect(done).toMatchObject({ status: 'done', stop_reason: 'limit' });
    const pages = await all(two);
    expect(pages).toHaveLength(60);
    expect(new Set(pages.map((p) => p.url)).size).toBe(60);
    const succeeded = pages.filter((p) => p.success).length;
    const usage = (await (await fetch(`${two.url}/api/usage?limit=1`, { headers: auth })).json()) as any;
    expect(usage.balance).toBe(1_000 - succeeded);
    expect(usage.held_credits).toBe(0);
  });

  it('entries the queue lost are put back from the frontier, and the crawl completes', async () => {
    const prefix = `lost-${process.pid}:`;
    // A site smaller than the limit: the crawl completes only once every entry of its frontier ends.
    const { one, id, until, all } = await crawlOnTwo(prefix, 1_000, { treePages: 30, latencyMs: 50 });
    await until(one, (s) => s.progress.pages >= 5);
    // As if an instance died between writing the frontier and the queue: the queue is emptied.
    const queue = new Queue(`crawl-${id}`, { connection: { url: redis().url }, prefix: `${prefix}bq` });
    try {
      await queue.obliterate({ force: true });
    } finally {
      await queue.close();
    }
    const done = await until(one, (s) => s.status === 'done');
    expect(done).toMatchObject({ status: 'done', stop_reason: 'completed' });
    const pages = await all(one);
    const urls = new Set(pages.map((p) => p.url));
    expect(urls.size).toBe(pages.length);
    // Every page of the tree was delivered, those the queue lost included.
    for (let i = 0; i < 30; i++) expect(urls.has(`${site!.origin}/tree/${i}`)).toBe(true);
  });
});
