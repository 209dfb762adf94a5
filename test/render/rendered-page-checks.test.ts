/**
 * The gates a rendered page passes in the page extractor (issue 34, item 3), with a
 * stand-in renderer that reports where the main frame ended (test/render/render-navigation
 * runs the real Chromium): a final URL the address policy refuses fails `forbidden_address`,
 * a navigation that failed into the browser's error page `network`, a final non-2xx status
 * `http`; a page that stayed, or moved within allowed origins, succeeds. Everything but the
 * renderer is real.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { parseAllowedOrigins } from '../../src/core/allowed-origins.js';
import { silentLogger } from '../../src/core/logger.js';
import type { RenderedPage, Renderer, RenderRequest } from '../../src/core/ports/render-port.js';
import { extractRequestSchema } from '../../src/core/schemas.js';
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

/** Renders the static document as it came, then reports the main frame where `moved` says. */
class MovedRenderer implements Renderer {
  constructor(readonly moved: Partial<RenderedPage>) {}
  async render(request: RenderRequest): Promise<RenderedPage> {
    const document = request.document as NonNullable<RenderRequest['document']>;
    return {
      finalUrl: document.finalUrl,
      status: document.status,
      html: new TextDecoder().decode(document.body),
      ...this.moved,
    };
  }
  async close() {}
}

async function crawlWith(moved: Partial<RenderedPage>) {
  const config = testConfig({
    render: { mode: 'always' },
    cache: { ttlMs: 0 },
    fetch: { allowPrivateAddresses: parseAllowedOrigins(`127.0.0.1:${site.port}`) as never },
  });
  const store = SqliteStore.open(':memory:');
  const client = new GuardedFetcher(config.fetch);
  opened.push(store, client);
  const pages = new PageExtractor({
    config,
    client,
    robots: new RobotsChecker(client, config.robots, config.fetch.productToken),
    cache: store.cache<ExtractedPage>('page'),
    converter: new InThreadConverter(),
    logger: silentLogger,
    renderer: new MovedRenderer(moved),
  });
  const schema = extractRequestSchema({ maxUrls: 10, maxTimeoutMs: config.fetch.maxTimeoutMs });
  const answer = await new ExtractService(pages).extract(
    testContext(),
    schema.parse({ urls: [`${site.origin}/html`] }),
  );
  return { result: answer.results[0]!, credits: answer.metadata.credits_used };
}

describe('a rendered page passes the gates of a fetch', () => {
  it('moved to a refused address (private, loopback on another port, localhost by name): forbidden_address', async () => {
    for (const finalUrl of ['http://10.1.2.3/next', `http://127.0.0.1:${site.port + 1}/`, 'https://localhost/']) {
      const { result, credits } = await crawlWith({ finalUrl, status: 403 });
      expect(result, finalUrl).toMatchObject({ success: false, error_type: 'forbidden_address', status_code: 0 });
      expect(result.error).toContain(`The page moved to ${finalUrl}`);
      expect(credits).toBe(0);
    }
  });

  it('moved to a URL the browser could not load (its error page): network, naming both', async () => {
    const { result, credits } = await crawlWith({
      finalUrl: `${site.origin}/gone`,
      navigationError: 'net::ERR_CONNECTION_REFUSED',
    });
    expect(result).toMatchObject({ success: false, error_type: 'network' });
    expect(result.error).toContain(`moved to ${site.origin}/gone`);
    expect(result.error).toContain('net::ERR_CONNECTION_REFUSED');
    expect(credits).toBe(0);
  });

  it('ended on a non-2xx status: http with that status', async () => {
    const { result, credits } = await crawlWith({ finalUrl: `${site.origin}/missing`, status: 404 });
    expect(result).toMatchObject({ success: false, error_type: 'http', status_code: 404 });
    expect(credits).toBe(0);
  });

  it('stayed, or moved within the allowed origin with a 2xx: the rendered page, charged', async () => {
    for (const moved of [{}, { finalUrl: `${site.origin}/elsewhere`, status: 200 }]) {
      const { result, credits } = await crawlWith(moved);
      expect(result).toMatchObject({ success: true, rendered: true, status_code: 200 });
      expect(credits).toBe(1);
    }
  });
});
