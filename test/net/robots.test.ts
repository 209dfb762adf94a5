/**
 * RobotsChecker (RFC 9309) against the fixture site, through the real GuardedFetcher.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { deadlineIn } from '../../src/core/request-context.js';
import type { Config } from '../../src/core/config.js';
import { GuardedFetcher } from '../../src/net/guarded-fetcher.js';
import { RobotsChecker, robotsText, TIMEOUT_TTL_MS, UNREACHABLE_TTL_MS } from '../../src/net/robots.js';
import { fetchConfig, robotsConfig } from '../helpers/fetch-config.js';
import { send } from '../helpers/fixture-scenarios.js';
import { startFixtureSite, type FixtureSite, type FixtureSiteOptions } from '../helpers/fixture-site.js';
import { MemoryStore } from '../../src/store/memory-store.js';

const TOKEN = 'websearch-mcp';
let client: GuardedFetcher;
let site: FixtureSite;
const cleanups: Array<() => Promise<void>> = [];

async function siteWith(options: FixtureSiteOptions): Promise<FixtureSite> {
  const own = await startFixtureSite(options);
  cleanups.push(() => own.close());
  return own;
}

function checker(overrides: Partial<Config['robots']> = {}, token = TOKEN, now?: () => number): RobotsChecker {
  return new RobotsChecker(client, robotsConfig({ timeoutMs: 2_000, ...overrides }), token, { now });
}

beforeAll(async () => {
  client = new GuardedFetcher(fetchConfig({ allowPrivateAddresses: true }));
  site = await startFixtureSite();
});
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});
afterAll(async () => {
  await client?.close();
  await site?.close();
});

describe('2xx: parse and match', () => {
  it('applies the group of our product token', async () => {
    const robots = checker();
    expect(await robots.check(`${site.origin}/html`)).toEqual({ allowed: true, source: 'parsed', status: 200 });
    expect(await robots.check(`${site.origin}/no-bot/page`)).toEqual({ allowed: false, source: 'parsed', status: 200 });
    expect(await robots.check(`${site.origin}/private/page`)).toMatchObject({ allowed: false, source: 'parsed' });
  });

  it('falls back to the * group for another token', async () => {
    const robots = checker({}, 'otherbot');
    expect((await robots.check(`${site.origin}/no-bot/page`)).allowed).toBe(true);
    expect((await robots.check(`${site.origin}/private/page`)).allowed).toBe(false);
  });

  it('matches the product token case-insensitively (2.2.1)', async () => {
    expect((await checker({}, 'WebSearch-MCP').check(`${site.origin}/no-bot/page`)).allowed).toBe(false);
  });

  it('uses the longest match, Allow winning a tie, with * and $ (2.2.2)', async () => {
    const own = await siteWith({
      robots: {
        body: 'User-agent: *\nDisallow: /docs/\nAllow: /docs/public/\nDisallow: /*.json$\nAllow: /page\nDisallow: /page\n',
      },
    });
    const robots = checker();
    const allowed = async (path: string) => (await robots.check(`${own.origin}${path}`)).allowed;
    expect(await allowed('/docs/secret')).toBe(false);
    expect(await allowed('/docs/public/x')).toBe(true);
    expect(await allowed('/data.json')).toBe(false);
    expect(await allowed('/data.json?x=1')).toBe(true);
    expect(await allowed('/page')).toBe(true);
  });

  it('always allows /robots.txt itself, without fetching', async () => {
    const own = await siteWith({ robots: { body: 'User-agent: *\nDisallow: /\n' } });
    expect(await checker().check(`${own.origin}/robots.txt`)).toEqual({ allowed: true, source: 'self' });
    expect(own.hits('/robots.txt')).toBe(0);
  });

  it('follows a redirect and applies the rules to the original authority (2.3.1.2)', async () => {
    const own = await siteWith({ robots: 'redirect' });
    const robots = checker();
    expect(await robots.check(`${own.origin}/private/page`)).toMatchObject({ allowed: false, source: 'parsed' });
    expect(own.hits('/robots-moved.txt')).toBe(1);
  });

  it('keeps the original authority when the redirect leaves the origin', async () => {
    const own = await siteWith({
      scenarios: [
        {
          path: '/robots.txt',
          description: 'robots.txt moved to another origin (localhost instead of 127.0.0.1)',
          handle: (c) =>
            send(c.res, 301, 'text/plain', '', { location: `http://localhost:${c.url.port}/robots-moved.txt` }),
        },
      ],
    });
    const verdict = await checker().check(`${own.origin}/private/page`);
    expect(verdict).toMatchObject({ allowed: false, source: 'parsed', status: 200 });
    expect(own.hits('/robots-moved.txt')).toBe(1);
  });

  it('parses the first 500 KiB of a larger file instead of failing (2.5)', async () => {
    const own = await siteWith({ robots: 'huge' });
    const robots = checker();
    expect(await robots.check(`${own.origin}/no-bot/page`)).toMatchObject({ allowed: false, source: 'parsed' });
    // The /after-cut/ rule lies beyond 500 KiB: never seen, so allowed.
    expect(await robots.check(`${own.origin}/after-cut/page`)).toMatchObject({ allowed: true, source: 'parsed' });
    // With a larger parse limit the same file disallows it: the cut is what allowed it.
    const wide = checker({ maxBytes: 2 * 1024 * 1024 });
    expect((await wide.check(`${own.origin}/after-cut/page`)).allowed).toBe(false);
  });
});

describe('status handling (2.3.1.3, 2.3.1.4)', () => {
  it.each(['404', '401', '403'] as const)('%s → everything allowed', async (mode) => {
    const own = await siteWith({ robots: mode });
    expect(await checker().check(`${own.origin}/private/page`)).toEqual({
      allowed: true,
      source: 'missing',
      status: Number(mode),
    });
  });

  it.each(['500', '503', '429'] as const)('%s → everything disallowed', async (mode) => {
    const own = await siteWith({ robots: mode });
    expect(await checker().check(`${own.origin}/html`)).toEqual({
      allowed: false,
      source: 'unreachable',
      status: Number(mode),
    });
  });

  it('a timeout → everything disallowed, with the error', async () => {
    const own = await siteWith({ robots: 'timeout' });
    const started = Date.now();
    const verdict = await checker({ timeoutMs: 300 }).check(`${own.origin}/html`);
    expect(verdict).toMatchObject({ allowed: false, source: 'unreachable', error: { code: 'timeout' } });
    expect(verdict.status).toBeUndefined();
    expect(Date.now() - started).toBeLessThan(6_000);
  });

  it('a network error → everything disallowed', async () => {
    expect(await checker().check('http://127.0.0.1:1/html')).toMatchObject({
      allowed: false,
      source: 'unreachable',
      error: { code: 'network' },
    });
  });

  it('a forbidden address → unreachable (disallowed), carrying the forbidden_address error, with no connection', async () => {
    const strict = new GuardedFetcher(fetchConfig());
    cleanups.push(() => strict.close());
    const before = site.connections();
    const verdict = await new RobotsChecker(strict, robotsConfig(), TOKEN).check(`${site.origin}/html`);
    expect(verdict).toMatchObject({ allowed: false, source: 'unreachable', error: { code: 'forbidden_address' } });
    expect(verdict.status).toBeUndefined();
    expect(site.connections()).toBe(before);
  });

  it('more than 5 redirects → treated as unavailable (allowed)', async () => {
    const own = await siteWith({
      scenarios: [
        {
          path: '/robots.txt',
          description: 'endless robots redirects',
          handle: (c) =>
            send(c.res, 302, 'text/plain', '', {
              location: `/robots.txt?n=${Number(c.url.searchParams.get('n') ?? 0) + 1}`,
            }),
        },
      ],
    });
    expect(await checker().check(`${own.origin}/html`)).toEqual({ allowed: true, source: 'missing', status: 302 });
    expect(own.hits('/robots.txt')).toBe(6);
  });

  it('decodes UTF-8 and ignores a BOM', async () => {
    const own = await siteWith({ robots: { body: '\uFEFFUser-agent: *\nDisallow: /caf%C3%A9/\n' } });
    const robots = checker();
    expect((await robots.check(`${own.origin}/café/menu`)).allowed).toBe(false);
    expect((await robots.check(`${own.origin}/cafe/menu`)).allowed).toBe(true);
  });
});

describe('cache', () => {
  it('fetches once for many sequential checks of one origin', async () => {
    const own = await siteWith({});
    const robots = checker();
    for (const path of ['/html', '/text', '/private/page', '/no-bot/page', '/csv'])
      await robots.check(`${own.origin}${path}`);
    expect(own.hits('/robots.txt')).toBe(1);
    expect(robots.cachedOrigins).toBe(1);
  });

  it('shares one in-flight fetch among concurrent checks', async () => {
    const own = await siteWith({});
    const robots = checker();
    const verdicts = await Promise.all(Array.from({ length: 20 }, (_, i) => robots.check(`${own.origin}/page-${i}`)));
    expect(verdicts.every((v) => v.allowed && v.source === 'parsed')).toBe(true);
    expect(own.hits('/robots.txt')).toBe(1);
  });

  it('refetches after the TTL', async () => {
    const own = await siteWith({});
    let now = 1_000_000;
    const robots = checker({ cacheTtlMs: 60_000 }, TOKEN, () => now);
    await robots.check(`${own.origin}/html`);
    now += 59_999;
    await robots.check(`${own.origin}/html`);
    expect(own.hits('/robots.txt')).toBe(1);
    now += 1;
    await robots.check(`${own.origin}/html`);
    expect(own.hits('/robots.txt')).toBe(2);
  });

  it('remembers an unreachable robots.txt only briefly', async () => {
    const own = await siteWith({ robots: '503' });
    let now = 0;
    const robots = checker({ cacheTtlMs: 24 * 3600_000 }, TOKEN, () => now);
    await robots.check(`${own.origin}/html`);
    now += UNREACHABLE_TTL_MS - 1;
    await robots.check(`${own.origin}/html`);
    expect(own.hits('/robots.txt')).toBe(1);
    now += 1;
    await robots.check(`${own.origin}/html`);
    expect(own.hits('/robots.txt')).toBe(2);
  });

  it('remembers a robots.txt that timed out for less time still', async () => {
    const own = await siteWith({ robots: 'timeout' });
    let now = 0;
    const robots = checker({ cacheTtlMs: 24 * 3600_000, timeoutMs: 200 }, TOKEN, () => now);
    expect(await robots.check(`${own.origin}/html`)).toMatchObject({
      allowed: false,
      source: 'unreachable',
      error: { code: 'timeout' },
    });
    now += TIMEOUT_TTL_MS - 1;
    await robots.check(`${own.origin}/html`);
    expect(own.hits('/robots.txt')).toBe(1);
    now += 1;
    await robots.check(`${own.origin}/html`);
    expect(own.hits('/robots.txt')).toBe(2);
    expect(TIMEOUT_TTL_MS).toBeLessThan(UNREACHABLE_TTL_MS);
  });

  it('keys the cache by origin and bounds it by cacheEntries', async () => {
    const own = await siteWith({});
    const robots = checker({ cacheEntries: 1 });
    const viaIp = `${own.origin}/html`;
    const viaName = `http://localhost:${own.port}/html`;
    await robots.check(viaIp);
    await robots.check(viaName); // another origin: evicts the first
    await robots.check(viaIp);
    expect(own.hits('/robots.txt')).toBe(3);
    expect(robots.cachedOrigins).toBe(1);
  });
});

describe('other behaviour', () => {
  it('disabled → always allowed, nothing fetched', async () => {
    const own = await siteWith({ robots: { body: 'User-agent: *\nDisallow: /\n' } });
    expect(await checker({ enabled: false }).check(`${own.origin}/private/page`)).toEqual({
      allowed: true,
      source: 'disabled',
    });
    expect(own.hits('/robots.txt')).toBe(0);
  });

  it('a caller that gives up gets "cancelled"; the shared fetch still serves the others', async () => {
    const own = await siteWith({ robots: 'timeout' });
    const robots = checker({ timeoutMs: 400 });
    const controller = new AbortController();
    const impatient = robots.check(`${own.origin}/a`, deadlineIn(60_000, controller.signal));
    const patient = robots.check(`${own.origin}/b`);
    controller.abort();
    await expect(impatient).rejects.toMatchObject({ code: 'cancelled' });
    expect(await patient).toMatchObject({ allowed: false, source: 'unreachable' });
    expect(own.hits('/robots.txt')).toBe(1);
  });

  it('refuses URLs that are not http(s)', async () => {
    await expect(checker().check('ftp://example.com/x')).rejects.toMatchObject({ code: 'invalid_url' });
    await expect(checker().check('nonsense')).rejects.toMatchObject({ code: 'invalid_url' });
  });
});

describe('robotsText', () => {
  const bytes = (s: string) => new TextEncoder().encode(s);

  it('drops the BOM and keeps a complete file as is', () => {
    expect(robotsText(bytes('\uFEFFUser-agent: *\nDisallow: /x'), 1_000)).toBe('User-agent: *\nDisallow: /x');
  });

  it('drops a half line cut by truncation', () => {
    const text = 'User-agent: *\nDisallow: /private/\nDisallow: /fo';
    expect(robotsText(bytes(text), text.length)).toBe('User-agent: *\nDisallow: /private/\n');
  });
});

describe('the shared cache (the store)', () => {
  function sharedChecker(shared: MemoryStore, now?: () => number): RobotsChecker {
    return new RobotsChecker(client, robotsConfig({ timeoutMs: 2_000 }), TOKEN, {
      shared: shared.cache('robots'),
      ...(now ? { now } : {}),
    });
  }

  it('fetches an origin once for every checker sharing it, and parses the stored file the same way', async () => {
    const own = await siteWith({});
    const store = new MemoryStore();
    const first = sharedChecker(store);
    expect(await first.check(`${own.origin}/no-bot/page`)).toEqual({ allowed: false, source: 'parsed', status: 200 });
    // Another process: its own in-process cache is empty, the store is not.
    const second = sharedChecker(store);
    expect(await second.check(`${own.origin}/no-bot/page`)).toEqual({ allowed: false, source: 'parsed', status: 200 });
    expect(await second.check(`${own.origin}/html`)).toEqual({ allowed: true, source: 'parsed', status: 200 });
    expect(own.hits('/robots.txt')).toBe(1);
  });

  it('shares an unreachable verdict with its cause, and only for the short time', async () => {
    const own = await siteWith({ robots: '503' });
    const store = new MemoryStore();
    let now = Date.now();
    const clock = () => now;
    expect(await sharedChecker(store, clock).check(`${own.origin}/html`)).toMatchObject({
      allowed: false,
      source: 'unreachable',
      status: 503,
    });
    expect(await sharedChecker(store, clock).check(`${own.origin}/html`)).toMatchObject({
      allowed: false,
      source: 'unreachable',
      status: 503,
    });
    expect(own.hits('/robots.txt')).toBe(1);
    now += UNREACHABLE_TTL_MS + 1;
    await sharedChecker(store, clock).check(`${own.origin}/html`);
    expect(own.hits('/robots.txt')).toBe(2);

    const refused = new MemoryStore();
    const network = await sharedChecker(refused).check('http://127.0.0.1:1/html');
    const again = await sharedChecker(refused).check('http://127.0.0.1:1/html');
    expect(again).toMatchObject({
      allowed: false,
      source: 'unreachable',
      error: { code: network.error?.code, message: network.error?.message },
    });
    expect(again.error).toBeInstanceOf(Error);
    expect(again.error?.code).toBe('network');
  });
});
