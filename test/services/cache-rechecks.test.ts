/**
 * A cached copy answers only where this server could fetch the page now. Servers sharing one
 * store may differ in their address policy (WEBSEARCH_ALLOW_PRIVATE_ADDRESSES): a server that
 * refuses an address never serves a copy another fetched from it, whether the refused host is
 * the URL's, its final URL's, or a name that resolves to it; the URL fails as its own fetch
 * would, uncharged. And a copy whose robots.txt verdict is older than a robots.txt copy may be
 * kept (robots.cacheTtlMs, RFC 9309 2.4), or of unknown age, is served only once robots.txt
 * still allows it; a younger one is served without asking robots.txt again.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseAllowedOrigins } from '../../src/core/allowed-origins.js';
import type { Config } from '../../src/core/config.js';
import { silentLogger } from '../../src/core/logger.js';
import type { CacheStore } from '../../src/core/ports/cache-port.js';
import { systemResolver, type Resolver } from '../../src/net/connector.js';
import { GuardedFetcher } from '../../src/net/guarded-fetcher.js';
import { RobotsChecker } from '../../src/net/robots.js';
import type { ExtractedPage } from '../../src/services/pages/extracted-page.js';
import { PageExtractor } from '../../src/services/pages/page-extractor.js';
import { MemoryStore } from '../../src/store/memory-store.js';
import { InThreadConverter } from '../../src/workers/in-thread-converter.js';
import { send } from '../helpers/fixture-scenarios.js';
import { startFixtureSite, type FixtureSite } from '../helpers/fixture-site.js';
import { testContext } from '../helpers/request-context.js';
import { startTestApi, testConfig, type TestApi } from '../helpers/test-server.js';

let site: FixtureSite;
let other: FixtureSite;
/** A site whose robots.txt the test rewrites. */
let changing: FixtureSite;
let robotsTxt = 'User-agent: *\nAllow: /\n';
let dir: string;
/** Three servers on one store: private addresses allowed, refused, and allowed for `site` alone. */
let open: TestApi;
let strict: TestApi;
let listed: TestApi;

beforeAll(async () => {
  [site, other, changing] = await Promise.all([
    startFixtureSite(),
    startFixtureSite(),
    startFixtureSite({
      scenarios: [
        {
          path: '/robots.txt',
          description: 'robots.txt as the test has it now',
          handle: (c) => send(c.res, 200, 'text/plain', robotsTxt),
        },
      ],
    }),
  ]);
  dir = mkdtempSync(join(tmpdir(), 'cache-rechecks-'));
  const store = { path: join(dir, 'store.sqlite') };
  open = await startTestApi({ store });
  [strict, listed] = await Promise.all([
    startTestApi({ store, fetch: { allowPrivateAddresses: false } }),
    startTestApi({ store, fetch: { allowPrivateAddresses: parseAllowedOrigins(`127.0.0.1:${site.port}`) as never } }),
  ]);
});
afterAll(async () => {
  await Promise.all([open?.close(), strict?.close(), listed?.close()]);
  await Promise.all([site?.close(), other?.close(), changing?.close()]);
  if (dir) rmSync(dir, { recursive: true, force: true });
});

async function crawlOne(on: TestApi, url: string) {
  const { status, json } = await on.crawl({ urls: [url] });
  expect(status).toBe(200);
  return { result: json.results[0], metadata: json.metadata };
}

describe('servers of different address policies on one store', () => {
  it("a server that refuses the page's address does not serve another's copy: forbidden_address, uncharged", async () => {
    const url = `${site.origin}/html`;
    const fetched = await crawlOne(open, url);
    expect(fetched.result).toMatchObject({ success: true, from_cache: false });
    const hits = site.hits('/html');

    const refused = await crawlOne(strict, url);
    expect(refused.result).toMatchObject({ success: false, status_code: 0, error_type: 'forbidden_address' });
    expect(refused.result).not.toHaveProperty('from_cache');
    expect(refused.metadata).toMatchObject({ credits_used: 0, cached_free: 0 });
    expect(site.hits('/html')).toBe(hits);

    // A server whose list allows the address is served the copy (free).
    const served = await crawlOne(listed, url);
    expect(served.result).toMatchObject({ success: true, from_cache: true });
    expect(served.metadata).toMatchObject({ credits_used: 0, cached_free: 1 });
    expect(site.hits('/html')).toBe(hits);
  });

  it("a copy whose final URL is on a refused address is not served: the URL's own fetch is refused", async () => {
    const url = `${site.origin}/redirect-to?url=${encodeURIComponent(`${other.origin}/text`)}`;
    const fetched = await crawlOne(open, url);
    expect(fetched.result).toMatchObject({ success: true, final_url: `${other.origin}/text` });
    const hits = other.hits('/text');

    const refused = await crawlOne(listed, url);
    expect(refused.result).toMatchObject({ success: false, status_code: 0, error_type: 'forbidden_address' });
    expect(refused.result).not.toHaveProperty('from_cache');
    expect(refused.metadata.credits_used).toBe(0);
    expect(other.hits('/text')).toBe(hits);
  });
});

describe("a copy's robots.txt verdict has the lifetime of a robots.txt copy", () => {
  it('past it, robots.txt is asked again: a path it now disallows fails robots_disallowed, uncharged, unfetched', async () => {
    const quick = await startTestApi({ robots: { cacheTtlMs: 300 } });
    try {
      robotsTxt = 'User-agent: *\nAllow: /\n';
      const url = `${changing.origin}/html`;
      expect((await crawlOne(quick, url)).result).toMatchObject({ success: true, from_cache: false });
      robotsTxt = 'User-agent: *\nDisallow: /html\n';
      await new Promise((resolve) => setTimeout(resolve, 400));
      const hits = changing.hits('/html');
      const { result, metadata } = await crawlOne(quick, url);
      expect(result).toMatchObject({ success: false, status_code: 0, error_type: 'robots_disallowed' });
      expect(result).not.toHaveProperty('from_cache');
      expect(metadata.credits_used).toBe(0);
      expect(changing.hits('/html')).toBe(hits);
    } finally {
      await quick.close();
    }
  });
});

describe('the checks of a hit in the services', () => {
  /** One extractor over `cache`, its fetcher and its cache checks resolving names with `resolver`. */
  function extractor(config: Config, cache: CacheStore<ExtractedPage>, resolver: Resolver) {
    const client = new GuardedFetcher(config.fetch, { resolver });
    let robotsLookups = 0;
    const robots = new RobotsChecker(client, config.robots, config.fetch.productToken, {
      onLookup: () => void robotsLookups++,
    });
    const pages = new PageExtractor({
      config,
      client,
      robots,
      cache,
      converter: new InThreadConverter(),
      logger: silentLogger,
      resolver,
    });
    return {
      extract: (url: string) => pages.extract(testContext({ timeoutMs: 5_000 }), url, { format: 'markdown' }),
      robotsLookups: () => robotsLookups,
      close: () => client.close(),
    };
  }

  /** intranet.test is a name on this machine's private network: it resolves to loopback. */
  const resolved: string[] = [];
  const intranet: Resolver = async (host) => {
    resolved.push(host);
    return host === 'intranet.test' ? [{ address: '127.0.0.1', family: 4 }] : systemResolver(host);
  };
  const nowhere: Resolver = async (host) => {
    if (host === 'intranet.test')
      throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
    return systemResolver(host);
  };

  it("a name that resolves to a refused address: the hit resolves it and refuses it; the copy's own policy needs no lookup", async () => {
    const cache = new MemoryStore().cache<ExtractedPage>('page');
    const url = `http://intranet.test:${site.port}/html`;
    const allowed = parseAllowedOrigins(`intranet.test:${site.port}`);
    const lister = extractor(testConfig({ fetch: { allowPrivateAddresses: allowed as never } }), cache, intranet);
    const refuser = extractor(testConfig({ fetch: { allowPrivateAddresses: false } }), cache, intranet);
    const elsewhere = extractor(testConfig({ fetch: { allowPrivateAddresses: false } }), cache, nowhere);
    try {
      expect(await lister.extract(url)).toMatchObject({ ok: true, fromCache: false });
      // Fetched under this very policy: served without a second lookup.
      resolved.length = 0;
      expect(await lister.extract(url)).toMatchObject({ ok: true, fromCache: true });
      expect(resolved).toEqual([]);

      const refused = await refuser.extract(url);
      expect(refused).toMatchObject({ ok: false, error: { code: 'forbidden_address' } });
      expect(resolved).toContain('intranet.test');
      // A server that cannot resolve the name cannot judge the copy: not served, its fetch fails.
      expect(await elsewhere.extract(url)).toMatchObject({ ok: false, error: { code: 'network' } });
    } finally {
      await Promise.all([lister.close(), refuser.close(), elsewhere.close()]);
    }
  });

  it('a verdict of unknown age or past the lifetime is asked again; a younger one is trusted without asking', async () => {
    const cache = new MemoryStore().cache<ExtractedPage>('page');
    const first = extractor(testConfig(), cache, systemResolver);
    try {
      expect(await first.extract(`${site.origin}/html`)).toMatchObject({ ok: true, fromCache: false });
      const copy = (await cache.get(`page:markdown:${site.origin}/html`))!;
      expect(Date.now() - Date.parse(copy.robotsCheckedAt!)).toBeLessThan(60_000);
      // The same copy, as if cached for a path robots.txt disallows (/private/: DEFAULT_ROBOTS_TXT).
      const privateUrl = `${site.origin}/private/page`;
      const planted = (robotsCheckedAt: string | undefined): Promise<void> => {
        const { robotsCheckedAt: _dropped, ...rest } = copy;
        const entry = { ...rest, finalUrl: privateUrl, ...(robotsCheckedAt ? { robotsCheckedAt } : {}) };
        return cache.set(`page:markdown:${privateUrl}`, entry, 60_000);
      };
      const day = 24 * 3600_000;
      for (const [age, when] of [
        ['unknown', undefined],
        ['past the lifetime', new Date(Date.now() - day - 60_000).toISOString()],
      ] as const) {
        await planted(when);
        // A fresh extractor: robots.txt not yet asked in this process.
        const later = extractor(testConfig(), cache, systemResolver);
        try {
          const outcome = await later.extract(privateUrl);
          expect(outcome, age).toMatchObject({ ok: false, error: { code: 'robots_disallowed' } });
          expect(later.robotsLookups(), age).toBeGreaterThan(0);
        } finally {
          await later.close();
        }
      }
      await planted(new Date(Date.now() - day + 60_000).toISOString());
      const later = extractor(testConfig(), cache, systemResolver);
      try {
        expect(await later.extract(privateUrl)).toMatchObject({ ok: true, fromCache: true, finalUrl: privateUrl });
        expect(later.robotsLookups()).toBe(0);
      } finally {
        await later.close();
      }
      expect(site.hits('/private/page')).toBe(0);
    } finally {
      await first.close();
    }
  });
});
