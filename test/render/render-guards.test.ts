/**
 * The guards inside the browser, and its failures, with a real Chromium, local and remote
 * (a Playwright browser server and a DevTools endpoint, WEBSEARCH_BROWSER_ENDPOINT):
 *  - a page on the allowed fixture origin reaches for a canary on another loopback port by
 *    script, stylesheet redirect, image, iframes (by IP, by name, by redirect), a form post,
 *    fetch (plain, redirected, IPv4-mapped, TLS), XHR, a beacon, WebSocket (ws, wss), a
 *    worker's fetch and WebSocket, a shared worker, a service worker, preconnect, prefetch,
 *    speculation rules, WebRTC (STUN, TURN over UDP and TCP) and WebTransport: the canary
 *    sees no TCP connection and no datagram at all, and the page itself renders;
 *  - a page whose load never finishes fails as `timeout` within its deadline;
 *  - a browser killed mid-call (a remote one: its connection lost) fails that URL as
 *    `render_failed`, and the next call works on a new one;
 *  - a bot wall that only a real browser passes is retried rendered with stealth;
 *  - the same canary test with Debian's headless shell, which CHROMIUM_PATH may name and
 *    which reads a different WebRTC switch than the full browser.
 * Every case checks what was charged.
 */
import dgram from 'node:dgram';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Config, DeepPartial } from '../../src/core/config.js';
import { describeOnBrowsers, renderingApi } from '../helpers/browser-targets.js';
import { browserProcesses, describeWithHeadlessShell, HEADLESS_SHELL } from '../helpers/chromium.js';
import { startFixtureSite, type FixtureSite } from '../helpers/fixture-site.js';
import { GUARD_ATTEMPTS, renderScenarios, SPA_TEXT } from '../helpers/render-scenarios.js';
import type { TestApi } from '../helpers/test-server.js';

let site: FixtureSite;
let canary: FixtureSite;
/** The canary's UDP side, on the same port number: STUN, TURN over UDP, QUIC. */
let udpCanary: dgram.Socket;
let datagrams = 0;

beforeAll(async () => {
  canary = await startFixtureSite();
  udpCanary = dgram.createSocket('udp4');
  udpCanary.on('message', () => datagrams++);
  await new Promise<void>((resolve) => udpCanary.bind(canary.port, '127.0.0.1', resolve));
  site = await startFixtureSite({ scenarios: renderScenarios(() => canary.port) });
});
afterAll(async () => {
  udpCanary?.close();
  await Promise.all([site?.close(), canary?.close()]);
});

/** A test server rendering with `render` (a browser's settings), only the fixture origin allowed. */
const guardedApi = (render: DeepPartial<Config['render']>): Promise<TestApi> =>
  renderingApi(render, `127.0.0.1:${site.port}`);

/** The guarded page through `on`: rendered to the end, and the canary saw nothing at all. */
async function expectCanaryUntouched(on: TestApi): Promise<void> {
  const connectionsBefore = canary.connections();
  const datagramsBefore = datagrams;
  const redirectsBefore = site.hits('/redirect-to');
  const { json } = await on.crawl({ urls: [`${site.origin}/guarded`], format: 'html' });
  expect(json.results[0]).toMatchObject({ success: true, rendered: true });
  // The scripts ran to the end: every attempt was made (a local browser's plain http ones got
  // the guard proxy's 403, which a no-cors fetch calls reached: the canary's count is the proof).
  expect(json.results[0].html).toMatch(new RegExp(`all attempts finished: (\\S+ ){${GUARD_ATTEMPTS - 1}}\\S+<`));
  expect(json.metadata.credits_used).toBe(1);
  await new Promise((resolve) => setTimeout(resolve, 300));
  expect({ connections: canary.connections() - connectionsBefore, datagrams: datagrams - datagramsBefore }).toEqual({
    connections: 0,
    datagrams: 0,
  });
  // The redirects themselves were served by the allowed origin (and then refused).
  expect(site.hits('/redirect-to') - redirectsBefore).toBeGreaterThanOrEqual(2);
}

describeOnBrowsers(['local', 'playwright', 'cdp'], 'the browser behind the guards', (target) => {
  let api: TestApi;
  beforeAll(async () => {
    api = await guardedApi(target.render());
  });
  afterAll(async () => {
    await api?.close();
  });

  it('reaches the allowed origin, and nothing of a canary on another loopback port', async () => {
    await expectCanaryUntouched(api);
  });

  it('a page that never finishes loading fails as timeout within its deadline, uncharged', async () => {
    const started = performance.now();
    const { json } = await api.crawl({ urls: [`${site.origin}/never-loads`], format: 'html', timeout_ms: 3_000 });
    const elapsed = performance.now() - started;
    expect(json.results[0]).toMatchObject({ success: false, error_type: 'timeout', status_code: 0 });
    expect(json.metadata.credits_used).toBe(0);
    expect(elapsed).toBeGreaterThan(2_500);
    expect(elapsed).toBeLessThan(3_000 + 1_500);
  });

  it('a browser killed mid-call fails that URL as render_failed; the next call starts a new one', async () => {
    const call = api.crawl({ urls: [`${site.origin}/never-loads`], format: 'html', timeout_ms: 20_000 });
    // Wait until the page is loading (its endless script was asked for), then kill the browser.
    const deadline = Date.now() + 10_000;
    const hangsBefore = site.hits('/hang');
    while (site.hits('/hang') === hangsBefore && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    const killed = target.remote?.pid() ?? browserProcesses().find((p) => p.main)?.pid;
    await target.crash();
    const started = performance.now();
    const { json } = await call;
    expect(performance.now() - started).toBeLessThan(5_000);
    expect(json.results[0]).toMatchObject({ success: false, error_type: 'render_failed', status_code: 0 });
    expect(json.results[0].error).toMatch(target.remote ? /disconnected.*connects again/ : /crashed|restarted/);
    expect(json.metadata.credits_used).toBe(0);

    await target.recover();
    const next = await api.crawl({ urls: [`${site.origin}/spa`] });
    expect(next.json.results[0]).toMatchObject({ success: true, rendered: true });
    expect(next.json.results[0].markdown).toContain(SPA_TEXT);
    expect(target.remote?.pid() ?? browserProcesses().find((p) => p.main)?.pid).not.toBe(killed);
  });

  it('a bot wall: refused without stealth (free), passed by the stealth browser retry (5 credits)', async () => {
    const plain = await api.crawl({ urls: [`${site.origin}/wall`] });
    expect(plain.json.results[0]).toMatchObject({ success: false, error_type: 'http', status_code: 403 });
    expect(plain.json.metadata.credits_used).toBe(0);

    const before = site.requests().length;
    const { json } = await api.crawl({ urls: [`${site.origin}/wall`], stealth: true });
    expect(json.results[0]).toMatchObject({
      success: true,
      rendered: true,
      status_code: 200,
      title: 'Harbour notices',
    });
    expect(json.results[0].markdown).toContain('The south slipway is closed');
    // The profile, as a page script sees it: no webdriver, the time zone and language of the headers.
    expect(json.results[0].markdown).toContain('webdriver=false tz=America/New_York lang=en-US');
    expect(json.metadata.credits_used).toBe(5);

    // The static stealth fetch and the browser present the same Chromium on Linux.
    const walls = site
      .requests()
      .slice(before)
      .filter((r) => r.path === '/wall');
    expect(walls.length).toBeGreaterThanOrEqual(3); // static, challenge, content
    const [staticFetch, ...browser] = walls;
    for (const request of browser) {
      expect(request.headers['user-agent']).toBe(staticFetch!.headers['user-agent']);
      expect(request.headers['sec-ch-ua']).toBe(staticFetch!.headers['sec-ch-ua']);
      expect(request.headers['accept-language']).toBe('en-US,en;q=0.9');
    }
  });

  it('stealth does not help a page that stays blocked: a plain failure, uncharged', async () => {
    const { json } = await api.crawl({ urls: [`${site.origin}/challenge`], stealth: true });
    expect(json.results[0]).toMatchObject({ success: false, error_type: 'blocked' });
    expect(json.metadata.credits_used).toBe(0);
  });
});

describeWithHeadlessShell('a headless shell behind the guard proxy', () => {
  it('holds WebRTC and every other request to the same guards as the full browser', async () => {
    const shell = await guardedApi({ chromiumPath: HEADLESS_SHELL });
    try {
      await expectCanaryUntouched(shell);
    } finally {
      await shell.close();
    }
  });
});
