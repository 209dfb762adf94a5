/**
 * The server under hostile pages: each is crawled through the real HTTP server while a
 * stream of small requests (/healthz and a small page) runs beside it. Each crawl ends
 * with a per-URL error or a bounded success within its deadline, and the small requests
 * keep being answered quickly (the figures themselves: `npm run bench:load`).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFixtureSite, type FixtureSite } from '../helpers/fixture-site.js';
import { HOSTILE_PAGES } from '../../bench/fixtures/hostile-pages.mjs';
import { startTestApi, type TestApi } from '../helpers/test-server.js';
import type { ConvertPool } from '../../src/workers/convert-pool.js';

const DEADLINE_MS = 15_000;
// A page whose expected outcome includes the timeout is held to a shorter deadline: the
// bound and the server's answers are checked all the same, without a core spent for 15 s.
const TIMEOUT_ALLOWED_DEADLINE_MS = 5_000;
// Room for a loaded test machine beyond the per-URL deadline.
const SLACK_MS = 3_000;

let site: FixtureSite;
let api: TestApi;

beforeAll(async () => {
  site = await startFixtureSite();
  api = await startTestApi({ convert: { threads: 2 }, cache: { ttlMs: 0 } });
  // Warm both workers (the HTML cascade loads on a worker's first page).
  await Promise.all([api.crawl({ urls: [`${site.url}html?warm=1`] }), api.crawl({ urls: [`${site.url}html?warm=2`] })]);
});

afterAll(async () => {
  await api?.close();
  await site?.close();
});

/** Small requests every 25 ms until `stop` resolves; their latencies in ms. */
async function smallRequestsDuring(stop: Promise<unknown>): Promise<{ health: number[]; page: number[] }> {
  const health: number[] = [];
  const pageTimes: number[] = [];
  let done = false;
  void stop.finally(() => (done = true));
  const timed = async (into: number[], request: () => Promise<Response>) => {
    const started = performance.now();
    const res = await request();
    await res.arrayBuffer();
    expect(res.status).toBe(200);
    into.push(performance.now() - started);
  };
  let i = 0;
  while (!done) {
    const round = [timed(health, () => fetch(`${api.url}/healthz`))];
    if (i++ % 4 === 0)
      round.push(timed(pageTimes, () => api.post('/api/crawl', { urls: [`${site.url}html?small=${i}`] })));
    await Promise.all([...round, new Promise((r) => setTimeout(r, 25))]);
  }
  return { health, page: pageTimes };
}

const p99 = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * 0.99))] as number;

describe('hostile pages through the server', () => {
  it.each(Object.entries(HOSTILE_PAGES).filter(([name]) => name !== 'slow'))(
    '%s: bounded, and the server keeps answering',
    async (name, hostile) => {
      const deadline = hostile.expect.errorTypes.includes('timeout') ? TIMEOUT_ALLOWED_DEADLINE_MS : DEADLINE_MS;
      const started = performance.now();
      const crawl = api.crawl({ urls: [`${site.url}hostile/${name}`], timeout_ms: deadline });
      const [{ status, json }, small] = await Promise.all([
        crawl.then((r) => ({ ...r, ms: performance.now() - started })),
        smallRequestsDuring(crawl),
      ]);
      const wall = performance.now() - started;
      expect(status).toBe(200);
      const result = json.results[0];
      const summary = JSON.stringify({ ...result, markdown: result.markdown.slice(0, 200) });
      if (result.success) {
        const bound = hostile.expect.success;
        if (bound === undefined) throw new Error(`expected a per-URL error, got ${summary}`);
        expect(result.markdown.length).toBeLessThanOrEqual(bound.maxMarkdownChars);
        expect(result.markdown).toContain(bound.contains);
        if (bound.excludes !== undefined) expect(result.markdown).not.toContain(bound.excludes);
      } else {
        expect(hostile.expect.errorTypes, summary).toContain(result.error_type);
        expect(json.metadata.credits_used).toBe(0);
      }
      expect(wall).toBeLessThan(deadline + SLACK_MS);
      expect(small.health.length).toBeGreaterThan(0);
      expect(p99(small.health)).toBeLessThan(1_000);
      if (small.page.length > 0) expect(p99(small.page)).toBeLessThan(1_000);
    },
  );
});

describe('the conversion pool under failure', () => {
  it('a conversion outliving its deadline fails as timeout, uncharged, while /healthz answers', async () => {
    const started = performance.now();
    const crawl = api.crawl({ urls: [`${site.url}hostile/slow?deadline=1`], timeout_ms: 700 });
    const [{ json }, small] = await Promise.all([crawl, smallRequestsDuring(crawl)]);
    expect(json.results[0]).toMatchObject({ success: false, error_type: 'timeout' });
    expect(json.results[0].error).toMatch(/not converted within/);
    expect(json.metadata.credits_used).toBe(0);
    expect(performance.now() - started).toBeLessThan(700 + SLACK_MS);
    expect(p99(small.health)).toBeLessThan(1_000);
  });

  it('a worker killed mid-conversion fails its URL cleanly, and the pool recovers', async () => {
    const pool = api.core.converter as ConvertPool;
    const crawl = api.crawl({ urls: [`${site.url}hostile/slow?kill=1`], timeout_ms: DEADLINE_MS });
    const deadline = Date.now() + 10_000;
    while (pool.running === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
    expect(pool.running).toBe(1);
    await new Promise((r) => setTimeout(r, 100));
    await Promise.all(pool.threads.map((worker) => worker.terminate()));
    const { json } = await crawl;
    expect(json.results[0]).toMatchObject({ success: false, error_type: 'busy' });
    expect(json.metadata.credits_used).toBe(0);
    const next = await api.crawl({ urls: [`${site.url}html?after-kill=1`] });
    expect(next.json.results[0].success).toBe(true);
    expect(next.json.results[0].markdown.length).toBeGreaterThan(100);
  });
});

describe('the conversion pool bounds', () => {
  it('a full queue fails the URLs past it with busy, uncharged, at once', async () => {
    const small = await startTestApi({ convert: { threads: 1, maxQueue: 1 }, cache: { ttlMs: 0 } });
    try {
      const urls = [1, 2, 3, 4].map((n) => `${site.url}hostile/slow?queue=${n}`);
      const { json } = await small.crawl({ urls, timeout_ms: 30_000 });
      const busy = json.results.filter((r: { error_type?: string }) => r.error_type === 'busy');
      const done = json.results.filter((r: { success: boolean }) => r.success);
      expect(busy.length).toBeGreaterThanOrEqual(1);
      expect(busy.length + done.length).toBe(4);
      expect(busy[0].error).toMatch(/converting all it can \(1 at a time, 1 waiting\)/);
      expect(json.metadata.credits_used).toBe(done.length);
    } finally {
      await small.close();
    }
  });

  it('a page past the memory bound fails with too_large, uncharged, and the next page converts', async () => {
    const small = await startTestApi({ convert: { threads: 1, memoryMb: 32 }, cache: { ttlMs: 0 } });
    try {
      const { json } = await small.crawl({ urls: [`${site.url}hostile/text-node?memory=1`] });
      expect(json.results[0]).toMatchObject({ success: false, error_type: 'too_large' });
      expect(json.results[0].error).toMatch(/32 MB of memory/);
      expect(json.metadata.credits_used).toBe(0);
      const next = await small.crawl({ urls: [`${site.url}html?after-memory=1`] });
      expect(next.json.results[0].success).toBe(true);
    } finally {
      await small.close();
    }
  });
});
