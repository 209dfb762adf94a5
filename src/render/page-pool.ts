/**
 * Warm pages for reuse. Opening a page costs Chromium a renderer process (100-500 ms on a
 * small machine) where navigating an open one costs tens of ms, so a page that rendered
 * cleanly goes back to the pool — after it is wiped: navigated to about:blank, cookies
 * cleared, and every origin it touched cleared of storage (local/session storage,
 * IndexedDB, cache storage) through CDP, so nothing of one URL is visible to the next.
 * The HTTP cache is off while a route is set (Playwright), so nothing is cached either.
 * Pages are kept per profile (stealth or not: user agent and init script differ by
 * context) and retired after MAX_USES renders, or when their browser is gone.
 */
import type { Browser, BrowserContext, CDPSession, Page } from 'playwright-core';
import type { StaticDocument } from '../core/ports/render-port.js';
import type { RequestDeadline } from '../core/request-context.js';
import { withTimeout } from '../core/with-timeout.js';

/** Renders one page serves before it is closed (bounds what a long-lived page accumulates). */
const MAX_USES = 25;
/** A wipe slower than this means the page is unwell: it is closed instead. */
const RESET_TIMEOUT_MS = 5_000;

export interface PooledPage {
  browser: Browser;
  context: BrowserContext;
  page: Page;
  stealth: boolean;
  uses: number;
  /** What the route handler serves for the current render, and whether it lets images and fonts through. */
  visit: Visit;
  /** Origins the page sent requests to since its last wipe. */
  origins: Set<string>;
  /** The page's own DevTools session: the read of the document and the wipe. */
  cdp: CDPSession;
  /** The main frame's id (constant for the page's life, across navigations). */
  frameId: string;
}

/** The current render, as the page's route sees it. */
export interface Visit {
  document: StaticDocument | undefined;
  screenshot: boolean;
  /** The render's deadline, ended with it: what a remote browser's requests are fetched under (none between renders). */
  ctx?: RequestDeadline | undefined;
  /** Navigation redirects followed for this render (a remote browser's: fetched-route.ts). */
  redirects: number;
}

/** A page's visit between renders. */
export function idleVisit(): Visit {
  return { document: undefined, screenshot: false, redirects: 0 };
}

export class PagePool {
  #idle: PooledPage[] = [];

  /** An idle page of this browser and profile, if there is one. */
  take(browser: Browser, stealth: boolean): PooledPage | undefined {
    // Pages of a browser that is gone are dropped on the way.
    this.#idle = this.#idle.filter((p) => p.browser.isConnected());
    const index = this.#idle.findIndex((p) => p.browser === browser && p.stealth === stealth);
    if (index === -1) return undefined;
    return this.#idle.splice(index, 1)[0];
  }

  /** Wipes a page that rendered cleanly and keeps it; closes it if it is worn or the wipe fails. */
  async give(pooled: PooledPage): Promise<void> {
    pooled.visit = idleVisit();
    if (pooled.uses >= MAX_USES || !pooled.browser.isConnected()) return discard(pooled);
    try {
      await withTimeout(wipe(pooled), RESET_TIMEOUT_MS);
      this.#idle.push(pooled);
    } catch {
      await discard(pooled);
    }
  }

  async close(): Promise<void> {
    const idle = this.#idle;
    this.#idle = [];
    await Promise.all(idle.map(discard));
  }
}

/** Follows every origin the page sends a request to (for the wipe). */
export function recordOrigins(pooled: PooledPage): void {
  pooled.page.on('request', (request) => {
    const url = request.url();
    if (/^https?:/i.test(url)) pooled.origins.add(new URL(url).origin);
  });
}

export async function discard(pooled: PooledPage): Promise<void> {
  await pooled.context.close().catch(() => undefined);
}

async function wipe(pooled: PooledPage): Promise<void> {
  // Popups the page opened belong to the same context: they go too.
  await Promise.all(
    pooled.context
      .pages()
      .filter((p) => p !== pooled.page)
      .map((p) => p.close()),
  );
  // Leaving the document stops its scripts; nothing of about:blank needs to load.
  await pooled.page.goto('about:blank', { waitUntil: 'commit' });
  const cdp = pooled.cdp;
  const origins = [...pooled.origins];
  pooled.origins.clear();
  await Promise.all([
    pooled.context.clearCookies(),
    ...origins.map((origin) => cdp.send('Storage.clearDataForOrigin', { origin, storageTypes: 'all' })),
  ]);
}
