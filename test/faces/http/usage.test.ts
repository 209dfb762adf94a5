/**
 * A key holder's own account: GET /api/usage (balance, credits held by requests in
 * progress, usage records newest first with request id, operation, URLs or query and
 * credits, page by page), open mode's answer, and X-Credits-Remaining on every metered
 * answer (/api/search GET and POST, /api/crawl), for keys with a balance only.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startFakeEngines, type FakeEngines } from '../../helpers/fake-engines.js';
import { startFixtureSite } from '../../helpers/fixture-site.js';
import type { TestApi } from '../../helpers/test-server.js';
import { startTestApi } from '../../helpers/test-server.js';

type Site = Awaited<ReturnType<typeof startFixtureSite>>;
let site: Site;
let engines: FakeEngines;
beforeAll(async () => {
  site = await startFixtureSite();
  engines = await startFakeEngines();
});
afterAll(async () => {
  await site?.close();
  await engines?.close();
});

const apis: TestApi[] = [];
afterEach(async () => {
  await Promise.all(apis.splice(0).map((a) => a.close().catch(() => undefined)));
});
async function api(): Promise<TestApi> {
  const started = await startTestApi({
    cache: { ttlMs: 0 },
    engines: engines.engineConfig,
    search: { duckduckgoIntervalMs: 0, cacheTtlMs: 0 },
  });
  apis.push(started);
  return started;
}

const get = (a: TestApi, path: string, secret?: string) =>
  fetch(`${a.url}${path}`, { headers: secret ? { authorization: `Bearer ${secret}` } : {} });

describe('GET /api/usage', () => {
  it("shows the calling key's balance, held credits and records, newest first, page by page", async () => {
    const a = await api();
    const { secret, record } = await a.core.keys.create({ name: 'team-a', credits: 50 });
    const other = await a.core.keys.create({ name: 'team-b', credits: 50 });
    const auth = { authorization: `Bearer ${secret}` };
    const crawl = await a.post('/api/crawl', { urls: [`${site.origin}/text`, `${site.origin}/json`] }, auth);
    expect(crawl.status).toBe(200);
    expect(crawl.headers.get('x-credits-remaining')).toBe('48');
    const search = await a.post('/api/search', { q: 'harbour tides', engines: ['wikipedia'] }, auth);
    expect(search.status).toBe(200);
    expect(search.headers.get('x-credits-remaining')).toBe('47');
    const searchGet = await get(a, '/api/search?q=moorings&engines=wikipedia', secret);
    expect(searchGet.headers.get('x-credits-remaining')).toBe('46');
    await a.post('/api/crawl', { urls: [`${site.origin}/text`] }, { authorization: `Bearer ${other.secret}` });

    const res = await get(a, '/api/usage', secret);
    expect(res.status).toBe(200);
    const usage = (await res.json()) as any;
    expect(usage).toMatchObject({
      metered: true,
      key: { id: record.id, name: 'team-a', prefix: record.prefix },
      balance: 46,
      held_credits: 0,
    });
    expect(usage.records.map((r: any) => [r.operation, r.credits, r.query ?? r.urls])).toEqual([
      ['search', 1, 'moorings'],
      ['search', 1, 'harbour tides'],
      ['crawl', 2, [`${site.origin}/text`, `${site.origin}/json`]],
    ]);
    expect(usage.records[2].request_id).toBe(crawl.headers.get('x-request-id'));
    expect(usage.records[0].at).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect(usage.next_cursor).toBeUndefined();

    const first = (await (await get(a, '/api/usage?limit=2', secret)).json()) as any;
    expect(first.records.map((r: any) => r.query ?? r.urls[0])).toEqual(['moorings', 'harbour tides']);
    const second = (await (await get(a, `/api/usage?limit=2&cursor=${first.next_cursor}`, secret)).json()) as any;
    expect(second.records.map((r: any) => r.operation)).toEqual(['crawl']);
    expect(second.next_cursor).toBeUndefined();
  });

  it("pages with an opaque cursor of the key's own: no shared row number, refused to another key or changed (400 naming cursor)", async () => {
    const a = await api();
    const one = await a.core.keys.create({ name: 'one' });
    const other = await a.core.keys.create({ name: 'other' });
    const crawlAs = async (secret: string) =>
      expect(
        (await a.post('/api/crawl', { urls: [`${site.origin}/text`] }, { authorization: `Bearer ${secret}` })).status,
      ).toBe(200);
    // The other key's requests fall between this key's: rows 1, 3, 4, 6 of the shared log.
    for (const secret of [one.secret, other.secret, one.secret, one.secret, other.secret, one.secret])
      await crawlAs(secret);
    const page = async (secret: string, query: string) => {
      const res = await get(a, `/api/usage?${query}`, secret);
      return { status: res.status, body: (await res.json()) as any };
    };
    const first = await page(one.secret, 'limit=2');
    const cursor = first.body.next_cursor as string;
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
    // The place of the last record shown among the key's own (3 of 4), not the shared row 4,
    // whose gap would tell of the other key's requests.
    expect(Buffer.from(cursor, 'base64url').readBigUInt64BE(0)).toBe(3n);
    const second = await page(one.secret, `limit=2&cursor=${cursor}`);
    expect(second.status).toBe(200);
    expect(second.body.records).toHaveLength(2);
    expect(second.body.next_cursor).toBeUndefined();

    const othersCursor = (await page(other.secret, 'limit=1')).body.next_cursor as string;
    const changed = Buffer.from(cursor, 'base64url');
    changed.writeBigUInt64BE(2n, 0);
    const lastFlipped = `${cursor.slice(0, -1)}${cursor.endsWith('A') ? 'B' : 'A'}`;
    for (const bad of [othersCursor, changed.toString('base64url'), lastFlipped, `${cursor}A`]) {
      const res = await page(one.secret, `limit=2&cursor=${bad}`);
      expect(res.status, bad).toBe(400);
      expect(res.body.error.code).toBe('invalid_request');
      expect(res.body.error.details.map((d: any) => d.path)).toEqual(['cursor']);
    }
  });

  it('counts the credits held by a request in progress', async () => {
    const a = await api();
    const { secret } = await a.core.keys.create({ name: 'slow', credits: 10 });
    const pending = a.post('/api/crawl', { urls: [`${site.origin}/delay/800`] }, { authorization: `Bearer ${secret}` });
    await new Promise((r) => setTimeout(r, 300));
    const during = (await (await get(a, '/api/usage', secret)).json()) as any;
    expect(during.held_credits).toBeGreaterThan(0);
    expect((await pending).status).toBe(200);
    const after = (await (await get(a, '/api/usage', secret)).json()) as any;
    expect(after).toMatchObject({ held_credits: 0, balance: 9 });
  });

  it('refuses a bad page request by path, and a missing or unknown key with 401', async () => {
    const a = await api();
    const { secret } = await a.core.keys.create({ name: 'x', credits: 1 });
    for (const query of ['limit=0', 'limit=101', 'limit=many', 'cursor=abc', 'cursor=-1', 'page=2']) {
      const res = await get(a, `/api/usage?${query}`, secret);
      expect(res.status, query).toBe(400);
      const body = (await res.json()) as any;
      expect(body.error.code).toBe('invalid_request');
      // A known parameter is named by its path; an unknown one in the message of the query's own issue.
      expect(JSON.stringify(body.error.details), query).toContain(query.split('=')[0]);
    }
    expect((await get(a, '/api/usage')).status).toBe(401);
    expect((await get(a, '/api/usage', `wsk_${'Z'.repeat(43)}`)).status).toBe(401);
    const post = await fetch(`${a.url}/api/usage`, { method: 'POST', headers: { authorization: `Bearer ${secret}` } });
    expect(post.status).toBe(405);
  });

  it('says an unlimited key has no balance and sends no X-Credits-Remaining for it', async () => {
    const a = await api();
    const { secret } = await a.core.keys.create({ name: 'unlimited' });
    const res = await a.post('/api/crawl', { urls: [`${site.origin}/text`] }, { authorization: `Bearer ${secret}` });
    expect(res.status).toBe(200);
    expect(res.headers.has('x-credits-remaining')).toBe(false);
    expect(await (await get(a, '/api/usage', secret)).json()).toMatchObject({ metered: true, balance: null });
  });

  it('in open mode (no key ever created) answers metered: false with no records, and no header', async () => {
    const a = await api();
    const crawl = await a.post('/api/crawl', { urls: [`${site.origin}/text`] });
    expect(crawl.status).toBe(200);
    expect(crawl.headers.has('x-credits-remaining')).toBe(false);
    const res = await get(a, '/api/usage');
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ metered: false, balance: null, held_credits: 0, records: [] });
  });
});
