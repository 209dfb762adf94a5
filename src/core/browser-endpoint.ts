/**
 * WEBSEARCH_BROWSER_ENDPOINT: a remote Chromium the renderer connects to instead of launching
 * one, and what it speaks. A farm's URL is pasted as its documentation gives it; the rule
 * below reads the protocol from it, and WEBSEARCH_BROWSER_ENDPOINT_KIND says it where the URL
 * cannot (a hosted DevTools endpoint on a plain wss:// URL, e.g. `wss://farm?token=...`):
 *  - playwright: a Playwright browser server (`chromium.connect`), ws:// or wss:// only;
 *  - cdp: a DevTools endpoint (`chromium.connectOverCDP`): http(s):// (its /json/version is
 *    read for the socket) or the ws(s)://.../devtools/browser/<id> socket itself.
 */

export type BrowserEndpointKind = 'playwright' | 'cdp';
/** The setting's values: `auto` reads the kind from the URL. */
export type DeclaredEndpointKind = BrowserEndpointKind | 'auto';

const SCHEMES = new Set(['ws:', 'wss:', 'http:', 'https:']);

/** Why `url` cannot be an endpoint, or undefined when it can. */
export function endpointUrlProblem(url: string): string | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return 'must be an absolute ws://, wss://, http:// or https:// URL';
  }
  if (!SCHEMES.has(parsed.protocol)) return 'must be a ws://, wss://, http:// or https:// URL';
  if (parsed.hash !== '') return 'must not hold a #fragment';
  return undefined;
}

/** The kind an endpoint speaks: the declared one, else read from the URL (see above). */
export function endpointKind(url: string, declared: DeclaredEndpointKind): BrowserEndpointKind {
  if (declared !== 'auto') return declared;
  const parsed = new URL(url);
  if (parsed.protocol === 'http:' || parsed.protocol === 'https:') return 'cdp';
  return parsed.pathname.startsWith('/devtools/browser/') ? 'cdp' : 'playwright';
}

/** Why the declared kind cannot be that URL's, or undefined when it can. */
export function endpointKindProblem(url: string, declared: DeclaredEndpointKind): string | undefined {
  if (declared === 'playwright' && /^https?:/i.test(url))
    return 'WEBSEARCH_BROWSER_ENDPOINT_KIND=playwright needs a ws:// or wss:// WEBSEARCH_BROWSER_ENDPOINT (a Playwright browser server); an http(s):// endpoint is a DevTools (cdp) one';
  return undefined;
}

/**
 * The endpoint as logs and errors may show it: scheme, host and port. Its user information,
 * path and query are left out: farms put their tokens there (`?token=`), and a DevTools
 * socket's path (/devtools/browser/<id>) is as good as a key to whoever reaches the port.
 */
export function shownEndpoint(url: string): string {
  try {
    const { protocol, host, pathname, search } = new URL(url);
    return `${protocol}//${host}${pathname.length > 1 || search ? '/…' : ''}`;
  } catch {
    return 'an endpoint that is not a URL';
  }
}
