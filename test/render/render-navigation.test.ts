/**
 * A rendered navigation is checked like a fetch (issue 34, item 3), with a real Chromium,
 * local and remote (WEBSEARCH_BROWSER_ENDPOINT): a page that moves its main frame by script
 * or by meta refresh to an address the policy refuses fails `forbidden_address` (not
 * `success` with the guard's refusal text), one that moves to a 404 fails `http` with that
 * status; the canary is never reached and nothing is charged. A move to a page that exists
 * still renders it, and so does one through redirects (a remote browser's navigation
 * redirects are followed as navigations of their own: fetched-route.ts).
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { browserScenarios } from '../helpers/browser-scenarios.js';
import { describeOnBrowsers, renderingApi } from '../helpers/browser-targets.js';
import { startFixtureSite, type FixtureSite } from '../helpers/fixture-site.js';
import type { TestApi } from '../helpers/test-server.js';

let site: FixtureSite;
let canary: FixtureSite;

beforeAll(async () => {
  [site, canary] = await Promise.all([startFixtureSite({ scenarios: browserScenarios() }), startFixtureSite()]);
});
afterAll(async () => {
  await Promise.all([site?.close(), canary?.close()]);
});

const moving = (how: 'script' | 'refresh', to: string): string =>
  `${site.origin}/moves/${how}?to=${encodeURIComponent(to)}`;

describeOnBrowsers(['local', 'playwright', 'cdp'], 'a rendered navigation is checked like a fetch', (target) => {
  let api: TestApi;
  beforeAll(async () => {
    api = await renderingApi(target.render(), `127.0.0.1:${site.port}`);
  });
  afterAll(async () => {
    await api?.close();
  });

  for (const how of ['script', 'refresh'] as const) {
    it(`moved by ${how} to a refused address (http and https): forbidden_address, uncharged`, async () => {
      const before = canary.connections();
      for (const to of [`${canary.origin}/text`, `https://127.0.0.1:${canary.port}/text`]) {
        const { json } = await api.crawl({ urls: [moving(how, to)], format: 'html' });
        expect(json.results[0], to).toMatchObject({ success: false, error_type: 'forbidden_address', status_code: 0 });
        expect(json.results[0].error).toContain(`The page moved to ${to}`);
        expect(json.metadata.credits_used).toBe(0);
      }
      expect(canary.connections()).toBe(before);
    });

    it(`moved by ${how} to a 404: http with that status, uncharged`, async () => {
      const { json } = await api.crawl({ urls: [moving(how, `${site.origin}/no-such-page`)], format: 'html' });
      expect(json.results[0]).toMatchObject({ success: false, error_type: 'http', status_code: 404 });
      expect(json.metadata.credits_used).toBe(0);
    });

    it(`moved by ${how} to a page that exists: that page, charged as a render`, async () => {
      const { json } = await api.crawl({ urls: [moving(how, `${site.origin}/html`)], format: 'html' });
      expect(json.results[0]).toMatchObject({ success: true, rendered: true, status_code: 200 });
      expect(json.results[0].final_url).toBe(`${site.origin}/html`);
      expect(json.metadata.credits_used).toBe(1);
    });
  }

  it('moved by script through redirects: the page they end on, under its own URL, with their cookie', async () => {
    // /redirect-to answers 302 to ?url=; /cookie-gate sets a cookie on its way (below).
    const end = `${site.origin}/cookie-gate/check`;
    const through = `${site.origin}/redirect-to?url=${encodeURIComponent(`${site.origin}/cookie-gate/set`)}`;
    const { json } = await api.crawl({ urls: [moving('script', through)], format: 'html' });
    expect(json.results[0]).toMatchObject({ success: true, rendered: true, status_code: 200, final_url: end });
    expect(json.results[0].html).toContain('The gate saw its cookie');
  });

  it('moved by script through a redirect to a refused address: forbidden_address, uncharged', async () => {
    const before = canary.connections();
    const through = `${site.origin}/redirect-to?url=${encodeURIComponent(`${canary.origin}/text`)}`;
    const { json } = await api.crawl({ urls: [moving('script', through)], format: 'html' });
    expect(json.results[0]).toMatchObject({ success: false, error_type: 'forbidden_address', status_code: 0 });
    expect(json.metadata.credits_used).toBe(0);
    expect(canary.connections()).toBe(before);
  });
});
