/**
 * The generated website behind the site map and crawl tests and bench/site-bench.mjs
 * (bench/site/generated-site.mjs): robots.txt, the sitemap tree down to the URLs it promises,
 * links from the home page, the traps (an endless calendar, redirects, print variants with a
 * canonical link), the counters, the queries' pages and the topic's pages; and the Larkspur
 * documentation site.
 */
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DocsSite, GeneratedSite } from '../../bench/site/generated-site.mjs';
import { startDocsSite, startGeneratedSite } from '../../bench/site/generated-site.mjs';

let site: GeneratedSite;

beforeAll(async () => {
  site = await startGeneratedSite({ pages: 600, docsPages: 200, crawlDelaySeconds: 2 });
});
afterAll(async () => {
  await site.close();
});

async function get(pathOrUrl: string, init?: RequestInit): Promise<Response> {
  return fetch(pathOrUrl.startsWith('http') ? pathOrUrl : `${site.origin}${pathOrUrl}`, init);
}

/** The `href`s of a page's links, resolved against its URL. */
function links(html: string, base: string): string[] {
  return [...html.matchAll(/<a\s[^>]*href="([^"]+)"/g)].map((m) => new URL(m[1]!.replace(/&amp;/g, '&'), base).href);
}

/** What a site map keeps of a URL: no fragment, no utm_ parameter. */
function plain(url: string): string {
  const u = new URL(url);
  u.hash = '';
  for (const name of [...u.searchParams.keys()]) if (name.startsWith('utm_')) u.searchParams.delete(name);
  return u.href;
}

const locs = (xml: string): string[] =>
  [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1]!.replace(/&amp;/g, '&'));

describe('the generated site', () => {
  it('serves a robots.txt that disallows a prefix and names the sitemap index', async () => {
    const res = await get('/robots.txt');
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(text).toContain('User-agent: *');
    expect(text).toContain(`Disallow: ${site.disallowedPrefix}`);
    expect(text).toContain('Crawl-delay: 2');
    expect(text).toContain(`Sitemap: ${site.origin}/sitemap-index.xml`);
  });

  it('answers robots.txt with the status asked for', async () => {
    const other = await startGeneratedSite({ pages: 600, docsPages: 200, robotsStatus: 503 });
    try {
      expect((await fetch(`${other.origin}/robots.txt`)).status).toBe(503);
    } finally {
      await other.close();
    }
  });

  it('lists exactly sitemapUrls through the index, gzipped children and a nested index', async () => {
    const raw: string[] = [];
    const files: string[] = [];
    let nested = 0;
    const walk = async (url: string, depth: number): Promise<void> => {
      files.push(url);
      const res = await get(url);
      expect(res.status).toBe(200);
      let xml: string;
      if (url.endsWith('.gz')) {
        expect(res.headers.get('content-type')).toBe('application/gzip');
        expect(res.headers.get('content-encoding')).toBeNull();
        xml = gunzipSync(Buffer.from(await res.arrayBuffer())).toString('utf8');
      } else xml = await res.text();
      if (xml.includes('<sitemapindex')) {
        if (depth > 0) nested += 1;
        for (const child of locs(xml)) await walk(child, depth + 1);
      } else {
        const found = locs(xml);
        expect(found.length).toBeLessThanOrEqual(2000);
        expect(xml.match(/<lastmod>/g)?.length).toBe(found.length);
        raw.push(...found);
      }
    };
    await walk(`${site.origin}/sitemap-index.xml`, 0);
    expect(nested).toBe(1);
    expect(files).toEqual(site.sitemapFiles);
    expect(raw).toEqual(site.rawSitemapLocs);
    // Tracking parameters, fragments and repeats are there to be collapsed.
    expect(raw.some((u) => u.includes('?utm_source=sitemap'))).toBe(true);
    expect(raw.some((u) => u.includes('#'))).toBe(true);
    expect(raw.length).toBeGreaterThan(site.sitemapUrls.length);
    expect([...new Set(raw.map(plain))]).toEqual(site.sitemapUrls);
    expect(site.sitemapUrls).toHaveLength(600);
    expect(site.docsUrls).toHaveLength(200);
    expect(site.blogUrls).toHaveLength(60);
    // /sitemap.xml: a few of the same URLs again.
    const small = locs(await (await get('/sitemap.xml')).text()).map(plain);
    expect(small.length).toBeGreaterThan(10);
    const all = new Set(site.sitemapUrls);
    expect(small.every((u) => all.has(u))).toBe(true);
  });

  it('links the sections, the topic hub, the feeds and other hosts from the home page', async () => {
    const html = await (await get('/')).text();
    const found = new Set(links(html, site.origin));
    for (const section of ['/docs/', '/blog/', '/products/', '/articles/', '/pricing/', '/about/'])
      expect(found.has(`${site.origin}${section}`)).toBe(true);
    expect(found.has(site.crawlTargets.hub)).toBe(true);
    expect([...found].some((u) => u.startsWith(`${site.origin}/support/?sessionid=`))).toBe(true);
    expect([...found].filter((u) => u.startsWith(site.offsiteOrigin))).toHaveLength(2);
    expect(found.has(`${site.origin}${site.disallowedPrefix}staff-directory`)).toBe(true);
    expect(html).toMatch(/<link rel="alternate" type="application\/rss\+xml"[^>]*href="\/blog\/feed.xml"/);
    const nav = /<nav class="site-nav"[\s\S]*?<\/nav>/.exec(html)![0];
    expect(links(nav, site.origin).length).toBeGreaterThanOrEqual(10);
    // A section index pages through its members.
    const articles = await (await get('/articles/')).text();
    expect(articles).toContain('href="/articles/?page=2"');
    const feed = await (await get('/blog/feed.xml')).text();
    expect(feed).toContain('<rss version="2.0"');
    expect(locs(feed).length + [...feed.matchAll(/<link>([^<]+)<\/link>/g)].length).toBeGreaterThan(60);
  });

  it('writes docs pages with a sidebar, neighbours, related links and 300-700 words', async () => {
    const url = site.docsUrls[12]!;
    const html = await (await get(url)).text();
    const sidebar = /<nav class="sidebar"[\s\S]*?<\/nav>/.exec(html)![0];
    expect(links(sidebar, url).length).toBeGreaterThanOrEqual(8);
    expect(html).toContain('rel="prev"');
    expect(html).toContain('rel="next"');
    expect(/<aside class="related"[\s\S]*?<\/aside>/.exec(html)![0].match(/<li>/g)).toHaveLength(5);
    const text = /<article>([\s\S]*?)<\/article>/.exec(html)![1]!.replace(/<[^>]+>/g, ' ');
    const words = text.split(/\s+/).filter(Boolean).length;
    expect(words).toBeGreaterThan(250);
    expect(words).toBeLessThan(800);
    expect(html).not.toContain('rel="canonical"');
  });

  it('serves print variants with a canonical link, mirrors without one, the same page under any session id', async () => {
    const url = site.docsUrls[4]!;
    const normal = await (await get(url)).text();
    const article = (html: string) =>
      /<h1>[\s\S]*<\/article>/.exec(html)![0].replace(/<p class="print-link">.*<\/p>/, '');
    for (const variant of [`${url}/print`, `${url}?view=print`]) {
      const html = await (await get(variant)).text();
      expect(html).toContain(`<link rel="canonical" href="${url}">`);
      expect(article(html)).toBe(article(normal));
    }
    const mirror = await get(url.replace(site.origin, `${site.origin}/mirror`));
    expect(mirror.status).toBe(200);
    const mirrored = await mirror.text();
    expect(mirrored).not.toContain('rel="canonical"');
    expect(mirrored).toContain(/<h1>.*<\/h1>/.exec(normal)![0]);
    const a = await (await get('/support/?sessionid=abc')).text();
    const b = await (await get('/support/?sessionid=xyz')).text();
    expect(a).toBe(b);
  });

  it('redirects /old/ to the docs page and /legacy/ through /old/', async () => {
    const doc = site.docsUrls[7]!;
    const slug = doc.split('/').pop()!;
    const old = await get(`/old/${slug}`, { redirect: 'manual' });
    expect(old.status).toBe(301);
    expect(new URL(old.headers.get('location')!, site.origin).href).toBe(doc);
    const legacy = await get(`/legacy/${slug}`, { redirect: 'manual' });
    expect(legacy.status).toBe(301);
    expect(new URL(legacy.headers.get('location')!, site.origin).pathname).toBe(`/old/${slug}`);
    const followed = await get(`/legacy/${slug}`);
    expect(followed.url).toBe(doc);
    expect(followed.status).toBe(200);
  });

  it('has a calendar whose next month never ends', async () => {
    let url = `${site.origin}/calendar/2025/06`;
    for (let i = 0; i < 8; i++) {
      const res = await get(url);
      expect(res.status).toBe(200);
      const next = /<a href="([^"]+)" rel="next">/.exec(await res.text());
      expect(next).not.toBeNull();
      url = new URL(next![1]!, url).href;
    }
    expect(url).toBe(`${site.origin}/calendar/2026/02`);
    expect((await get('/calendar/9999/12')).status).toBe(200);
  });

  it('counts disallowed hits, off-site hits and 404s', async () => {
    site.resetStats();
    expect((await get(`${site.disallowedPrefix}staff-directory`)).status).toBe(200);
    expect((await get('/careers/openings')).status).toBe(404);
    expect((await fetch(`${site.offsiteOrigin}/community`)).status).toBe(200);
    const stats = site.stats();
    expect(stats.disallowedHits).toBe(1);
    expect(stats.notFound).toBe(1);
    expect(stats.offsiteHits).toBe(1);
    expect(stats.requests).toBe(2);
    expect(stats.byPath.get('/careers/openings')).toBe(1);
  });

  it('has 50 queries, each for a sitemap page whose path shares a word with it', async () => {
    expect(site.queries).toHaveLength(50);
    const all = new Set(site.sitemapUrls);
    const stem = (w: string) => w.toLowerCase().slice(0, 4);
    for (const { query, target } of site.queries) {
      expect(all.has(target)).toBe(true);
      const pathWords = new Set(
        new URL(target).pathname
          .split(/[/-]/)
          .filter((w) => w.length > 2)
          .map(stem),
      );
      const shared = query.split(/[\s-]+/).filter((w) => w.length > 3 && pathWords.has(stem(w)));
      expect(shared.length, `${query} / ${target}`).toBeGreaterThan(0);
    }
    expect(new Set(site.queries.map((q) => q.target)).size).toBe(50);
    const target = await (await get(site.queries[0]!.target)).text();
    expect(target).toContain('<h1>Configuring TLS certificate rotation</h1>');
  });

  it('puts the topic pages in the sitemap, behind the hub', async () => {
    const { hub, targets, query } = site.crawlTargets;
    expect(query).toBe('ledger reconciliation');
    expect(targets).toHaveLength(10);
    const all = new Set(site.sitemapUrls);
    expect(targets.every((t) => all.has(t))).toBe(true);
    const fromHub = new Set(links(await (await get(hub)).text(), hub));
    const direct = targets.filter((t) => fromHub.has(t));
    expect(direct.length).toBeGreaterThanOrEqual(5);
    const reached = new Set(direct);
    for (const t of direct)
      for (const l of links(await (await get(t)).text(), t)) if (targets.includes(l)) reached.add(l);
    expect(reached.size).toBe(10);
    // Not listed on the home page or a section index.
    for (const page of ['/', '/docs/', '/articles/', '/blog/']) {
      const found = links(await (await get(page)).text(), site.origin);
      expect(found.some((l) => targets.includes(l))).toBe(false);
    }
  });

  it('counts the requests in flight at once', async () => {
    const slow = await startGeneratedSite({ pages: 600, docsPages: 200, latencyMs: 150 });
    try {
      const responses = await Promise.all(slow.docsUrls.slice(0, 5).map((u) => fetch(u)));
      await Promise.all(responses.map((r) => r.text()));
      const stats = slow.stats();
      expect(stats.requests).toBe(5);
      expect(stats.maxConcurrent).toBe(5);
      expect(stats.currentConcurrent).toBe(0);
    } finally {
      await slow.close();
    }
  });

  it('is the same site for the same seed', async () => {
    const again = await startGeneratedSite({ pages: 600, docsPages: 200 });
    try {
      const path = (u: string) => new URL(u).pathname;
      expect(again.sitemapUrls.map(path)).toEqual(site.sitemapUrls.map(path));
      const body = async (origin: string) =>
        (await (await fetch(`${origin}${path(site.docsUrls[3]!)}`)).text()).replaceAll(
          /\d{4,5}\/(community|status)/g,
          '',
        );
      expect(await body(again.origin)).toBe(await body(site.origin));
    } finally {
      await again.close();
    }
  });
});

describe('the Larkspur documentation site', () => {
  let docs: DocsSite;
  beforeAll(async () => {
    docs = await startDocsSite();
  });
  afterAll(async () => {
    await docs.close();
  });

  it('serves its sitemap, robots.txt and v1 pages with a canonical link to v2', async () => {
    const robots = await (await fetch(`${docs.origin}/robots.txt`)).text();
    expect(robots).toContain(`Disallow: ${docs.disallowedPrefix}`);
    expect(robots).toContain(`Sitemap: ${docs.origin}/sitemap.xml`);
    const listed = locs(await (await fetch(`${docs.origin}/sitemap.xml`)).text());
    expect(listed).toEqual(docs.sitemapUrls);
    expect(docs.pages.length).toBeGreaterThanOrEqual(35);
    const copy = docs.pages.find((p) => p.url.endsWith('/v1/guides/priorities'))!;
    expect(copy.canonical).toBe(`${docs.origin}/v2/guides/priorities`);
    const html = await (await fetch(copy.url)).text();
    expect(html).toContain(`<link rel="canonical" href="${docs.origin}/v2/guides/priorities">`);
    expect(listed).not.toContain(copy.url);
    const api = await (await fetch(`${docs.origin}/v2/api/queue`)).text();
    expect(api).toContain('<pre><code');
    expect(api).toContain('<nav class="sidebar"');
  });
});
