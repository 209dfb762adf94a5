/**
 * The one Chromium process: launched on first use (a server that never renders never
 * starts it), shared by every render, forgotten as soon as it disconnects (crash, kill)
 * and relaunched by the next call. Every request it makes goes through the guard proxy:
 * `--proxy-server` plus `--proxy-bypass-list=<-loopback>` (Playwright's `proxy` option),
 * since Chromium would otherwise reach loopback directly; the proxy's per-launch
 * credentials are answered by Playwright to the proxy's 407 challenge. Each launch has
 * guard proxies of its own (a new port and secret), closed with its browser, whatever
 * ends it (crash, memory bound, hang, shutdown): what leaked of one launch (its port, its
 * secret) is worth nothing to the next, and the tunnels of a dead browser go with it.
 */
import { chromium, type Browser } from 'playwright-core';
import type { Logger } from '../core/logger.js';
import { settlesWithin } from '../core/with-timeout.js';
import { browserProfile } from '../net/browser-profile.js';
import type { GuardProxy } from './guard-proxy.js';
import { descendants } from './process-tree.js';

/**
 * Features Playwright turns off by default (playwright-core 1.65). Chromium keeps only the
 * last --disable-features it is given, so ours must repeat them (checked against the
 * installed Playwright by test/render/browser-launch.test.ts).
 */
export const PLAYWRIGHT_DISABLED_FEATURES = [
  'AvoidUnnecessaryBeforeUnloadCheckSync',
  'DestroyProfileOnBrowserClose',
  'HttpsUpgrades',
  'HttpsFirstBalancedModeAutoEnable',
  'LensOverlay',
  'MediaRouter',
  'PaintHolding',
  'ThirdPartyStoragePartitioning',
  'AvoidCorsURLLoaderRestartOnRedirect',
  'TcpPortRandomizationWin',
  'OptimizationHints',
  'NetworkTimeServiceQuerying',
  'AimEnabled',
  'PreconnectToSearch',
  'msForceBrowserSignIn',
  'msEdgeUpdateLaunchServicesPreferredVersion',
];

/**
 * Ours on top. SpareRendererForSitePerProcess: after a navigation Chromium starts a spare
 * renderer for that page's context; every pooled page has a context of its own, so the
 * spare never fits the next navigation and is killed: a process started for nothing per page.
 * RenderDocument: a new frame host (and renderer-side frame) for every cross-document
 * navigation, and a pooled page navigates twice a render (the page, then about:blank);
 * without it Chromium reuses the frame, as it did before the feature (BENCHMARKS.md).
 */
export const DISABLED_FEATURES = [...PLAYWRIGHT_DISABLED_FEATURES, 'SpareRendererForSitePerProcess', 'RenderDocument'];

/** Headless, no sandbox (containers), no traffic of the browser's own, no automation tell, no UDP. */
export const LAUNCH_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-blink-features=AutomationControlled',
  // WebRTC would send STUN/TURN straight to any address, around the guard proxy: only
  // proxied TCP is left to it (and the proxy applies the policy). The full browser reads
  // the first switch, a headless shell (CHROMIUM_PATH may name one) only the second.
  '--webrtc-ip-handling-policy=disable_non_proxied_udp',
  '--force-webrtc-ip-handling-policy=disable_non_proxied_udp',
  `--disable-features=${DISABLED_FEATURES.join(',')}`,
];

/** A launch slower than this has failed (a cold start on a busy machine takes ~1 s). */
const LAUNCH_TIMEOUT_MS = 30_000;
/** How long a closing browser may take before its process is killed. */
const CLOSE_GRACE_MS = 3_000;

/** The guard proxies of one launch: `plain` for the browser, `stealth` for stealth contexts. */
export interface LaunchProxies {
  plain: GuardProxy;
  stealth?: GuardProxy;
}

/** A running browser and the guard proxies started for it. */
export interface Launch {
  browser: Browser;
  proxies: LaunchProxies;
}

export interface BrowserHostOptions {
  executablePath: string;
  /** Starts the guard proxies of a launch (every request of the browser goes through `plain`). */
  startProxies: () => Promise<LaunchProxies>;
  /** V8 flags of the renderers (the heap cap). */
  jsFlags?: string;
  logger: Logger;
}

export class BrowserHost {
  readonly #options: BrowserHostOptions;
  #current: Promise<Launch> | undefined;
  /** What `#current` resolved to, so that dropping it takes effect at once. */
  #launched: Launch | undefined;
  #version: string | undefined;
  /** Each launched browser's proxies, for its shutdown. */
  readonly #proxiesOf = new WeakMap<Browser, LaunchProxies>();
  /** Browsers this host is closing itself (their disconnection is no crash), and how. */
  readonly #closing = new WeakMap<Browser, Promise<void>>();
  /** The last launch's proxy port: the next one gets another. */
  #lastPort: number | undefined;
  #closed = false;

  constructor(options: BrowserHostOptions) {
    this.#options = options;
  }

  /** The running browser, launched if there is none. Rejects when the launch fails (the next call tries again). */
  browser(): Promise<Launch> {
    if (this.#closed) return Promise.reject(new Error('the renderer is closed'));
    this.#current ??= this.#launch();
    return this.#current;
  }

  /** The running browser and its proxies, if one is up (none while launching). */
  current(): Launch | undefined {
    return this.#launched;
  }

  /** The browser's version ("156.0.8078.108") once one was launched. */
  version(): string | undefined {
    return this.#version;
  }

  /** Forgets `browser` (crashed or hung) and kills it with its proxies; the next call launches a fresh one. */
  drop(browser: Browser): void {
    if (this.#launched?.browser === browser) {
      this.#current = undefined;
      this.#launched = undefined;
    }
    void this.#shutdown(browser);
  }

  async close(): Promise<void> {
    this.#closed = true;
    const current = this.#current;
    this.#current = undefined;
    this.#launched = undefined;
    const launch = await current?.catch(() => undefined);
    if (launch) await this.#shutdown(launch.browser);
  }

  async #launch(): Promise<Launch> {
    const { executablePath, jsFlags, logger } = this.#options;
    const started = performance.now();
    try {
      const proxies = await this.#startProxies();
      let browser: Browser;
      try {
        browser = await chromium.launch({
          executablePath,
          headless: true,
          args: [...LAUNCH_ARGS, `--lang=${browserProfile().locale}`, ...(jsFlags ? [`--js-flags=${jsFlags}`] : [])],
          proxy: { server: proxies.plain.url, bypass: '<-loopback>', ...proxies.plain.credentials },
          timeout: LAUNCH_TIMEOUT_MS,
          // The server's own shutdown closes the browser; Playwright still kills it on exit.
          handleSIGINT: false,
          handleSIGTERM: false,
          handleSIGHUP: false,
        });
      } catch (error) {
        await closeProxies(proxies);
        throw error;
      }
      this.#proxiesOf.set(browser, proxies);
      this.#version = browser.version();
      browser.on('disconnected', () => {
        if (this.#closing.has(browser)) return;
        logger.warn({ version: this.#version }, 'the headless browser disconnected; the next render starts a new one');
        this.drop(browser);
      });
      logger.info({ version: this.#version, ms: Math.round(performance.now() - started) }, 'headless browser started');
      if (this.#closed) {
        await this.#shutdown(browser);
        throw new Error('the renderer is closed');
      }
      const launch = { browser, proxies };
      this.#launched = launch;
      return launch;
    } catch (error) {
      // A failed launch is not cached: the next render tries again.
      this.#current = undefined;
      throw error;
    }
  }

  /**
   * The proxies of a new launch. The previous launch's are closed by now, so the system
   * could hand out the same ephemeral port again (rarely): that one is started anew.
   */
  async #startProxies(): Promise<LaunchProxies> {
    let proxies = await this.#options.startProxies();
    if (proxies.plain.port === this.#lastPort) {
      const first = proxies;
      try {
        proxies = await this.#options.startProxies();
      } finally {
        await closeProxies(first);
      }
    }
    this.#lastPort = proxies.plain.port;
    return proxies;
  }

  /**
   * Closes the browser gracefully (one that does not answer in time is killed by its process
   * id) and its proxies at once, with whatever tunnels they still carry. Once per browser.
   */
  #shutdown(browser: Browser): Promise<void> {
    const closing =
      this.#closing.get(browser) ??
      (async () => {
        const proxies = this.#proxiesOf.get(browser);
        const marker = proxies ? `--proxy-server=${proxies.plain.url}` : undefined;
        const proxiesClosed = proxies ? closeProxies(proxies) : Promise.resolve();
        if (!(await settlesWithin(browser.close(), CLOSE_GRACE_MS)) && marker) {
          // Only this launch's processes: its proxy URL is on their command lines (a whole
          // argument: port 4123 is a prefix of port 41234), and no later launch has the same
          // one (#startProxies).
          for (const p of descendants()) {
            if (!p.cmdline.split(' ').includes(marker)) continue;
            try {
              process.kill(p.pid, 'SIGKILL');
            } catch {
              // Already gone.
            }
          }
        }
        await proxiesClosed;
      })();
    this.#closing.set(browser, closing);
    return closing;
  }
}

async function closeProxies(proxies: LaunchProxies): Promise<void> {
  await Promise.all([proxies.plain.close(), proxies.stealth?.close()]);
}
