/**
 * The renderer's own options, against a real Chromium, local and remote (one browser each):
 *  - waitForSelector: the render waits for an element a script writes late, inside the
 *    deadline; a selector that never matches fails `timeout` naming it, within the deadline;
 *    an invalid one fails cleanly;
 *  - screenshot: a PNG 1280 wide of the whole page (images loaded for it, and only for it),
 *    cut at the height cap, refused `too_large` past the size cap;
 *  - a page the browser fetches itself follows its redirects, and keeps their cookies.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseAllowedOrigins } from '../../src/core/allowed-origins.js';
import { silentLogger } from '../../src/core/logger.js';
import { allowListPolicy } from '../../src/net/address-policy.js';
import { GuardedFetcher } from '../../src/net/guarded-fetcher.js';
import { ChromiumRenderer } from '../../src/render/chromium-renderer.js';
import { browserScenarios, LATE_TEXT, PICTURE } from '../helpers/browser-scenarios.js';
import { describeOnBrowsers } from '../helpers/browser-targets.js';
import { fetchConfig } from '../helpers/fetch-config.js';
import { startFixtureSite, type FixtureSite } from '../helpers/fixture-site.js';
import { decodePng } from '../helpers/png.js';
import { testContext } from '../helpers/request-context.js';

const MiB = 1024 * 1024;
const MAX_HEIGHT = 8_000;
const MAX_BYTES = MiB;

let site: FixtureSite;

beforeAll(async () => {
  site = await startFixtureSite({ scenarios: browserScenarios() });
});
afterAll(async () => {
  await site?.close();
});

function near(actual: readonly number[], expected: readonly number[]): boolean {
  return actual.every((v, i) => Math.abs(v - (expected[i] as number)) <= 8);
}

describeOnBrowsers(['local', 'playwright'], "the renderer's options", (target) => {
  let renderer: ChromiumRenderer;
  let client: GuardedFetcher;
  beforeAll(async () => {
    const allowed = parseAllowedOrigins(`127.0.0.1:${site.port}`);
    // A remote browser's requests are fetched by the server's own client, under its policy.
    client = new GuardedFetcher(fetchConfig({ allowPrivateAddresses: allowed }));
    renderer = new ChromiumRenderer({
      ...target.renderer(client),
      pages: 2,
      policy: allowListPolicy(allowed),
      connectTimeoutMs: 2_000,
      userAgent: 'websearch-mcp-test',
      memory: { heapBytes: 256 * MiB, pageBytes: 512 * MiB, totalBytes: 3_072 * MiB },
      screenshot: { maxHeight: MAX_HEIGHT, maxBytes: MAX_BYTES },
      logger: silentLogger,
    });
    // Warm: the launch is not what these tests time.
    await renderer.render({ url: `${site.origin}/picture`, stealth: false }, testContext({ timeoutMs: 20_000 }));
  });
  afterAll(async () => {
    await renderer?.close();
    await client?.close();
  });

  describe('waitForSelector', () => {
    it('waits for an element a script writes 1 s after load, which a plain render misses', async () => {
      const url = `${site.origin}/shows-late/1000`;
      const plain = await renderer.render({ url, stealth: false }, testContext({ timeoutMs: 10_000 }));
      expect(plain.html).not.toContain(LATE_TEXT);

      const started = performance.now();
      const waited = await renderer.render(
        { url, stealth: false, waitForSelector: 'main section#late > p' },
        testContext({ timeoutMs: 10_000 }),
      );
      expect(waited.html).toContain(LATE_TEXT);
      expect(performance.now() - started).toBeGreaterThan(900);
      expect(waited.status).toBe(200);
    });

    it('a selector that never matches fails timeout, naming it, within the deadline', async () => {
      const started = performance.now();
      const failure = await renderer
        .render(
          { url: `${site.origin}/shows-late/100`, stealth: false, waitForSelector: '#never-there' },
          testContext({ timeoutMs: 2_500 }),
        )
        .catch((error: unknown) => error);
      const elapsed = performance.now() - started;
      expect(failure).toMatchObject({ code: 'timeout' });
      expect((failure as Error).message).toContain('"#never-there"');
      expect(elapsed).toBeGreaterThan(1_500);
      expect(elapsed).toBeLessThan(2_500 + 1_500);
    });

    it('an invalid selector fails cleanly, and the next render works', async () => {
      const failure = await renderer
        .render(
          { url: `${site.origin}/shows-late/100`, stealth: false, waitForSelector: 'p[' },
          testContext({ timeoutMs: 5_000 }),
        )
        .catch((error: unknown) => error);
      expect(failure).toMatchObject({ code: 'render_failed' });
      expect((failure as Error).message).toContain('not a valid CSS selector');
      const next = await renderer.render({ url: `${site.origin}/picture`, stealth: false }, testContext());
      expect(next.html).toContain('A page to take a picture of');
    });
  });

  describe('a page the browser fetches itself (the stealth retry)', () => {
    it('through redirects: the page they end on, under its own URL, with the cookie one of them set', async () => {
      const page = await renderer.render(
        { url: `${site.origin}/redirect-to?url=${encodeURIComponent('/cookie-gate/set')}`, stealth: false },
        testContext({ timeoutMs: 10_000 }),
      );
      expect(page).toMatchObject({ finalUrl: `${site.origin}/cookie-gate/check`, status: 200 });
      expect(page.html).toContain('The gate saw its cookie');
    });
  });

  describe('screenshot', () => {
    // The time it takes is a figure of bench/browser-bounds-bench.mjs, not of a test on a shared machine.
    it('a PNG 1280 wide of the whole page, images included', async () => {
      const images = site.hits('/picture/green.svg');
      const page = await renderer.render(
        { url: `${site.origin}/picture`, stealth: false, screenshot: true },
        testContext(),
      );
      expect(page.screenshot).toBeInstanceOf(Uint8Array);
      const png = decodePng(page.screenshot as Uint8Array);
      expect({ width: png.width, height: png.height }).toEqual({ width: 1280, height: PICTURE.height });
      for (const probe of PICTURE.probes) {
        expect(
          near(png.pixel(probe.x, probe.y), probe.rgb),
          `(${probe.x}, ${probe.y}): ${png.pixel(probe.x, probe.y)}`,
        ).toBe(true);
      }
      expect(site.hits('/picture/green.svg')).toBe(images + 1);
    });

    it('a render without a screenshot has none and loads no image', async () => {
      const images = site.hits('/picture/green.svg');
      const page = await renderer.render({ url: `${site.origin}/picture`, stealth: false }, testContext());
      expect(page.screenshot).toBeUndefined();
      expect(site.hits('/picture/green.svg')).toBe(images);
    });

    it('a page taller than the cap is cut at the cap', async () => {
      const page = await renderer.render(
        { url: `${site.origin}/picture/tall`, stealth: false, screenshot: true },
        testContext(),
      );
      const png = decodePng(page.screenshot as Uint8Array);
      expect({ width: png.width, height: png.height }).toEqual({ width: 1280, height: MAX_HEIGHT });
    });

    it('a PNG past the size cap fails too_large, naming the cap', async () => {
      const failure = await renderer
        .render({ url: `${site.origin}/picture/noise`, stealth: false, screenshot: true }, testContext())
        .catch((error: unknown) => error);
      expect(failure).toMatchObject({ code: 'too_large' });
      expect((failure as Error).message).toMatch(new RegExp(`over the ${MAX_BYTES}-byte limit`));
    });
  });
});
