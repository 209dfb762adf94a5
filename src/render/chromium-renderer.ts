/**
 * The render port's adapter: Chromium driven by playwright-core, the system's own
 * (local-browser.ts) or a remote one (remote-browser.ts, WEBSEARCH_BROWSER_ENDPOINT). One
 * browser (browser-host.ts), at most `pages` renders at once (the rest wait in a FIFO queue,
 * on their own deadline), and each render in a context of its own, wiped or closed
 * afterwards, so no cookie or storage of one URL leaks into another. Inside a context:
 *  - a route (page-route.ts) lets only http(s) on, drops images, media and fonts (text
 *    needs none; a screenshot loads images and fonts), and serves the main document from
 *    the static fetch (cap, robots.txt and policy already applied; not fetched twice);
 *  - what goes on passes the address policy: a local browser's requests through the guard
 *    proxy (guard-proxy.ts); a remote browser's are all fetched by this server
 *    (fetched-route.ts), its WebSockets refused, its own proxy a dead end;
 *  - no downloads, no service workers.
 * The per-URL deadline covers the queue, the launch and the render: load, then a short
 * network-idle settle bounded by what is left, the wait for a selector, the read and the
 * screenshot. The renderers' memory is bounded: a local browser's by a V8 heap cap at launch
 * and a watchdog over its processes (memory-watchdog.ts); a remote one's pages by what
 * DevTools shows of them (page-memory-watch.ts).
 */
import { errors, type Browser, type BrowserContext } from 'playwright-core';
import { DeadlineScope } from '../core/deadline-scope.js';
import { AppError, BLOCKING_STATUSES } from '../core/errors.js';
import type { Logger } from '../core/logger.js';
import type { BrowserStatus, RenderedPage, Renderer, RenderRequest } from '../core/ports/render-port.js';
import { withTimeout } from '../core/with-timeout.js';
import { timeLeft, type RequestDeadline } from '../core/request-context.js';
import type { AddressPolicy } from '../net/address-policy.js';
import { ACCEPT_LANGUAGE, browserProfile, HIDE_WEBDRIVER_SCRIPT, majorOf } from '../net/browser-profile.js';
import type { Resolver } from '../net/connector.js';
import type { HttpClient } from '../net/fetch-types.js';
import { HostLimiter } from '../net/host-limiter.js';
import { BrowserHost, type BrowserSource, type Opened } from './browser-host.js';
import { browserStatus } from './browser-status.js';
import { fetchForPage } from './fetched-route.js';
import { SOCKETS_PER_CONTEXT, startGuardProxy, type GuardProxy } from './guard-proxy.js';
import { localBrowser, type LaunchProxies } from './local-browser.js';
import { trackMainFrame, type MainFrameTracker } from './main-frame.js';
import { MemoryWatchdog, type MemoryBounds, type RenderWatch } from './memory-watchdog.js';
import { trackNetwork, type NetworkTracker } from './network-quiet.js';
import { PageMemoryWatch } from './page-memory-watch.js';
import { discard, idleVisit, PagePool, recordOrigins, type PooledPage } from './page-pool.js';
import { documentHtml, waitForSelector } from './page-script.js';
import { routeRequest, toNetwork, type Onward } from './page-route.js';
import { remoteBrowser, SINK_PROXY, type RemoteBrowserOptions } from './remote-browser.js';
import { TreeSampler, type ProcessInfo } from './process-tree.js';
import { takeScreenshot, VIEWPORT, type ScreenshotLimits } from './screenshot.js';

/** After `load`, how long the page may keep fetching (XHR-mounted content) before it is read. */
const SETTLE_MS = 2_000;
/** Silence on the network after which the page counts as settled. */
const QUIET_MS = 100;
/** Kept of the deadline when waiting for a selector: the read, and a `timeout` that names the selector. */
const SELECTOR_MARGIN_MS = 250;
/** A challenge page that passes reloads within a few seconds; more hops than this is a loop. */
const CHALLENGE_WAIT_MS = 5_000;
const CHALLENGE_HOPS = 3;
/** A healthy browser opens a context and a page in tens of ms; one that takes this long hangs. */
const HUNG_SETUP_MS = 5_000;
/**
 * The same for a remote browser, which others may load too and is reached over a network: a
 * slow answer is not yet a hung browser, and dropping it fails every render of this server there.
 */
const HUNG_REMOTE_SETUP_MS = 15_000;
/** How long a render that failed waits for a remote browser's connection to report that it was lost. */
const DISCONNECT_GRACE_MS = 500;

export interface ChromiumRendererOptions {
  /** The local Chromium to launch (not used with `remote`). */
  executablePath?: string;
  /**
   * A remote browser to connect to instead (WEBSEARCH_BROWSER_ENDPOINT), and the guarded
   * fetcher that answers every request of its pages.
   */
  remote?: RemoteBrowserOptions & { client: HttpClient };
  /** Renders at once (WEBSEARCH_RENDER_PAGES). */
  pages: number;
  /** The fetcher's address policy; undefined = every address allowed. */
  policy: AddressPolicy | undefined;
  resolver?: Resolver;
  connectTimeoutMs: number;
  /** WEBSEARCH_STEALTH_PROXY: stealth renders are chained through it. */
  stealthProxy?: string;
  /** The project's honest User-Agent, for renders without stealth. */
  userAgent: string;
  /** The memory bounds of the browser (none: unbounded, the benchmark's baseline). */
  memory?: MemoryBounds;
  screenshot: ScreenshotLimits;
  logger: Logger;
}

/** A browser as the renderer uses it: a local one comes with its guard proxies. */
type RenderBrowser = Opened & { proxies?: LaunchProxies };

/** A render's state beside the request. */
interface RenderRun {
  scope: DeadlineScope;
  recycling: Promise<void>[];
  watch: RenderWatch | undefined;
  /** The selector being waited for, while it is (a deadline then names it). */
  waiting: { selector?: string };
}

interface Started {
  host: BrowserHost<RenderBrowser>;
  /** The local browser's memory bound, over its processes. */
  watchdog?: MemoryWatchdog;
  /** A remote browser's, over its pages. */
  pageWatch?: PageMemoryWatch;
}

/** Why a remote browser's WebSocket is refused (the page sees it closed with code 1008, policy). */
const WEBSOCKET_REFUSED = 'WebSockets are not relayed for a remote browser';

export class ChromiumRenderer implements Renderer {
  readonly #options: ChromiumRendererOptions;
  readonly #slots: HostLimiter;
  readonly #pool = new PagePool();
  /** How a page's requests go on: to the network (local), or fetched here (remote). */
  readonly #onward: Onward;
  /** The contexts this renderer has open on the browser (pooled and rendering). */
  readonly #contexts = new Set<BrowserContext>();
  /** The browser host (its version feeds the stealth profile) and watchdog, once a render asked. */
  #started: Started | undefined;
  #closed = false;

  constructor(options: ChromiumRendererOptions) {
    if (options.remote === undefined && options.executablePath === undefined)
      throw new Error('ChromiumRenderer: give the executablePath of a local Chromium or a remote browser');
    this.#options = options;
    this.#slots = new HostLimiter(options.pages);
    const remote = options.remote;
    this.#onward = remote
      ? (route, pooled) =>
          fetchForPage(route, pooled, { client: remote.client, browserMajor: () => this.browserMajor() })
      : toNetwork;
  }

  /** The running browser's major version (for the stealth profile of static fetches), if one ran. */
  browserMajor(): number | undefined {
    return majorOf(this.#started?.host.version());
  }

  sessions(): { contexts: number; pages: number } {
    let pages = 0;
    for (const context of this.#contexts) pages += context.pages().length;
    return { contexts: this.#contexts.size, pages };
  }

  status(timeoutMs: number): Promise<BrowserStatus> {
    const connected = this.#started?.host.current()?.browser.isConnected() === true;
    return browserStatus(this.#options.remote, { connected, ...this.sessions() }, timeoutMs);
  }

  async render(request: RenderRequest, ctx: RequestDeadline): Promise<RenderedPage> {
    if (this.#closed) throw new AppError('cancelled', 'the renderer is closed');
    const scope = new DeadlineScope(ctx);
    let release: (() => void) | undefined;
    // The page's wipe after the answer (recycling): the slot stays taken until it is done.
    const run: RenderRun = { scope, recycling: [], watch: undefined, waiting: {} };
    try {
      release = await this.#slots.acquire('pages', scope.signal);
      const started = this.#start();
      run.watch = started.watchdog?.watch();
      return await this.#render(request, run, started);
    } catch (error) {
      throw scope.failure && !(error instanceof AppError && error.code === 'render_failed')
        ? renderTimeout(scope.failure, scope.ms, run.waiting.selector)
        : toRenderError(error);
    } finally {
      scope.dispose();
      run.watch?.release();
      if (release) void Promise.all(run.recycling).finally(release);
    }
  }

  async close(): Promise<void> {
    this.#closed = true;
    const started = this.#started;
    started?.watchdog?.stop();
    await this.#pool.close();
    // The browser, and with it its guard proxies.
    await started?.host.close();
  }

  /** The browser host and its memory bound, once (the browser and its proxies start on first use). */
  #start(): Started {
    if (this.#started) return this.#started;
    const { memory, logger, remote, executablePath } = this.#options;
    if (remote) {
      const host = new BrowserHost<RenderBrowser>({ source: remoteBrowser(remote), logger });
      const pageWatch = memory ? new PageMemoryWatch({ bounds: memory, stop: discard, logger }) : undefined;
      this.#started = { host, ...(pageWatch ? { pageWatch } : {}) };
      return this.#started;
    }
    const source: BrowserSource<RenderBrowser> = localBrowser({
      executablePath: executablePath as string,
      startProxies: () => this.#startProxies(),
      ...(memory ? { jsFlags: `--max-old-space-size=${Math.round(memory.heapBytes / 2 ** 20)}` } : {}),
    });
    const host = new BrowserHost<RenderBrowser>({ source, logger });
    const watchdog = memory ? new MemoryWatchdog({ bounds: memory, tree: browserTree(host), logger }) : undefined;
    this.#started = { host, ...(watchdog ? { watchdog } : {}) };
    return this.#started;
  }

  /** The guard proxies of one launch of the browser (a new port and secret each). */
  async #startProxies(): Promise<LaunchProxies> {
    const { policy, resolver, connectTimeoutMs, logger, stealthProxy, pages } = this.#options;
    const base = {
      policy,
      connectTimeoutMs,
      logger,
      // Each render has a context of its own, with Chromium's full pool to the proxy; and one
      // more context may still be closing.
      maxSockets: (pages + 1) * SOCKETS_PER_CONTEXT,
      ...(resolver ? { resolver } : {}),
    };
    const plain = await startGuardProxy(base);
    if (!stealthProxy) return { plain };
    try {
      return { plain, stealth: await startGuardProxy({ ...base, upstream: stealthProxy }) };
    } catch (error) {
      await plain.close();
      throw error;
    }
  }

  async #render(request: RenderRequest, run: RenderRun, started: Started): Promise<RenderedPage> {
    const { scope } = run;
    const { host } = started;
    const left = (): number => Math.max(1, Math.round(timeLeft(scope)));
    let browser: Browser;
    let stealthProxy: GuardProxy | undefined;
    try {
      const opened = await untilAborted(host.browser(), scope.signal);
      browser = opened.browser;
      stealthProxy = request.stealth ? opened.proxies?.stealth : undefined;
    } catch (error) {
      if (scope.failure) throw scope.failure;
      throw new AppError(
        'render_failed',
        `${capitalised(host.name)} could not be ${this.#options.remote ? 'used' : 'started'}: ${firstLine(error)}`,
        { statusCode: 0, retryable: true, cause: error },
      );
    }
    let pooled: PooledPage | undefined;
    let clean = false;
    // The deadline closes the page's context: whatever it was waiting for fails at once.
    const abandon = (): void => void (pooled ? discard(pooled) : undefined);
    scope.signal.addEventListener('abort', abandon, { once: true });
    let network: NetworkTracker | undefined;
    let frame: MainFrameTracker | undefined;
    // Ends the requests a remote browser's page still has in flight here when the render ends.
    const visitEnded = new AbortController();
    try {
      pooled =
        this.#pool.take(browser, request.stealth) ??
        (await this.#openPage(browser, host, scope, request.stealth, stealthProxy));
      pooled.uses++;
      pooled.visit = {
        ...idleVisit(),
        document: request.document,
        screenshot: request.screenshot === true,
        ctx: { deadline: scope.deadline, signal: AbortSignal.any([scope.signal, visitEnded.signal]) },
      };
      if (started.pageWatch) run.watch = started.pageWatch.watch(pooled);
      const page = pooled.page;
      network = trackNetwork(page);
      frame = trackMainFrame(page, request.document?.status ?? 200);
      const main = frame;
      await page.goto(request.document?.finalUrl ?? request.url, { waitUntil: 'load', timeout: left() });
      // Content that scripts fetch after `load` (XHR-mounted apps): wait for a quiet
      // network, but never past the deadline and never long.
      const settle = (): Promise<void> => (network as NetworkTracker).quiet(QUIET_MS, Math.min(SETTLE_MS, left()));
      await settle();
      // A bot wall's challenge proves the browser by script, then reloads or navigates to
      // the content: follow it a few times (the stealth retry, where the browser fetched).
      for (let hop = 0; hop < CHALLENGE_HOPS && !request.document && BLOCKING_STATUSES.has(main.status()); hop++) {
        const moved = await page
          .waitForEvent('framenavigated', {
            predicate: (navigated) => navigated === page.mainFrame(),
            timeout: Math.min(CHALLENGE_WAIT_MS, left()),
          })
          .catch(() => undefined);
        if (!moved) break;
        await page.waitForLoadState('load', { timeout: left() });
        await settle();
      }
      // A page that moved to an error (an HTTP error, or a navigation that failed into the
      // browser's error page) is reported as it is: waiting for its selector or taking its
      // picture would only hide that.
      const usable = main.status() >= 200 && main.status() < 300 && !main.final().navigationError;
      if (usable && request.waitForSelector !== undefined) {
        run.waiting.selector = request.waitForSelector;
        await main.untilCrash(
          waitForSelector(pooled, request.waitForSelector, () => Math.max(0, left() - SELECTOR_MARGIN_MS)),
        );
        delete run.waiting.selector;
      }
      // A script may write the text on a timer, or a CPU-starved renderer may not yet have
      // run it when the network went quiet: a page still without readable text gets a
      // little longer (never past the deadline) before it is read.
      const html = await main.untilCrash(documentHtml(pooled, () => Math.min(SETTLE_MS, left())));
      const screenshot =
        usable && request.screenshot
          ? await main.untilCrash(takeScreenshot(pooled, this.#options.screenshot))
          : undefined;
      clean = true;
      const { url: finalUrl, navigationError } = main.final();
      return {
        finalUrl,
        status: main.status(),
        html,
        ...(navigationError ? { navigationError } : {}),
        ...(screenshot ? { screenshot } : {}),
      };
    } catch (error) {
      if (error instanceof AppError) throw error;
      if (scope.failure) throw scope.failure;
      // A memory bound stopped the page (or the whole browser): the page is too large for this server.
      const bound = run.watch?.verdict(frame?.crashed() === true);
      if (bound) {
        if (!browser.isConnected()) host.drop(browser);
        throw new AppError('too_large', `The page was stopped: ${bound.message}.`, { statusCode: 0, cause: error });
      }
      // A remote browser's connection reports its loss a moment after its pages' sessions fail.
      if (this.#options.remote && browser.isConnected()) await disconnectedWithin(browser, DISCONNECT_GRACE_MS);
      if (frame?.crashed() && browser.isConnected()) {
        throw new AppError('render_failed', "The page's renderer crashed while rendering it.", {
          statusCode: 0,
          retryable: true,
          cause: error,
        });
      }
      if (!browser.isConnected()) {
        host.drop(browser);
        throw new AppError(
          'render_failed',
          this.#options.remote
            ? `${capitalised(host.name)} disconnected while rendering this page; the next page connects again.`
            : 'The headless browser crashed while rendering this page; it is restarted for the next one.',
          { statusCode: 0, retryable: true, cause: error },
        );
      }
      throw error;
    } finally {
      visitEnded.abort(new AppError('cancelled', 'the render ended'));
      scope.signal.removeEventListener('abort', abandon);
      network?.dispose();
      frame?.dispose();
      // A clean page is wiped and kept warm (the slot is held until then); any other is closed.
      if (pooled) run.recycling.push(clean && !scope.failure ? this.#pool.give(pooled) : discard(pooled));
    }
  }

  /** A new context and page for a profile: its guards (route, init script) are set once here. */
  async #openPage(
    browser: Browser,
    host: BrowserHost<RenderBrowser>,
    scope: DeadlineScope,
    stealth: boolean,
    stealthProxy: GuardProxy | undefined,
  ): Promise<PooledPage> {
    const creating = browser.newContext(this.#contextOptions(stealth, stealthProxy));
    const context = await this.#setupStep(creating, browser, host, scope).catch((error: unknown) => {
      // Given up on (deadline, hang): a context that still arrives later is closed.
      void creating.then((late) => late.close()).catch(() => undefined);
      throw error;
    });
    this.#contexts.add(context);
    context.on('close', () => this.#contexts.delete(context));
    try {
      const page = await this.#setupStep(context.newPage(), browser, host, scope);
      const cdp = await this.#setupStep(context.newCDPSession(page), browser, host, scope);
      const { frameTree } = await this.#setupStep(cdp.send('Page.getFrameTree'), browser, host, scope);
      const pooled: PooledPage = {
        browser,
        context,
        page,
        stealth,
        uses: 0,
        visit: idleVisit(),
        origins: new Set(),
        cdp,
        frameId: frameTree.frame.id,
      };
      recordOrigins(pooled);
      await context.route('**/*', (route) => routeRequest(route, pooled, this.#onward));
      // The route never sees a WebSocket; a remote browser's would leave from the farm.
      if (this.#options.remote)
        await context.routeWebSocket(/.*/, (ws) => ws.close({ code: 1008, reason: WEBSOCKET_REFUSED }));
      if (stealth) await context.addInitScript(HIDE_WEBDRIVER_SCRIPT);
      return pooled;
    } catch (error) {
      await context.close().catch(() => undefined);
      throw error;
    }
  }

  /**
   * A context or page being created: a failure, or no answer for HUNG_SETUP_MS (a remote
   * browser: HUNG_REMOTE_SETUP_MS), means the browser is broken: it is dropped (and relaunched,
   * or connected to again, by the next render).
   */
  async #setupStep<T>(
    step: Promise<T>,
    browser: Browser,
    host: BrowserHost<RenderBrowser>,
    scope: DeadlineScope,
  ): Promise<T> {
    const started = performance.now();
    const hungMs = this.#options.remote ? HUNG_REMOTE_SETUP_MS : HUNG_SETUP_MS;
    try {
      return await untilAborted(withTimeout(step, hungMs), scope.signal);
    } catch (error) {
      if (scope.failure && performance.now() - started < hungMs) throw scope.failure;
      host.drop(browser);
      throw new AppError(
        'render_failed',
        `${capitalised(host.name)} failed (${firstLine(error)}); ${this.#options.remote ? 'the next page connects again' : 'it is restarted for the next page'}.`,
        { statusCode: 0, retryable: true, cause: error },
      );
    } finally {
      step.catch(() => undefined);
    }
  }

  #contextOptions(stealth: boolean, stealthProxy: GuardProxy | undefined): Parameters<Browser['newContext']>[0] {
    const profile = browserProfile(majorOf(this.#started?.host.version()));
    return {
      acceptDownloads: false,
      serviceWorkers: 'block',
      userAgent: stealth ? profile.userAgent : this.#options.userAgent,
      // The locale comes from the header below (navigator.languages follows it) and a local
      // browser's launch (--lang): a context locale would cut Accept-Language down to
      // "en-US", which no real Chrome sends.
      timezoneId: profile.timezoneId,
      // The layout width of every page, and so of its screenshot.
      viewport: VIEWPORT,
      extraHTTPHeaders: { 'accept-language': ACCEPT_LANGUAGE },
      // The chained proxy still bypasses nothing: loopback goes through it too. A remote
      // browser's contexts get the dead end: whatever its route never sees fails.
      ...(this.#options.remote
        ? { proxy: { server: SINK_PROXY } }
        : stealthProxy
          ? { proxy: { server: stealthProxy.url, bypass: '<-loopback>', ...stealthProxy.credentials } }
          : {}),
    };
  }
}

/**
 * The processes of the host's running browser, its main process first: the one started with
 * this launch's guard proxy, without a --type. None while no browser runs.
 */
function browserTree(host: BrowserHost<RenderBrowser>): () => ProcessInfo[] {
  let sampler: { main: string; tree: TreeSampler } | undefined;
  return () => {
    const proxies = host.current()?.proxies;
    if (!proxies) return [];
    const main = `--proxy-server=${proxies.plain.url}`;
    if (sampler?.main !== main) {
      // A whole argument: port 4123 is a prefix of port 41234.
      const args = (cmdline: string): string[] => cmdline.split(' ');
      sampler = {
        main,
        tree: new TreeSampler((cmdline) => args(cmdline).includes(main) && !cmdline.includes('--type=')),
      };
    }
    return sampler.tree.sample();
  };
}

/** Resolves once `browser` disconnects, or after `ms`. */
function disconnectedWithin(browser: Browser, ms: number): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      clearTimeout(timer);
      browser.off('disconnected', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    browser.once('disconnected', done);
  });
}

/** Settles with `promise`, or rejects with the signal's reason once it aborts. */
function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason as Error);
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(signal.reason as Error);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

function renderTimeout(failure: AppError, timeoutMs: number, selector: string | undefined): AppError {
  if (failure.code !== 'timeout') return failure;
  return new AppError(
    'timeout',
    selector === undefined
      ? `The page did not finish rendering in the ${timeoutMs} ms left of the URL's deadline.`
      : `The selector ${JSON.stringify(selector)} matched nothing on the page within the ${timeoutMs} ms left of the URL's deadline.`,
    { statusCode: 0, retryable: true },
  );
}

/** Errors of Playwright and the page, as the port's AppErrors. */
function toRenderError(error: unknown): AppError {
  if (error instanceof AppError) return error;
  if (error instanceof errors.TimeoutError) {
    return new AppError('timeout', 'The page did not finish loading before the deadline.', {
      statusCode: 0,
      retryable: true,
      cause: error,
    });
  }
  const message = firstLine(error);
  const net = /net::(ERR_[A-Z_]+)/.exec(message);
  if (net) {
    // The guard proxy answers a refused target with 403, which Chromium reports as a tunnel failure.
    return new AppError('network', `The browser could not load the page (${net[1]}).`, {
      statusCode: 0,
      retryable: net[1] !== 'ERR_TUNNEL_CONNECTION_FAILED',
      cause: error,
    });
  }
  return new AppError('render_failed', `Rendering failed: ${message}`, {
    statusCode: 0,
    retryable: true,
    cause: error,
  });
}

function capitalised(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function firstLine(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split('\n')[0] as string;
}
