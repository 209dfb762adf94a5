/**
 * `page_type` through the services: a page rendered in the browser is converted like a
 * static one and carries it; the page cache (the SQLite store, JSON in and out) keeps it;
 * an entry cached before the field existed still loads, without it. The renderer is a
 * stand-in here (test/render/ runs the real Chromium); everything else is real.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Config } from '../../src/core/config.js';
import { silentLogger } from '../../src/core/logger.js';
import type { Renderer, RenderRequest } from '../../src/core/ports/render-port.js';
import { extractRequestSchema } from '../../src/core/schemas.js';
import { PAGE_TYPES } from '../../src/core/page-types.js';
import { GuardedFetcher } from '../../src/net/guarded-fetcher.js';
import { RobotsChecker } from '../../src/net/robots.js';
import { ExtractService } from '../../src/services/pages/extract-service.js';
import type { ExtractedPage } from '../../src/services/pages/extracted-page.js';
import { PageExtractor } from '../../src/services/pages/page-extractor.js';
import { SqliteStore } from '../../src/store/sqlite-store.js';
import { InThreadConverter } from '../../src/workers/in-thread-converter.js';
import { startFixtureSite, type FixtureSite } from '../helpers/fixture-site.js';
import { testContext } from '../helpers/request-context.js';
import { testConfig } from '../helpers/test-server.js';

const RENDERED_TEXT = 'Written by the page script: the harbour lights are listed below with their characters.';

/** Answers as a browser would after the page's scripts ran: the same page, one more paragraph. */
class StandInRenderer implements Renderer {
  calls = 0;
  async render(request: RenderRequest) {
    this.calls++;
    const document = request.document as NonNullable<RenderRequest['document']>;
    const html = new TextDecoder().decode(document.body).replace('</article>', `<p>${RENDERED_TEXT}</p></article>`);
    return { finalUrl: document.finalUrl, status: document.status, html };
  }
  async close() {}
}

let site: FixtureSite;
beforeAll(async () => {
  site = await startFixtureSite();
});
afterAll(async () => {
  await site?.close();
});

const opened: { close(): Promise<void> }[] = [];
afterEach(async () => {
  for (const thing of opened.splice(0)) await thing.close();
});

function services(config: Config, renderer?: Renderer) {
  const store = SqliteStore.open(':memory:');
  const client = new GuardedFetcher(config.fetch);
  opened.push(store, client);
  const cache = store.cache<ExtractedPage>('page');
  const robots = new RobotsChecker(client, config.robots, config.fetch.productToken);
  const pages = new PageExtractor({
    config,
    client,
    robots,
    cache,
    converter: new InThreadConverter(),
    logger: silentLogger,
    ...(renderer ? { renderer } : {}),
  });
  const schema = extractRequestSchema({ maxUrls: 10, maxTimeoutMs: config.fetch.maxTimeoutMs });
  return {
    cache,
    crawl: (body: Record<string, unknown>) => new ExtractService(pages).extract(testContext(), schema.parse(body)),
  };
}

describe('page_type in the services', () => {
  it('comes with a page rendered in the browser (Markdown), and not with its HTML', async () => {
    const renderer = new StandInRenderer();
    const { crawl } = services(testConfig({ render: { mode: 'always' }, cache: { ttlMs: 0 } }), renderer);
    const markdown = (await crawl({ urls: [`${site.origin}/html`] })).results[0]!;
    expect(markdown).toMatchObject({ success: true, rendered: true });
    expect(markdown.markdown).toContain(RENDERED_TEXT);
    expect(PAGE_TYPES).toContain(markdown.page_type);
    const html = (await crawl({ urls: [`${site.origin}/html`], format: 'html' })).results[0]!;
    expect(html).toMatchObject({ success: true, rendered: true });
    expect(html.html).toContain(RENDERED_TEXT);
    expect(html).not.toHaveProperty('page_type');
    expect(renderer.calls).toBe(2);
  });

  it('is kept by the page cache: a cache hit repeats it', async () => {
    const { crawl } = services(testConfig({ cache: { ttlMs: 60_000 } }));
    const fresh = await crawl({ urls: [`${site.origin}/html`, `${site.origin}/json`] });
    const cached = await crawl({ urls: [`${site.origin}/html`, `${site.origin}/json`] });
    expect(cached.metadata).toMatchObject({ cached_free: 2, credits_used: 0 });
    expect(PAGE_TYPES).toContain(fresh.results[0]!.page_type);
    // The same results, cached_at included; only from_cache tells them apart.
    expect(cached.results).toEqual(fresh.results.map((r) => (r.success ? { ...r, from_cache: true } : r)));
    expect(cached.results[1]).not.toHaveProperty('page_type');
  });

  it('is absent, and nothing else is lost, for a page cached before the field existed', async () => {
    const { cache, crawl } = services(testConfig({ cache: { ttlMs: 60_000 } }));
    const url = `${site.origin}/old`;
    const old: ExtractedPage = {
      statusCode: 200,
      finalUrl: url,
      rendered: false,
      output: {
        markdown: '# Old page\n\nCached by an earlier version.',
        title: 'Old page',
        language: 'en',
        content_type: 'text/html',
      },
    };
    await cache.set(`page:markdown:${url}`, old, 60_000);
    const { results, metadata } = await crawl({ urls: [url] });
    expect(metadata).toMatchObject({ cached_free: 1, credits_used: 0 });
    expect(results[0]).toEqual({
      url,
      success: true,
      markdown: '# Old page\n\nCached by an earlier version.',
      status_code: 200,
      rendered: false,
      title: 'Old page',
      language: 'en',
      content_type: 'text/html',
      final_url: url,
      // No cached_at: an entry from before it was kept has no known age.
      from_cache: true,
    });
    expect(site.hits('/old')).toBe(0);
  });
});
