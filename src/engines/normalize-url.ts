/**
 * URL keys for de-duplicating search results across engines, and host matching for the
 * include/exclude domain filters.
 *
 * Key rules (each one unit-tested):
 *  - WHATWG parse; only `http:` and `https:` (anything else, or unparseable → null);
 *  - scheme ignored: the key is host + path + query, so http and https collapse;
 *  - host lower-cased and IDNA-encoded to ASCII (the WHATWG parser does both), one trailing
 *    dot removed; `www.` is kept (SearXNG does not strip it either: www.x and x can differ);
 *  - default port dropped (WHATWG), other ports kept; user name and password left out;
 *  - fragment dropped;
 *  - percent-encoding in the path normalised: hex digits upper-cased, unreserved characters
 *    (`A-Z a-z 0-9 - . _ ~`) decoded;
 *  - trailing slashes removed from a non-root path (`/docs/` ≡ `/docs`); the root stays `/`.
 *    Chosen because sites almost always serve one page under both spellings and engines
 *    disagree on which one they list;
 *  - tracking parameters removed (isTrackingParam, and KEY_ONLY_PARAMS; case-insensitive);
 *  - remaining parameters sorted by name with a stable sort (repeated names keep their
 *    order) and re-serialised form-style (`%20` and `+` both become `+`).
 */

import { isTrackingParam } from '../core/drop-tracking-params.js';

/**
 * Names merged into one key besides the tracking ones (core/drop-tracking-params.ts): they
 * mostly track (`ref_src` of any value, `ref_url`, Alibaba's `spm`), but a site may need
 * them (a sign-in page's return address), so links in the Markdown keep them. Two results
 * merged wrongly cost less than a link that no longer works.
 */
const KEY_ONLY_PARAMS: ReadonlySet<string> = new Set(['ref_src', 'ref_url', 'spm']);

const UNRESERVED = /[A-Za-z0-9\-._~]/;

function normalizePercentEncoding(path: string): string {
  return path.replace(/%([0-9a-fA-F]{2})/g, (_match, hex: string) => {
    const ch = String.fromCharCode(parseInt(hex, 16));
    return UNRESERVED.test(ch) ? ch : `%${hex.toUpperCase()}`;
  });
}

/** Parses an http(s) URL; null for anything else. */
export function parseHttpUrl(url: string): URL | null {
  let parsed: URL;
  try {
    parsed = new URL(url.trim());
  } catch {
    return null;
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return null;
  if (parsed.hostname === '') return null;
  return parsed;
}

/** De-duplication key of a result URL (see the rules above), or null when not http(s). */
export function normalizeUrlKey(url: string): string | null {
  const parsed = parseHttpUrl(url);
  if (!parsed) return null;

  let host = parsed.hostname.replace(/\.$/, '');
  if (host === '') return null;
  if (parsed.port !== '') host += `:${parsed.port}`;

  let path = normalizePercentEncoding(parsed.pathname);
  if (path.length > 1) path = path.replace(/\/+$/, '') || '/';

  const params = new URLSearchParams(parsed.search);
  const kept = new URLSearchParams();
  for (const [name, value] of params)
    if (!isTrackingParam(name, value) && !KEY_ONLY_PARAMS.has(name.toLowerCase())) kept.append(name, value);
  kept.sort();
  const query = kept.toString();

  return query === '' ? `${host}${path}` : `${host}${path}?${query}`;
}

/**
 * Lower-case ASCII (IDNA) form of a host name given by a user or an engine: trims, drops a
 * trailing dot, a leading `*.` or `.`, and — leniently — a scheme, path or port. Returns
 * null when nothing usable remains.
 */
export function toAsciiHost(value: string): string | null {
  let s = value.trim().toLowerCase();
  if (s === '') return null;
  if (s.includes('://')) {
    const parsed = parseHttpUrl(s);
    if (!parsed) return null;
    s = parsed.hostname;
  }
  s = s.replace(/^\*?\./, '');
  s = s.split('/')[0] ?? '';
  if (!s.startsWith('[')) s = s.replace(/:\d*$/, '');
  s = s.replace(/\.$/, '');
  if (s === '') return null;
  // Punycode and validation via the WHATWG host parser.
  try {
    const host = new URL(`http://${s}/`).hostname.replace(/\.$/, '');
    return host === '' ? null : host;
  } catch {
    return null;
  }
}

/**
 * True when `host` is `domain` or one of its subdomains. Case-insensitive and IDNA-aware
 * (`bücher.de` matches `xn--bcher-kva.de`); `notexample.com` does not match `example.com`.
 */
export function hostMatches(host: string, domain: string): boolean {
  const h = toAsciiHost(host);
  const d = toAsciiHost(domain);
  if (!h || !d) return false;
  return h === d || h.endsWith(`.${d}`);
}

/** True when `host` matches any of `domains`. */
export function hostMatchesAny(host: string, domains: readonly string[]): boolean {
  return domains.some((d) => hostMatches(host, d));
}
