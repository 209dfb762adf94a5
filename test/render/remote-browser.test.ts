/**
 * What is particular to a remote browser (WEBSEARCH_BROWSER_ENDPOINT), with real ones
 * (test/helpers/remote-browser.ts); what it shares with the local one runs in the render-*
 * suites on both:
 *  - a farm whose pages can send UDP (no WebRTC switches) is refused before any page,
 *    `render_failed` naming the switches, uncharged;
 *  - a page's requests are answered by this server: GET and POST (its body) reach the site,
 *    PUT never does; a cross-origin read the site did not allow stays refused;
 *  - /healthz reports the browser (local or remote: connected, reachable), and fails only
 *    when a remote browser is unreachable while every page is rendered (WEBSEARCH_RENDER=always);
 *  - /metrics counts the contexts and pages open on the remote browser.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Config, DeepPartial } from '../../src/core/config.js';
import { describeOnBrowsers, renderingApi } from '../helpers/browser-targets.js';
import { chromium, describeWithChromium } from '../helpers/chromium.js';
import { send, type Scenario } from '../helpers/fixture-scenarios.js';
import { startFixtureSite, type FixtureSite } from '../helpers/fixture-site.js';
import { startRemoteBrowser } from '../helpers/remote-browser.js';
import { renderScenarios, SPA_TEXT } from '../helpers/render-scenarios.js';
import type { TestApi } from '../helpers/test-server.js';

const HTML = 'text/html; charset=utf-8';

/** A page that tries each method on its own origin and a cross-origin read of `other`, and writes what happened. */
const requestsPage = (other: () => string): Scenario => ({
  path: '/requests',
  description: 'a page that sends GET, POST and PUT to /echo, and reads /text of another allowed origin',
  handle: ({ res }) =>
    send(
      res,
      200,
      HTML,
      `<!doctype html><html><head><title>Requests</title></head><body><p id="out">Requests running.</p><script>
const outcome = (p) => p.then((r) => r.text()).then((t) => (t.includes('"method"') ? JSON.parse(t).method + ':' + JSON.parse(t).body : 'read'), () => 'refused');
Promise.all([
  outcome(fetch('/echo?get')),
  outcome(fetch('/echo?post', { method: 'POST', body: 'tide=high' })),
  outcome(fetch('/echo?put', { method: 'PUT', body: 'tide=low' })),
  outcome(fetch('${other()}/text')),
]).then((all) => { document.getElementById('out').textContent = 'Outcomes: ' + all.join(' '); });
</script><script src="/delay/500"></script></body></html>`,
    ),
});

let site: FixtureSite;
let other: FixtureSite;

beforeAll(async () => {
  other = await startFixtureSite();
  site = await startFixtureSite({ scenarios: [...renderScenarios(() => 1), requestsPage(() => other.origin)] });
});
afterAll(async () => {
  await Promise.all([site?.close(), other?.close()]);
});

/** A test server on `render` (a browser's settings), the fixture origins (and only they) allowed. */
const twoSitesApi = (render: DeepPartial<Config['render']>): Promise<TestApi> =>
  renderingApi(render, `127.0.0.1:${site.port},127.0.0.1:${other.port}`);

const health = async (api: TestApi): Promise<{ status: number; body: any }> => {
  const res = await fetch(`${api.url}/healthz`);
  return { status: res.status, body: await res.json() };
};

describeWithChromium('a remote browser whose pages can send UDP', () => {
  it('is refused before any page: render_failed naming the switches, uncharged', async () => {
    const farm = await startRemoteBrowser('playwright', { udp: true });
    const api = await twoSitesApi({ browserEndpoint: farm.endpoint });
    try {
      const { json } = await api.crawl({ urls: [`${site.origin}/spa`], format: 'html' });
      expect(json.results[0]).toMatchObject({ success: false, error_type: 'render_failed', status_code: 0 });
      expect(json.results[0].error).toContain('--force-webrtc-ip-handling-policy=disable_non_proxied_udp');
      expect(json.results[0].error).toMatch(/^The remote browser \(ws:\/\/127\.0\.0\.1:\d+\/…\) could not be used/);
      expect(json.metadata.credits_used).toBe(0);
      expect((await health(api)).body.browser).toMatchObject({ kind: 'remote', connected: false, reachable: true });
    } finally {
      await api.close();
      await farm.close();
    }
  });
});

describeOnBrowsers(['playwright', 'cdp'], "a remote browser's requests", (target) => {
  let api: TestApi;
  beforeAll(async () => {
    api = await twoSitesApi(target.render());
  });
  afterAll(async () => {
    await api?.close();
  });

  it('GET and POST reach the site with their bodies, PUT never does, a cross-origin read stays refused', async () => {
    const puts = () => site.requests().filter((r) => r.method === 'PUT').length;
    const before = { puts: puts(), text: other.hits('/text') };
    const { json } = await api.crawl({ urls: [`${site.origin}/requests`], format: 'html' });
    expect(json.results[0]).toMatchObject({ success: true, rendered: true });
    // The other origin answered (fetched here) without Access-Control-Allow-Origin: unreadable, as in any browser.
    expect(json.results[0].html).toContain('Outcomes: GET: POST:tide=high refused refused');
    expect(puts()).toBe(before.puts);
    expect(other.hits('/text')).toBe(before.text + 1);
  });
});

describe('/healthz and /metrics with a browser', () => {
  describeWithChromium('a local browser', () => {
    it('is reported beside the store, not running until a page needs it', async () => {
      const api = await twoSitesApi({ chromiumPath: chromium.path as string });
      try {
        const { status, body } = await health(api);
        expect(status).toBe(200);
        expect(body).toMatchObject({ status: 'ok', store: 'sqlite' });
        expect(body.browser).toEqual({ kind: 'local', connected: false, contexts: 0, pages: 0 });
        expect(await (await fetch(`${api.url}/metrics`)).text()).not.toContain('websearch_remote_browser_sessions');
      } finally {
        await api.close();
      }
    });
  });

  describeOnBrowsers(['playwright'], 'a remote browser', (target) => {
    it('connected, reachable, its sessions counted; unreachable once gone, a 503 only where every page renders', async () => {
      const auto = await twoSitesApi(target.render());
      const always = await twoSitesApi({ ...target.render(), mode: 'always' });
      try {
        // Before any page: not connected (nothing loaded), the endpoint answers.
        expect((await health(auto)).body.browser).toEqual({
          kind: 'remote',
          protocol: 'playwright',
          connected: false,
          reachable: true,
          contexts: 0,
          pages: 0,
        });
        const { json } = await auto.crawl({ urls: [`${site.origin}/spa`] });
        expect(json.results[0].markdown).toContain(SPA_TEXT);
        const up = await health(auto);
        expect(up.status).toBe(200);
        // The page that rendered is kept warm: one context, one page on the remote browser.
        expect(up.body.browser).toEqual({
          kind: 'remote',
          protocol: 'playwright',
          connected: true,
          reachable: true,
          contexts: 1,
          pages: 1,
        });
        const metrics = await (await fetch(`${auto.url}/metrics`)).text();
        expect(metrics).toContain('websearch_remote_browser_sessions{type="context"} 1');
        expect(metrics).toContain('websearch_remote_browser_sessions{type="page"} 1');

        await target.crash();
        const down = await health(auto);
        expect(down.status).toBe(200);
        expect(down.body).toMatchObject({ status: 'ok', browser: { connected: false, reachable: false, contexts: 0 } });
        const required = await health(always);
        expect(required.status).toBe(503);
        expect(required.body).toMatchObject({ status: 'unavailable', browser: { kind: 'remote', reachable: false } });
        expect(required.body.error).toContain('WEBSEARCH_RENDER=always');

        await target.recover();
        expect((await health(always)).status).toBe(200);
        const again = await auto.crawl({ urls: [`${site.origin}/spa`] });
        expect(again.json.results[0]).toMatchObject({ success: true, rendered: true });
      } finally {
        await Promise.all([auto.close(), always.close()]);
      }
    });
  });

  it('a remote endpoint nobody listens on: reachable false, the server still ok in auto', async () => {
    const api = await twoSitesApi({ browserEndpoint: 'ws://127.0.0.1:9/nothing-here' });
    try {
      const { status, body } = await health(api);
      expect(status).toBe(200);
      expect(body.browser).toEqual({
        kind: 'remote',
        protocol: 'playwright',
        connected: false,
        reachable: false,
        contexts: 0,
        pages: 0,
      });
    } finally {
      await api.close();
    }
  });
});
