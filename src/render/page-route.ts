/**
 * The route every request of a pooled page passes (set once per context): only http(s) goes
 * on, resources a text extraction never needs are dropped, and the main document is served
 * from the static fetch (cap, robots.txt and policy already applied; not fetched twice). What
 * goes on is the renderer's choice: to the network through the guard proxy (a local browser),
 * or answered from the guarded fetcher (a remote one: fetched-route.ts).
 */
import type { Route } from 'playwright-core';
import type { PooledPage } from './page-pool.js';

/** Resource types a text extraction never needs (a screenshot loads images and fonts: what a reader sees). */
const SKIPPED_TYPES = new Set(['image', 'media', 'font']);
const SKIPPED_FOR_SCREENSHOT = new Set(['media']);
/** Response headers that described the encoded transfer, not the decoded body served here. */
const TRANSFER_HEADERS = new Set([
  'content-encoding',
  'content-length',
  'transfer-encoding',
  'connection',
  'keep-alive',
]);

/** How a request that passed goes on: `route.continue()`, or fulfilled from this server's fetch. */
export type Onward = (route: Route, pooled: PooledPage) => Promise<void>;

/** The local browser's: to the network, through the guard proxy it was launched with. */
export const toNetwork: Onward = (route) => route.continue();

/** One request of the page: only http(s), no images/media/fonts (but for a screenshot), the main document from memory. */
export async function routeRequest(route: Route, pooled: PooledPage, onward: Onward): Promise<void> {
  const request = route.request();
  const url = request.url();
  const document = pooled.visit.document;
  try {
    const skipped = pooled.visit.screenshot ? SKIPPED_FOR_SCREENSHOT : SKIPPED_TYPES;
    if (!/^https?:/i.test(url) || skipped.has(request.resourceType())) return await route.abort('blockedbyclient');
    if (
      document &&
      request.isNavigationRequest() &&
      request.frame() === pooled.page.mainFrame() &&
      sameDocument(url, document.finalUrl)
    ) {
      // Served once: a reload or a later navigation to the same URL goes to the network.
      pooled.visit.document = undefined;
      return await route.fulfill({
        status: document.status,
        headers: servedHeaders(document.headers),
        body: Buffer.from(document.body),
      });
    }
    await onward(route, pooled);
  } catch {
    // The page or context closed meanwhile (deadline, crash): nothing left to route.
  }
}

function sameDocument(a: string, b: string): boolean {
  const strip = (u: string): string => {
    try {
      const url = new URL(u);
      url.hash = '';
      return url.href;
    } catch {
      return u;
    }
  };
  return strip(a) === strip(b);
}

/** Response headers as served to the browser: without those of the encoded transfer. */
export function servedHeaders(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).filter(([name]) => !TRANSFER_HEADERS.has(name)));
}
