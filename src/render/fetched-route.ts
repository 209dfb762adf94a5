/**
 * A remote browser's page requests, answered from this server's guarded fetcher (the one of
 * the static fetch: its address policy per hop at connect time, its byte cap, its per-host
 * limit, under the render's deadline), never by the remote side: every request is fulfilled
 * or aborted here, none continued. What cannot be answered so is refused:
 *  - methods other than GET, HEAD and POST (Playwright answers CORS preflights itself, so a
 *    cross-origin PUT or DELETE would reach the site unasked: a page to read needs none);
 *  - a redirect is followed by the fetcher for a subresource. A navigation's is not: the
 *    document would show under the URL it left, its relative links resolved from there.
 *    Nor can the browser follow one itself: Playwright never routes a redirect's next hop,
 *    which would leave from the farm (SINK_PROXY makes it fail). So the 3xx is served with a
 *    one-line document that moves the frame on (location.replace) as a navigation of its
 *    own, which passes here again; the browser keeps the redirect's cookies, as it would.
 *    (Playwright's internal Route._redirectNavigationRequest does this more directly, but
 *    leaves a rejection unhandled in the Playwright server whenever the next hop fails.)
 */
import type { Route } from 'playwright-core';
import { isAppError } from '../core/errors.js';
import type { RequestDeadline } from '../core/request-context.js';
import { browserProfile, type BrowserProfile } from '../net/browser-profile.js';
import type { FetchedResponse, HttpClient } from '../net/fetch-types.js';
import { REDIRECT_STATUSES, redirectTarget } from '../net/redirects.js';
import type { PooledPage } from './page-pool.js';
import { servedHeaders } from './page-route.js';

type Method = 'GET' | 'HEAD' | 'POST';
const METHODS: ReadonlySet<string> = new Set<Method>(['GET', 'HEAD', 'POST']);

/** Request headers of the browser's own connection, or that the fetcher sets itself. */
const NOT_FORWARDED = new Set([
  'host',
  'connection',
  'keep-alive',
  'proxy-authorization',
  'proxy-connection',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  'content-length',
  'accept-encoding',
]);

/** The stealth profile's headers the remote browser's network stack would add, and its route does not see. */
const CLIENT_HINTS = ['sec-ch-ua', 'sec-ch-ua-mobile', 'sec-ch-ua-platform'];

/**
 * Access-Control-Allow-Origin where the site sent none: an origin no page has. Playwright
 * would otherwise add the requesting page's own to every fulfilled response, and a page's
 * scripts would read across origins what the site never shared.
 */
const NO_PAGE_ORIGIN = 'https://no-page-origin.invalid';

/** Navigation redirects one render follows (Chromium's own limit). */
const MAX_NAVIGATION_REDIRECTS = 20;

/** What the route needs of the renderer. */
export interface FetchedRouteDeps {
  client: HttpClient;
  /** The browser's major version, for the stealth profile's client hints. */
  browserMajor: () => number | undefined;
}

/** Answers one request of a page on a remote browser from the guarded fetcher, or aborts it. */
export async function fetchForPage(route: Route, pooled: PooledPage, deps: FetchedRouteDeps): Promise<void> {
  const request = route.request();
  const method = request.method();
  const ctx: RequestDeadline | undefined = pooled.visit.ctx;
  // No render in progress: a late request of a page being wiped.
  if (ctx === undefined || !METHODS.has(method)) return route.abort('blockedbyclient');
  const navigation = request.isNavigationRequest();
  let response: FetchedResponse;
  try {
    const body = request.postDataBuffer();
    response = await deps.client.fetch(request.url(), {
      ctx,
      method: method as Method,
      headers: forwardedHeaders(await request.allHeaders()),
      ...(body ? { body } : {}),
      ...(navigation ? { redirect: 'manual' as const } : {}),
      // The stealth proxy, when one is configured, and the client hints of the profile.
      ...(pooled.stealth ? { profile: clientHints(browserProfile(deps.browserMajor())) } : {}),
    });
  } catch (error) {
    return route.abort(abortReason(error));
  }
  const headers = servedHeaders(response.headers);
  headers['access-control-allow-origin'] ??= NO_PAGE_ORIGIN;
  let body = Buffer.from(response.body);
  if (REDIRECT_STATUSES.has(response.status)) {
    // The browser never follows a redirect itself (its next hop would not come here).
    delete headers.location;
    const target = navigation ? navigationTarget(response) : undefined;
    if (target !== undefined) {
      if (++pooled.visit.redirects > MAX_NAVIGATION_REDIRECTS) return route.abort('failed');
      headers['content-type'] = 'text/html; charset=utf-8';
      body = Buffer.from(movingDocument(target));
    }
  }
  await route.fulfill({ status: response.status, headers, body });
}

/** A document that only moves its frame on to `target`, as the redirect would have. */
function movingDocument(target: URL): string {
  // JSON.stringify leaves "</script>" in a string as it is: "<" is escaped too.
  const href = JSON.stringify(target.href).replace(/</g, '\\u003c');
  return `<!doctype html><title>Redirecting</title><script>location.replace(${href})</script>`;
}

/** Where a navigation's 3xx sends the browser; undefined for any other answer (a 3xx without Location is shown as is). */
function navigationTarget(response: FetchedResponse): URL | undefined {
  if (!REDIRECT_STATUSES.has(response.status)) return undefined;
  try {
    return redirectTarget(response.headers.location, new URL(response.finalUrl), response.status);
  } catch {
    // A target of another scheme (javascript:, file:) is never followed: the 3xx is shown.
    return undefined;
  }
}

function forwardedHeaders(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).filter(([name]) => !NOT_FORWARDED.has(name.toLowerCase())));
}

/** The profile with only its client hints: the browser's own headers stand for the rest. */
function clientHints(profile: BrowserProfile): BrowserProfile {
  return {
    ...profile,
    headers: Object.fromEntries(CLIENT_HINTS.map((name) => [name, profile.headers[name] as string])),
  };
}

/** A failed fetch as the network error the browser reports (net::ERR_...). */
function abortReason(error: unknown): string {
  if (!isAppError(error)) return 'failed';
  switch (error.code) {
    case 'forbidden_address':
      return 'blockedbyclient';
    case 'timeout':
      return 'timedout';
    case 'cancelled':
      return 'aborted';
    case 'too_large':
      return 'blockedbyresponse';
    case 'network':
      return 'connectionfailed';
    default:
      return 'failed';
  }
}
