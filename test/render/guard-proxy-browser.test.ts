/**
 * The guard proxy with a real browser: each launch has proxies of its own, so a relaunch
 * (after a crash, a memory bound, a hang) moves to a new port with a new secret, and the
 * old proxy is closed with the tunnels the dead browser still had; and a flood of sockets
 * without credentials on the proxy neither stops a render nor runs the process out of
 * file descriptors.
 */
import net from 'node:net';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { parseAllowedOrigins } from '../../src/core/allowed-origins.js';
import { silentLogger } from '../../src/core/logger.js';
import { deadlineIn } from '../../src/core/request-context.js';
import { allowListPolicy } from '../../src/net/address-policy.js';
import { BrowserHost } from '../../src/render/browser-host.js';
import { localBrowser } from '../../src/render/local-browser.js';
import { ChromiumRenderer } from '../../src/render/chromium-renderer.js';
import { SOCKETS_PER_CONTEXT, startGuardProxy, type GuardProxy } from '../../src/render/guard-proxy.js';
import { descendants } from '../../src/render/process-tree.js';
import { chromium, describeWithChromium } from '../helpers/chromium.js';
import { startFixtureSite, type FixtureSite } from '../helpers/fixture-site.js';
import { renderScenarios, SPA_TEXT } from '../helpers/render-scenarios.js';
import { flood, openFds, until } from '../helpers/socket-flood.js';

let site: FixtureSite;

beforeAll(async () => {
  site = await startFixtureSite({ scenarios: renderScenarios(() => 1) });
});
afterAll(async () => {
  await site?.close();
});

const policy = () => allowListPolicy(parseAllowedOrigins(`127.0.0.1:${site.port}`));

/** The main process of the browser started with this proxy URL, if it runs. */
const mainOf = (proxyUrl: string) =>
  descendants().find((p) => p.cmdline.includes(`--proxy-server=${proxyUrl}`) && !p.cmdline.includes('--type='));

/** The guard proxy ports of the browsers this process runs (from their command lines). */
const browserProxyPorts = (): number[] =>
  descendants()
    .filter((p) => !p.cmdline.includes('--type='))
    .flatMap((p) => /--proxy-server=http:\/\/127\.0\.0\.1:(\d+)/.exec(p.cmdline)?.[1] ?? [])
    .map(Number);

/** Whether a TCP connection to the port is refused (nothing listens). */
const refused = (port: number): Promise<boolean> =>
  new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1', () => {
      socket.destroy();
      resolve(false);
    });
    socket.on('error', (error: NodeJS.ErrnoException) => resolve(error.code === 'ECONNREFUSED'));
  });

/** An authenticated CONNECT tunnel to the site through `proxy`, established; `closed()` once the proxy ends it. */
function tunnelThrough(proxy: GuardProxy): Promise<{ closed: () => boolean }> {
  return new Promise((resolve, reject) => {
    const { username, password } = proxy.credentials;
    const authority = `127.0.0.1:${site.port}`;
    let closed = false;
    const socket = net.connect(proxy.port, '127.0.0.1', () =>
      socket.write(
        `CONNECT ${authority} HTTP/1.1\r\nhost: ${authority}\r\nproxy-authorization: Basic ${Buffer.from(`${username}:${password}`).toString('base64')}\r\n\r\n`,
      ),
    );
    socket.once('data', (chunk: Buffer) =>
      chunk.toString('latin1').startsWith('HTTP/1.1 200')
        ? resolve({ closed: () => closed })
        : reject(new Error(chunk.toString('latin1'))),
    );
    socket.on('close', () => (closed = true));
    socket.on('error', reject);
  });
}

async function pageText(browser: Browser, url: string): Promise<string> {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    await page.goto(url, { timeout: 15_000 });
    return await page.content();
  } finally {
    await context.close();
  }
}

describeWithChromium('the guard proxy across launches and under a flood', () => {
  it('gives every launch a new port and secret, and closes the old proxy with its tunnels', async () => {
    const host = new BrowserHost({
      source: localBrowser({
        executablePath: chromium.path as string,
        startProxies: async () => ({
          plain: await startGuardProxy({ policy: policy(), connectTimeoutMs: 2_000, logger: silentLogger }),
        }),
      }),
      logger: silentLogger,
    });
    try {
      const first = await host.browser();
      const old = { port: first.proxies.plain.port, password: first.proxies.plain.credentials.password };
      expect(await pageText(first.browser, `${site.origin}/html`)).toContain('<article');
      // A tunnel of this launch, in flight when its browser dies.
      const tunnel = await tunnelThrough(first.proxies.plain);
      // The browser crashes (as the memory watchdog kills it): the host forgets it.
      process.kill(mainOf(first.proxies.plain.url)?.pid as number, 'SIGKILL');
      expect(await until(() => host.current() === undefined, 10_000)).toBe(true);
      expect(await until(() => tunnel.closed(), 5_000)).toBe(true);
      expect(await refused(old.port)).toBe(true);

      const second = await host.browser();
      expect(second.browser).not.toBe(first.browser);
      expect(second.proxies.plain.port).not.toBe(old.port);
      expect(second.proxies.plain.credentials.password).not.toBe(old.password);
      expect(await pageText(second.browser, `${site.origin}/html`)).toContain('<article');

      // Dropped by the host (a hang, the total memory bound): its proxy goes with it.
      const port = second.proxies.plain.port;
      host.drop(second.browser);
      expect(await until(() => mainOf(second.proxies.plain.url) === undefined, 10_000)).toBe(true);
      expect(await refused(port)).toBe(true);
    } finally {
      await host.close();
    }
  });

  it('renders through a flood of 2,000 sockets without credentials, the descriptors bounded; relaunches on a new port', async () => {
    // One page: the proxy's cap is 2 x 256 sockets, well under the flood's 2,000.
    const pages = 1;
    const renderer = new ChromiumRenderer({
      executablePath: chromium.path as string,
      pages,
      policy: policy(),
      connectTimeoutMs: 2_000,
      userAgent: 'websearch-mcp-test',
      screenshot: { maxHeight: 2_000, maxBytes: 5 * 1024 * 1024 },
      logger: silentLogger,
    });
    const render = () => renderer.render({ url: `${site.origin}/spa`, stealth: false }, deadlineIn(20_000));
    try {
      expect((await render()).html).toContain(SPA_TEXT);
      const [port] = browserProxyPorts();
      expect(port).toBeDefined();
      const baseline = openFds();
      let peakFds = 0;
      const sampler = setInterval(() => (peakFds = Math.max(peakFds, openFds())), 5);
      // Half silent, half a request head never finished: all held until the headers timeout.
      const attack = flood(port as number, 2_000, 'CONNECT 127.0.0.1:443 HTTP/1.1\r\nhost: 127.0.0.1:443\r\n');
      try {
        expect((await attack.ready).connected).toBeGreaterThan(1_000);
        // The flood holds the proxy's cap for its headers timeout (5 s): renders go on.
        expect((await render()).html).toContain(SPA_TEXT);
        expect((await render()).html).toContain(SPA_TEXT);
      } finally {
        clearInterval(sampler);
        attack.stop();
      }
      const cap = (pages + 1) * SOCKETS_PER_CONTEXT;
      console.info(`flood of 2,000 on the browser's proxy: descriptors +${peakFds - baseline} (cap ${cap} sockets)`);
      // The proxy's client sockets, each proven one's dialled socket, and the browser's pipes.
      expect(peakFds - baseline).toBeLessThan(cap + 100);

      // A crash: the next render relaunches the browser behind a new proxy; the old one is closed.
      process.kill(mainOf(`http://127.0.0.1:${port}`)?.pid as number, 'SIGKILL');
      expect(await until(() => mainOf(`http://127.0.0.1:${port}`) === undefined, 10_000)).toBe(true);
      let html: string | undefined;
      for (let attempt = 0; attempt < 3 && html === undefined; attempt++) {
        // A render that began as the browser died fails render_failed; the next one relaunches.
        html = await render().then(
          (page) => page.html,
          () => undefined,
        );
      }
      expect(html).toContain(SPA_TEXT);
      expect(browserProxyPorts()).not.toContain(port);
      expect(browserProxyPorts()).toHaveLength(1);
      expect(await refused(port as number)).toBe(true);
    } finally {
      await renderer.close();
    }
  });
});
