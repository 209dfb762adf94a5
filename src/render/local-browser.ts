/**
 * The system Chromium, launched by this process. Every request it makes goes through the
 * guard proxy: `--proxy-server` plus `--proxy-bypass-list=<-loopback>` (Playwright's `proxy`
 * option), since Chromium would otherwise reach loopback directly; the proxy's per-launch
 * credentials are answered by Playwright to the proxy's 407 challenge. Each launch has
 * guard proxies of its own (a new port and secret), closed with its browser, whatever
 * ends it (crash, memory bound, hang, shutdown): what leaked of one launch (its port, its
 * secret) is worth nothing to the next, and the tunnels of a dead browser go with it.
 */
import { chromium, type Browser } from 'playwright-core';
import { settlesWithin } from '../core/with-timeout.js';
import { browserProfile } from '../net/browser-profile.js';
import type { BrowserSource } from './browser-host.js';
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

/**
 * WebRTC would send STUN/TURN straight to any address, around every proxy: only proxied TCP
 * is left to it. The full browser reads the first switch, a headless shell (CHROMIUM_PATH may
 * name one) only the second. A remote browser must run with them too (remote-browser.ts).
 */
export const WEBRTC_SWITCHES = [
  '--webrtc-ip-handling-policy=disable_non_proxied_udp',
  '--force-webrtc-ip-handling-policy=disable_non_proxied_udp',
];

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
  ...WEBRTC_SWITCHES,
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

export interface LocalBrowserOptions {
  executablePath: string;
  /** Starts the guard proxies of a launch (every request of the browser goes through `plain`). */
  startProxies: () => Promise<LaunchProxies>;
  /** V8 flags of the renderers (the heap cap). */
  jsFlags?: string;
}

export function localBrowser(options: LocalBrowserOptions): BrowserSource<Launch> {
  /** The last launch's proxy port: the next one gets another. */
  let lastPort: number | undefined;

  /**
   * The proxies of a new launch. The previous launch's are closed by now, so the system
   * could hand out the same ephemeral port again (rarely): that one is started anew.
   */
  const startProxies = async (): Promise<LaunchProxies> => {
    let proxies = await options.startProxies();
    if (proxies.plain.port === lastPort) {
      const first = proxies;
      try {
        proxies = await options.startProxies();
      } finally {
        await closeProxies(first);
      }
    }
    lastPort = proxies.plain.port;
    return proxies;
  };

  return {
    name: 'the headless browser',
    async open() {
      const proxies = await startProxies();
      try {
        const browser = await chromium.launch({
          executablePath: options.executablePath,
          headless: true,
          args: [
            ...LAUNCH_ARGS,
            `--lang=${browserProfile().locale}`,
            ...(options.jsFlags ? [`--js-flags=${options.jsFlags}`] : []),
          ],
          proxy: { server: proxies.plain.url, bypass: '<-loopback>', ...proxies.plain.credentials },
          timeout: LAUNCH_TIMEOUT_MS,
          // The server's own shutdown closes the browser; Playwright still kills it on exit.
          handleSIGINT: false,
          handleSIGTERM: false,
          handleSIGHUP: false,
        });
        return { browser, proxies };
      } catch (error) {
        await closeProxies(proxies);
        throw error;
      }
    },
    /**
     * Closes the browser gracefully (one that does not answer in time is killed by its process
     * id) and its proxies at once, with whatever tunnels they still carry.
     */
    async close({ browser, proxies }) {
      const marker = `--proxy-server=${proxies.plain.url}`;
      const proxiesClosed = closeProxies(proxies);
      if (!(await settlesWithin(browser.close(), CLOSE_GRACE_MS))) {
        // Only this launch's processes: its proxy URL is on their command lines (a whole
        // argument: port 4123 is a prefix of port 41234), and no later launch has the same one.
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
    },
  };
}

async function closeProxies(proxies: LaunchProxies): Promise<void> {
  await Promise.all([proxies.plain.close(), proxies.stealth?.close()]);
}
