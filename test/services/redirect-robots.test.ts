/**
 * robots.txt applies to every URL fetched (RFC 9309), not only the one submitted: a redirect
 * (301, 302, 307, or a chain) to a path the target origin's robots.txt disallows fails the URL
 * `robots_disallowed` before the target is requested, and nothing is charged; a redirect to
 * an allowed path still answers. The site crawl (through the page journey) and the map's
 * link walk (its own fetches) refuse such a redirect too.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { send } from '../helpers/fixture-scenarios.js';
import { startFixtureSite, type FixtureSite } from '../helpers/fixture-site.js';
import { startTestApi, type TestApi } from '../helpers/test-server.js';

/** The fixture's own robots.txt disallows /private/ (DEFAULT_ROBOTS_TXT); `other` disallows /html. */
let site: FixtureSite;
let other: FixtureSite;
let api: TestApi;

const WALK_HTML = `<!doctype html><html><head><title>Walk</title></head><body><main><h1>Walk</h1>
<p>Two links: one moves to a page robots.txt keeps us from, one to an article.</p>
<a href="/redirect/1?to=/private/page">Moved</a> <a href="/html">Article</a></main></body></html>`;

beforeAll(async () => {
  [site, other] = await Promise.all([
    startFixtureSite({
      scenarios: [
        {
          path: '/walk',
          description: 'links to a redirect into /private/',
          handle: (c) => send(c.res, 200, 'text/html; charset=utf-8', WALK_HTML),
        },
      ],
    }),
    startFixtureSite({ robots: { body: 'User-agent: *\nDisallow: /html\n' } }),
  ]);
  api = await startTestApi({ cache: { ttlMs: 0 }, auth: { rateLimitRequests: 0 } });
});
afterAll(async () => {
  await api?.close();
  await Promise.all([site?.close(), other?.close()]);
});

async function crawlOne(url: string) {
  const { status, json } = await api.crawl({ urls: [url] });
  expect(status).toBe(200);
  return { result: json.results[0], metadata: json.metadata };
}

describe('a redirect is checked against robots.txt before it is followed', () => {
  it.each(['301', '302', '307'])(
    'a %s to a disallowed path: robots_disallowed, never requested, uncharged',
    async (status) => {
      const before = site.hits('/private/page');
      const { result, metadata } = await crawlOne(`${site.origin}/redirect/1?status=${status}&to=/private/page`);
      expect(result).toMatchObject({ success: false, status_code: 0, error_type: 'robots_disallowed' });
      expect(result.error).toBe(
        `Not fetched: it redirects to ${site.origin}/private/page, whose robots.txt disallows that path for websearch-mcp (the operator's WEBSEARCH_ROBOTS setting governs robots.txt checks).`,
      );
      expect(metadata).toMatchObject({ credits_used: 0, failed_crawls: 1 });
      expect(site.hits('/private/page')).toBe(before);
    },
  );

  it('a chain of two redirects ending on a disallowed path: refused at the last hop', async () => {
    const before = { hop: site.hits('/redirect/1'), target: site.hits('/private/page') };
    const { result, metadata } = await crawlOne(`${site.origin}/redirect/2?status=301&to=/private/page`);
    expect(result).toMatchObject({ success: false, error_type: 'robots_disallowed' });
    expect(result.error).toContain(`it redirects to ${site.origin}/private/page`);
    expect(metadata.credits_used).toBe(0);
    expect(site.hits('/redirect/1')).toBe(before.hop + 1);
    expect(site.hits('/private/page')).toBe(before.target);
  });

  it("a redirect to another origin is judged by that origin's robots.txt", async () => {
    const to = `${other.origin}/html`;
    const { result, metadata } = await crawlOne(`${site.origin}/redirect-to?url=${encodeURIComponent(to)}`);
    expect(result).toMatchObject({ success: false, error_type: 'robots_disallowed' });
    expect(result.error).toContain(`it redirects to ${to}, whose robots.txt disallows that path`);
    expect(metadata.credits_used).toBe(0);
    expect(other.hits('/robots.txt')).toBeGreaterThanOrEqual(1);
    expect(other.hits('/html')).toBe(0);
    // The same path on the first origin is allowed there: it is the target's robots.txt that refused.
    expect((await crawlOne(`${site.origin}/html`)).result.success).toBe(true);
  });

  it('a redirect to an allowed path (same origin, a chain, another origin) still answers, charged once', async () => {
    for (const url of [
      `${site.origin}/redirect/2?status=302&to=/text`,
      `${site.origin}/redirect-to?status=307&url=${encodeURIComponent(`${other.origin}/text`)}`,
    ]) {
      const { result, metadata } = await crawlOne(url);
      expect(result, url).toMatchObject({ success: true, status_code: 200 });
      expect(result.final_url).toMatch(/\/text$/);
      expect(metadata.credits_used).toBe(1);
    }
  });
});

describe("a site's exploration refuses the same redirects", () => {
  it("the map's link walk does not follow a link's redirect into a disallowed path", async () => {
    const before = site.hits('/private/page');
    const res = await api.post('/api/map', { url: `${site.origin}/walk`, sitemap: 'skip' });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { links: { url: string }[]; metadata: { warnings?: string[] } };
    expect(body.links.map((l) => new URL(l.url).pathname)).toContain('/html');
    expect(site.hits('/private/page')).toBe(before);
  });

  it('the site crawl gets the redirect as a robots_disallowed page, and never requests its target', async () => {
    const before = site.hits('/private/page');
    const res = await api.post('/api/site-crawls', {
      url: `${site.origin}/walk`,
      use_sitemap: false,
      max_depth: 1,
      limit: 10,
      wait_ms: 20_000,
    });
    expect(res.status).toBe(200);
    const body = (await res.json()) as {
      status: string;
      pages: { url: string; success: boolean; error_type?: string }[];
    };
    expect(body.status).toBe('done');
    const moved = body.pages.find((p) => p.url.includes('/redirect/1'));
    expect(moved).toMatchObject({ success: false, error_type: 'robots_disallowed' });
    expect(body.pages.find((p) => p.url.endsWith('/html'))).toMatchObject({ success: true });
    expect(site.hits('/private/page')).toBe(before);
  });
});
