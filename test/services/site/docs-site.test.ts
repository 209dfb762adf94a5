/**
 * Exploring a real-looking documentation site (bench/site/generated-site.mjs, "Larkspur": v1
 * and v2 docs, an API reference, a changelog, a search page robots.txt disallows, v1 pages
 * that copy v2 with a canonical link) through the HTTP API and the MCP tools.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDocsSite, type DocsSite } from '../../../bench/site/generated-site.mjs';
import { inMemoryMcpClient, startTestApi, type TestApi } from '../../helpers/test-server.js';

let site: DocsSite;
let api: TestApi;
beforeAll(async () => {
  site = await startDocsSite();
  api = await startTestApi({ cache: { ttlMs: 0 }, convert: { threads: 1 }, auth: { rateLimitRequests: 0 } });
});
afterAll(async () => {
  await api?.close();
  await site?.close();
});

describe('a documentation site', () => {
  it('maps every page of its sitemap, the search page left out and never fetched', async () => {
    const res = await api.post('/api/map', { url: `${site.origin}/v2/`, search: 'retry failed jobs' });
    const body = (await res.json()) as any;
    expect(res.status).toBe(200);
    const urls = new Set(body.links.map((l: any) => l.url));
    for (const url of site.sitemapUrls) expect(urls.has(new URL(url).href), url).toBe(true);
    expect([...urls].some((u) => new URL(u as string).pathname.startsWith(site.disallowedPrefix))).toBe(false);
    expect(site.stats().disallowedHits).toBe(0);
    expect(body.links[0].score).toBeGreaterThan(0);
  });

  it('crawls it whole, each page once: the v1 copies of v2 pages recognised by their canonical link', async () => {
    const { client, close } = await inMemoryMcpClient(api.core);
    try {
      const result = (await client.callTool({
        name: 'crawl_site',
        arguments: { url: site.origin, limit: 200, max_depth: 6, max_chars: 200, wait_ms: 45_000 },
      })) as any;
      const status = result.structuredContent;
      expect(status).toMatchObject({ status: 'done', stop_reason: 'completed' });
      const pages: any[] = [...status.pages];
      let cursor = status.next_cursor;
      while (cursor !== undefined) {
        const more = (await client.callTool({ name: 'crawl_status', arguments: { id: status.id, cursor } })) as any;
        pages.push(...more.structuredContent.pages);
        cursor = more.structuredContent.next_cursor;
      }
      const finals = pages.filter((p) => p.success).map((p) => new URL(p.final_url).href);
      expect(new Set(finals).size).toBe(finals.length);
      // A v1 page whose canonical is its v2 twin is no second result.
      const copies = site.pages.filter((p) => p.canonical !== p.url);
      expect(copies.length).toBeGreaterThan(0);
      const delivered = new Set(pages.map((p) => new URL(p.url).href));
      for (const copy of copies)
        expect(delivered.has(new URL(copy.url).href) && delivered.has(new URL(copy.canonical).href), copy.url).toBe(
          false,
        );
      expect(status.progress.duplicates).toBeGreaterThanOrEqual(copies.length);
      expect(site.stats().disallowedHits).toBe(0);
      expect(result.content[0].text).toContain(status.id);
    } finally {
      await close();
    }
  });
});
