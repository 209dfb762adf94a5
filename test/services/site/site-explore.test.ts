/**
 * Exploring a site through the HTTP API against a small local site (small-site.ts): the
 * map's sources, normalisation, robots.txt and ranking; the crawl's deduplication, limits,
 * stop reasons, credits and ownership; every bad input's error.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startTestApi, type TestApi } from '../../helpers/test-server.js';
import { startSmallSite, type SmallSite } from './small-site.js';

let site: SmallSite;
let api: TestApi;
/** A server whose callers have keys (once a key exists, every call needs one). */
let keyed: TestApi;
beforeAll(async () => {
  site = await startSmallSite({ treePages: 40 });
  const settings = { cache: { ttlMs: 0 }, convert: { threads: 1 }, auth: { rateLimitRequests: 0 } };
  [api, keyed] = await Promise.all([startTestApi(settings), startTestApi(settings)]);
});
afterAll(async () => {
  await api?.close();
  await keyed?.close();
  await site?.close();
});

const json = async (res: Response) => ({ status: res.status, body: (await res.json()) as any });
const map = async (body: unknown, headers: Record<string, string> = {}) =>
  json(await api.post('/api/map', body, headers));
const crawl = async (body: unknown, headers: Record<string, string> = {}) =>
  json(await api.post('/api/site-crawls', body, headers));
const get = async (path: string, headers: Record<string, string> = {}) =>
  json(await fetch(`${api.url}${path}`, { headers }));
const crawlOn = async (on: TestApi, body: unknown, headers: Record<string, string>) =>
  json(await on.post('/api/site-crawls', body, headers));
const getOn = async (on: TestApi, path: string, headers: Record<string, string>) =>
  json(await fetch(`${on.url}${path}`, { headers }));

describe('POST /api/map', () => {
  it('lists the sitemaps (an index, a gzipped child), the feed and the links, each URL once, disallowed ones counted and never fetched', async () => {
    site.hits.clear();
    const { status, body } = await map({ url: site.origin });
    expect(status).toBe(200);
    const urls: string[] = body.links.map((l: any) => l.url);
    expect(new Set(urls).size).toBe(urls.length);
    const path = (u: string) => new URL(u).pathname + new URL(u).search;
    expect(urls.map(path)).toEqual(expect.arrayContaining(['/guide/harbours', '/guide/tides', '/news/storm', '/']));
    // The tracking parameter of the sitemap is dropped; the session ids of the links too.
    expect(urls.some((u) => u.includes('utm_source') || u.includes('sessionid'))).toBe(false);
    const harbours = body.links.find((l: any) => path(l.url) === '/guide/harbours');
    expect(harbours).toMatchObject({ source: 'sitemap', lastmod: '2026-01-15' });
    expect(body.links.find((l: any) => path(l.url) === '/news/storm')).toMatchObject({
      source: 'feed',
      title: 'Storm season notes',
    });
    // Sitemap order first.
    expect(urls.slice(0, 6).map(path)).toEqual([
      '/guide/harbours',
      '/guide/lighthouses',
      '/guide/tides',
      '/guide/ferries',
      '/guide/estuaries',
      '/guide/dunes',
    ]);
    expect(urls.some((u) => u.includes('/private/'))).toBe(false);
    expect(body.metadata.robots_disallowed).toBeGreaterThanOrEqual(1);
    expect([...site.hits.keys()].some((p) => p.startsWith('/private/'))).toBe(false);
    expect(body.metadata).toMatchObject({ truncated: false, credits_used: 1, sitemaps_read: 2 });
    expect(body.metadata.sources.sitemap).toBe(7);
  });

  it('ranks by search, cuts at limit, and keeps to the path globs', async () => {
    const ranked = await map({ url: site.origin, search: 'ferry timetables', limit: 3 });
    const top = ranked.body.links.slice(0, 2).map((l: any) => new URL(l.url).pathname);
    expect(top.sort()).toEqual(['/guide/ferries', '/mirror/ferries']);
    expect(ranked.body.links[0].score).toBeGreaterThan(0);
    expect(ranked.body.links[2].score).toBe(0);
    expect(ranked.body.links).toHaveLength(3);
    expect(ranked.body.metadata.truncated).toBe(true);
    const guides = await map({ url: site.origin, include_paths: ['/guide/*'], exclude_paths: ['/guide/d*'] });
    const paths = guides.body.links.map((l: any) => new URL(l.url).pathname);
    expect(paths.length).toBeGreaterThan(3);
    expect(paths.every((p: string) => p.startsWith('/guide/') && !p.startsWith('/guide/d'))).toBe(true);
    const only = await map({ url: site.origin, sitemap: 'only' });
    expect(only.body.links.every((l: any) => l.source === 'sitemap')).toBe(true);
    const skip = await map({ url: site.origin, sitemap: 'skip' });
    expect(skip.body.links.every((l: any) => l.source !== 'sitemap')).toBe(true);
  });

  it('refuses bad input with 400 and the offending path', async () => {
    for (const [body, path] of [
      [{ url: 'ftp://example.com/' }, 'url'],
      [{ url: site.origin, limit: 30_001 }, 'limit'],
      [{ url: site.origin, include_paths: ['/a'.repeat(101)] }, 'include_paths.0'],
      [{ url: site.origin, exclude_paths: Array.from({ length: 21 }, (_, i) => `/x${i}`) }, 'exclude_paths'],
      [{ url: site.origin, sitemap: 'maybe' }, 'sitemap'],
      [{ url: site.origin, regex: '.*' }, ''],
    ] as const) {
      const { status, body: answer } = await map(body);
      expect(status, JSON.stringify(body)).toBe(400);
      expect(answer.error.code).toBe('invalid_request');
      if (path !== '') expect(answer.error.details.map((d: any) => d.path)).toContain(path);
    }
  });

  it('treats a robots.txt answering 503 as disallowing the whole site: nothing fetched, said plainly', async () => {
    const down = await startSmallSite({ robotsStatus: 503 });
    try {
      const { status, body } = await map({ url: down.origin });
      expect(status).toBe(200);
      expect(body.links).toEqual([]);
      expect(body.metadata.warnings.join(' ')).toMatch(/503.*disallows the whole site/);
      expect([...down.hits.keys()]).toEqual(['/robots.txt']);
    } finally {
      await down.close();
    }
  });
});

describe('/api/site-crawls', () => {
  afterEach(async () => {
    // Let the crawls of a test end before the next counts running jobs.
    await new Promise((r) => setTimeout(r, 50));
  });

  it('crawls a small site in one call: every page once, duplicates recognised, traps ended by max_depth', async () => {
    site.hits.clear();
    const { status, body } = await crawl({
      url: site.origin,
      limit: 100,
      max_depth: 2,
      wait_ms: 30_000,
      max_chars: 100,
    });
    expect(status).toBe(200);
    expect(body).toMatchObject({ status: 'done', stop_reason: 'completed' });
    let pages = body.pages;
    let cursor = body.next_cursor;
    while (cursor !== undefined) {
      const next = await get(`/api/site-crawls/${body.id}?cursor=${cursor}&limit=100`);
      pages = pages.concat(next.body.pages);
      cursor = next.body.next_cursor;
    }
    const urls = pages.map((p: any) => new URL(p.url).pathname);
    expect(new Set(urls).size).toBe(urls.length);
    expect(pages).toHaveLength(body.progress.pages);
    // Each page once whichever spelling came first: the print copy (canonical), the old URL (a
    // redirect), the mirror (the same text under a new date line).
    const finals = pages.map((p: any) => new URL(p.final_url).pathname);
    expect(new Set(finals).size).toBe(finals.length);
    expect(urls).not.toContain('/print/tides');
    expect(urls.filter((u: string) => u === '/guide/ferries' || u === '/mirror/ferries')).toHaveLength(1);
    expect(body.progress.duplicates).toBeGreaterThanOrEqual(3);
    expect(urls.some((u: string) => u.startsWith('/private/'))).toBe(false);
    expect([...site.hits.keys()].some((p) => p.startsWith('/private/'))).toBe(false);
    // Depth and parent on every page; max_depth 2 cut the calendar.
    expect(pages.every((p: any) => p.depth <= 2)).toBe(true);
    expect(pages.find((p: any) => new URL(p.url).pathname === '/tree/1')).toMatchObject({
      depth: 2,
      parent: expect.stringMatching(/\/tree\/0$/),
    });
    expect(pages[0]).toMatchObject({ depth: 0, success: true });
    expect(pages[0].markdown.length).toBeLessThanOrEqual(100);
  });

  it('stops at limit, and a job started without wait answers 202 with its Location', async () => {
    const res = await api.post('/api/site-crawls', { url: site.origin, limit: 3 });
    expect(res.status).toBe(202);
    const started = (await res.json()) as any;
    expect(res.headers.get('location')).toBe(`/api/site-crawls/${started.id}`);
    let status = started;
    for (let i = 0; i < 100 && status.status === 'running'; i++) {
      status = (await get(`/api/site-crawls/${started.id}?wait_ms=500`)).body;
      if (status.status === 'running') await new Promise((r) => setTimeout(r, 100));
    }
    const final = (await get(`/api/site-crawls/${started.id}?limit=100`)).body;
    expect(final).toMatchObject({ status: 'done', stop_reason: 'limit' });
    expect(final.progress.pages).toBe(3);
    expect(final.pages).toHaveLength(3);
  });

  it('with a query, ranks the frontier best-first and gives each page its passages', async () => {
    const { body } = await crawl({
      url: site.origin,
      limit: 2,
      max_depth: 1,
      use_sitemap: false,
      query: 'ferries',
      wait_ms: 30_000,
    });
    expect(body.status).toBe('done');
    // Two pages: the link about the query, before every other link of the start page, and the start page.
    const paths = body.pages.map((p: any) => new URL(p.url).pathname).sort();
    expect(paths).toEqual(['/', '/guide/ferries']);
    const ferries = body.pages.find((p: any) => p.url.endsWith('/guide/ferries'));
    expect(ferries.passages.length).toBeGreaterThan(0);
    expect(ferries.markdown).toBe('');
  });

  it('charges each page delivered to the key, stops at "credits" without going below zero, files the records under the job', async () => {
    const { secret } = await keyed.core.keys.create({ name: 'crawler', credits: 3 });
    const auth = { authorization: `Bearer ${secret}` };
    const { status, body } = await crawlOn(keyed, { url: site.origin, limit: 20, wait_ms: 30_000 }, auth);
    expect(status).toBe(200);
    expect(body).toMatchObject({ status: 'done', stop_reason: 'credits' });
    expect(body.progress.succeeded).toBe(3);
    expect(body.progress.credits_used).toBe(3);
    const usage = await getOn(keyed, '/api/usage?limit=50', auth);
    expect(usage.body.balance).toBe(0);
    expect(usage.body.held_credits).toBe(0);
    const records = usage.body.records.filter((r: any) => r.request_id === body.id);
    expect(records).toHaveLength(3);
    expect(records.every((r: any) => r.operation === 'site_crawl' && r.credits === 1)).toBe(true);
    // Out of credits: the next crawl is refused before it starts.
    expect((await crawlOn(keyed, { url: site.origin }, auth)).status).toBe(402);
  });

  it("hides a job from other keys (404), cancels on DELETE, and refuses a key's third running crawl with 429", async () => {
    const a = await keyed.core.keys.create({ name: 'a', credits: 1000 });
    const b = await keyed.core.keys.create({ name: 'b', credits: 1000 });
    const slow = await startSmallSite({ latencyMs: 300, treePages: 60 });
    try {
      const authA = { authorization: `Bearer ${a.secret}` };
      const first = await crawlOn(keyed, { url: slow.origin, limit: 50 }, authA);
      const second = await crawlOn(keyed, { url: slow.origin, limit: 50 }, authA);
      expect([first.status, second.status]).toEqual([202, 202]);
      const third = await keyed.post('/api/site-crawls', { url: slow.origin }, authA);
      expect(third.status).toBe(429);
      expect(third.headers.get('retry-after')).toBe('30');
      expect(((await third.json()) as any).error.message).toMatch(/at most 2 at once/);
      const other = await getOn(keyed, `/api/site-crawls/${first.body.id}`, { authorization: `Bearer ${b.secret}` });
      expect(other.status).toBe(404);
      expect((await getOn(keyed, '/api/site-crawls/req_nothing', authA)).status).toBe(404);
      const cancelled = await json(
        await fetch(`${keyed.url}/api/site-crawls/${first.body.id}`, { method: 'DELETE', headers: authA }),
      );
      expect(cancelled.body).toMatchObject({ status: 'done', stop_reason: 'cancelled' });
      await fetch(`${keyed.url}/api/site-crawls/${second.body.id}`, { method: 'DELETE', headers: authA });
      // Once stopped, the key may start again.
      const again = await crawlOn(keyed, { url: slow.origin, limit: 1, wait_ms: 20_000 }, authA);
      expect(again.body).toMatchObject({ status: 'done', stop_reason: 'limit' });
    } finally {
      await slow.close();
    }
  });

  it('stops at its deadline (timeout_ms), and refuses a crawl past the server total with 429', async () => {
    const slow = await startSmallSite({ latencyMs: 400, treePages: 40 });
    const tight = await startTestApi({ cache: { ttlMs: 0 }, convert: { threads: 1 }, site: { maxJobs: 1 } });
    try {
      const started = Date.now();
      const first = await json(
        await tight.post('/api/site-crawls', { url: slow.origin, limit: 40, timeout_ms: 1_500 }),
      );
      expect(first.status).toBe(202);
      const refused = await tight.post('/api/site-crawls', { url: slow.origin });
      expect(refused.status).toBe(429);
      expect(((await refused.json()) as any).error.message).toMatch(/server already runs 1 site crawl/);
      let status = first.body;
      while (status.status === 'running')
        status = (await json(await fetch(`${tight.url}/api/site-crawls/${first.body.id}?wait_ms=1000&cursor=9999`)))
          .body;
      expect(status.stop_reason).toBe('deadline');
      expect(status.progress.pages).toBeLessThan(40);
      expect(Date.now() - started).toBeLessThan(10_000);
    } finally {
      await tight.close();
      await slow.close();
    }
  });

  it('spaces its requests by Crawl-delay', async () => {
    const polite = await startSmallSite({ crawlDelay: 0.4 });
    try {
      const started = Date.now();
      const { body } = await crawl({ url: polite.origin, limit: 4, use_sitemap: false, wait_ms: 30_000 });
      expect(body.progress.pages).toBe(4);
      expect(Date.now() - started).toBeGreaterThanOrEqual(1_100);
    } finally {
      await polite.close();
    }
  });

  it('refuses bad input with 400 and the offending path, a refused address included', async () => {
    for (const [body, path] of [
      [{ url: 'javascript:alert(1)' }, 'url'],
      [{ url: site.origin, limit: 1001 }, 'limit'],
      [{ url: site.origin, max_depth: -1 }, 'max_depth'],
      [{ url: site.origin, wait_ms: 60_001 }, 'wait_ms'],
      [{ url: site.origin, include_paths: ['x'.repeat(201)] }, 'include_paths.0'],
      [{ url: site.origin, format: 'html', query: 'x' }, 'query'],
    ] as const) {
      const { status, body: answer } = await crawl(body);
      expect(status, JSON.stringify(body)).toBe(400);
      expect(answer.error.details.map((d: any) => d.path)).toContain(path);
    }
    const strict = await startTestApi({ fetch: { allowPrivateAddresses: false } });
    try {
      const res = await strict.post('/api/site-crawls', { url: site.origin });
      expect(res.status).toBe(400);
      const answer = (await res.json()) as any;
      expect(answer.error.details[0].path).toBe('url');
      expect(answer.error.message).toMatch(/forbidden_address/);
      const mapped = await strict.post('/api/map', { url: site.origin });
      expect(mapped.status).toBe(400);
    } finally {
      await strict.close();
    }
  });
});
