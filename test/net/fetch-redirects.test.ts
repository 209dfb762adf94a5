/**
 * Redirects followed by hand (RFC 9110 15.4): hop limit, loops, method rewriting,
 * credential headers across origins, a 3xx without a usable Location, and one returned
 * unfollowed on request.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../../src/core/errors.js';
import { GuardedFetcher } from '../../src/net/guarded-fetcher.js';
import { fetchConfig } from '../helpers/fetch-config.js';
import { startFixtureSite, type FixtureSite } from '../helpers/fixture-site.js';

let site: FixtureSite;
let client: GuardedFetcher;
const u = (path: string) => `${site.origin}${path}`;
const json = (bytes: Uint8Array) =>
  JSON.parse(new TextDecoder().decode(bytes)) as { method: string; headers: Record<string, string>; body: string };

beforeAll(async () => {
  site = await startFixtureSite();
  client = new GuardedFetcher(fetchConfig({ allowPrivateAddresses: true, timeoutMs: 5_000 }));
});
afterAll(async () => {
  await client?.close();
  await site?.close();
});

describe('hop limit', () => {
  it('follows n hops and reports every URL visited', async () => {
    const res = await client.fetch(u('/redirect/3'));
    expect(res.status).toBe(200);
    expect(res.url).toBe(u('/redirect/3'));
    expect(res.finalUrl).toBe(u('/html'));
    expect(res.redirects).toEqual([u('/redirect/3'), u('/redirect/2'), u('/redirect/1')]);
  });

  it('follows exactly maxRedirects (5) hops', async () => {
    const res = await client.fetch(u('/redirect/5'));
    expect(res.finalUrl).toBe(u('/html'));
    expect(res.redirects).toHaveLength(5);
  });

  it('fails on the 6th hop with the last 3xx status', async () => {
    const before = site.hits('/html');
    const error = (await client.fetch(u('/redirect/6?status=301')).catch((e: unknown) => e)) as AppError;
    expect(error).toMatchObject({ code: 'too_many_redirects', statusCode: 301 });
    expect(error.message).toMatch(/more than 5 redirects/);
    expect(site.hits('/html')).toBe(before);
  });

  it('honours a per-request maxRedirects, including 0', async () => {
    await expect(client.fetch(u('/redirect/2'), { maxRedirects: 1 })).rejects.toMatchObject({
      code: 'too_many_redirects',
      statusCode: 302,
    });
    await expect(client.fetch(u('/redirect/1'), { maxRedirects: 0 })).rejects.toMatchObject({
      code: 'too_many_redirects',
    });
    expect((await client.fetch(u('/redirect/2'), { maxRedirects: 2 })).status).toBe(200);
  });

  it("returns a redirect as the answer with redirect: 'manual' (a browser's navigation), nothing more requested", async () => {
    const before = site.hits('/redirect/1');
    const res = await client.fetch(u('/redirect/2'), { redirect: 'manual' });
    expect(res).toMatchObject({ status: 302, finalUrl: u('/redirect/2'), redirects: [] });
    expect(res.headers.location).toBe('/redirect/1');
    expect(site.hits('/redirect/1')).toBe(before);
  });

  it('detects a loop at once', async () => {
    const before = site.hits('/redirect-loop');
    const error = (await client.fetch(u('/redirect-loop')).catch((e: unknown) => e)) as AppError;
    expect(error).toMatchObject({ code: 'too_many_redirects', statusCode: 302 });
    expect(error.message).toMatch(/redirect loop/);
    expect(site.hits('/redirect-loop') - before).toBe(1);
  });
});

describe('methods and bodies', () => {
  it('303 turns a POST into a GET without body', async () => {
    const res = await client.fetch(u('/redirect/1?status=303&to=/echo'), {
      method: 'POST',
      body: 'a=1',
      headers: { 'content-type': 'text/plain' },
    });
    const echoed = json(res.body);
    expect(echoed.method).toBe('GET');
    expect(echoed.body).toBe('');
    expect(echoed.headers['content-type']).toBeUndefined();
  });

  it.each([301, 302])('%i turns a POST into a GET', async (status) => {
    const res = await client.fetch(u(`/redirect/1?status=${status}&to=/echo`), { method: 'POST', body: 'a=1' });
    expect(json(res.body).method).toBe('GET');
  });

  it.each([307, 308])('%i keeps the method and the body', async (status) => {
    const res = await client.fetch(u(`/redirect/1?status=${status}&to=/echo`), {
      method: 'POST',
      body: 'a=1',
      headers: { 'content-type': 'text/plain' },
    });
    expect(json(res.body)).toMatchObject({ method: 'POST', body: 'a=1' });
    expect(json(res.body).headers['content-type']).toBe('text/plain');
  });

  it('303 keeps HEAD as HEAD', async () => {
    const res = await client.fetch(u('/redirect/1?status=303'), { method: 'HEAD' });
    expect(res.status).toBe(200);
    expect(site.requests().at(-1)).toMatchObject({ method: 'HEAD', path: '/html' });
  });
});

describe('credentials across origins', () => {
  const secret = { authorization: 'Bearer s3cret', cookie: 'session=1', 'x-keep': 'yes' };

  it('keeps Authorization and Cookie on the same origin', async () => {
    const res = await client.fetch(u('/redirect/1?to=/echo'), { headers: secret });
    expect(json(res.body).headers).toMatchObject(secret);
  });

  it('drops Authorization and Cookie when the origin changes', async () => {
    const other = `http://localhost:${site.port}/echo`;
    const res = await client.fetch(u(`/redirect-to?url=${encodeURIComponent(other)}`), { headers: secret });
    expect(res.finalUrl).toBe(other);
    const headers = json(res.body).headers;
    expect(headers.authorization).toBeUndefined();
    expect(headers.cookie).toBeUndefined();
    expect(headers['x-keep']).toBe('yes');
  });
});

describe('unusual Location headers', () => {
  it('returns a 3xx without Location as is', async () => {
    const res = await client.fetch(u('/status/302'));
    expect(res.status).toBe(302);
    expect(res.redirects).toEqual([]);
    expect(new TextDecoder().decode(res.body)).toBe('Status 302');
  });

  it('returns a 3xx whose Location is not a URL as is', async () => {
    const res = await client.fetch(u(`/redirect-to?url=${encodeURIComponent('http://[::1')}`));
    expect(res.status).toBe(302);
  });

  it('does not follow 300 or 304', async () => {
    expect((await client.fetch(u('/redirect-to?status=300&url=/html'))).status).toBe(300);
  });

  it('resolves relative Locations and inherits the fragment (RFC 9110 10.2.2)', async () => {
    const res = await client.fetch(u('/redirect-to?url=text#notes'));
    expect(res.finalUrl).toBe(u('/text#notes'));
    expect(res.status).toBe(200);
  });
});

describe('the onRedirect hook', () => {
  it('is called with each target before it is requested, with where from, the status and the deadline', async () => {
    const ctx = { deadline: Date.now() + 5_000, signal: new AbortController().signal };
    const seen: { target: string; from: string; status: number; deadline: number; requested: number }[] = [];
    const res = await client.fetch(u('/redirect/2?status=307'), {
      ctx,
      onRedirect: (target, hop) => {
        seen.push({
          target: target.href,
          from: hop.from.href,
          status: hop.status,
          deadline: hop.ctx.deadline,
          requested: site.hits(target.pathname),
        });
      },
    });
    expect(res.finalUrl).toBe(u('/html'));
    expect(seen.map(({ target, from, status }) => ({ target, from, status }))).toEqual([
      { target: u('/redirect/1?status=307'), from: u('/redirect/2?status=307'), status: 307 },
      { target: u('/html'), from: u('/redirect/1?status=307'), status: 307 },
    ]);
    // Under the caller's deadline, and each target not yet asked for when the hook ran.
    for (const hop of seen) expect(hop.deadline).toBeLessThanOrEqual(ctx.deadline);
    expect(seen[1]!.requested).toBe(site.hits('/html') - 1);
  });

  it('refuses a hop by throwing: the target is never requested and the error comes back unchanged', async () => {
    const before = site.hits('/private/page');
    const refusal = new AppError('robots_disallowed', 'no thanks', { statusCode: 0 });
    const error = await client
      .fetch(u('/redirect/1?to=/private/page'), {
        onRedirect: async (target) => {
          if (target.pathname === '/private/page') throw refusal;
        },
      })
      .catch((e: unknown) => e);
    expect(error).toBe(refusal);
    expect(site.hits('/private/page')).toBe(before);
  });

  it('is not called without a redirect', async () => {
    let calls = 0;
    await client.fetch(u('/html'), { onRedirect: () => void calls++ });
    expect(calls).toBe(0);
  });
});
