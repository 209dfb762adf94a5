/**
 * A rendered page is checked against robots.txt where it ended (RFC 9309 applies to every URL
 * fetched), with a real Chromium, local and remote: a script or a meta refresh that moves the main frame to a
 * path robots.txt disallows fails the URL `robots_disallowed`, uncharged, and so does a
 * stealth retry whose browser, fetching the page itself, ends there. A move to an allowed page
 * still renders it (render-navigation.test.ts; here for the stealth retry).
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { browserScenarios } from '../helpers/browser-scenarios.js';
import { describeOnBrowsers, renderingApi } from '../helpers/browser-targets.js';
import { send, type Scenario } from '../helpers/fixture-scenarios.js';
import { startFixtureSite, type FixtureSite } from '../helpers/fixture-site.js';
import type { TestApi } from '../helpers/test-server.js';

/** A bot wall (403 to everyone) whose page, once a browser runs it, moves on to ?to=. */
const wallThatMoves: Scenario = {
  path: '/wall-moves',
  description: 'a 403 bot wall whose script moves the main frame to ?to=',
  handle: ({ res, url }) =>
    send(
      res,
      403,
      'text/html; charset=utf-8',
      `<!doctype html><html><head><title>Access denied</title></head><body><p>Checking your browser.</p><script>setTimeout(() => { location.href = ${JSON.stringify(url.searchParams.get('to') ?? '/')}; }, 50);</script></body></html>`,
    ),
};

let site: FixtureSite;

beforeAll(async () => {
  // The fixture's robots.txt disallows /private/ (DEFAULT_ROBOTS_TXT).
  site = await startFixtureSite({ scenarios: [...browserScenarios(), wallThatMoves] });
});
afterAll(async () => {
  await site?.close();
});

const disallowed = () => `${site.origin}/private/page`;

describeOnBrowsers(
  ['local', 'playwright'],
  'a rendered page is checked against robots.txt where it ended',
  (target) => {
    let api: TestApi;
    beforeAll(async () => {
      api = await renderingApi(target.render(), `127.0.0.1:${site.port}`);
    });
    afterAll(async () => {
      await api?.close();
    });

    for (const how of ['script', 'refresh'] as const) {
      it(`moved by ${how} to a disallowed path: robots_disallowed, uncharged`, async () => {
        const url = `${site.origin}/moves/${how}?to=${encodeURIComponent('/private/page')}`;
        const { json } = await api.crawl({ urls: [url], format: 'html' });
        expect(json.results[0]).toMatchObject({ success: false, error_type: 'robots_disallowed', status_code: 0 });
        expect(json.results[0].error).toBe(
          `Not returned: the page moved to ${disallowed()}, whose robots.txt disallows that path for websearch-mcp (the operator's WEBSEARCH_ROBOTS setting governs robots.txt checks).`,
        );
        expect(json.metadata.credits_used).toBe(0);
      });
    }

    it('a stealth retry whose browser ends on a disallowed path: robots_disallowed, uncharged', async () => {
      const url = `${site.origin}/wall-moves?to=${encodeURIComponent('/private/page')}`;
      const { json } = await api.crawl({ urls: [url], stealth: true });
      expect(json.results[0]).toMatchObject({ success: false, error_type: 'robots_disallowed' });
      expect(json.results[0].error).toContain(`the page moved to ${disallowed()}`);
      expect(json.metadata.credits_used).toBe(0);
    });

    it('the same stealth retry ending on an allowed page renders it (5 credits)', async () => {
      const url = `${site.origin}/wall-moves?to=${encodeURIComponent('/html')}`;
      const { json } = await api.crawl({ urls: [url], stealth: true });
      expect(json.results[0]).toMatchObject({ success: true, rendered: true, final_url: `${site.origin}/html` });
      expect(json.metadata.credits_used).toBe(5);
    });
  },
);
