/**
 * Which URLs belong to a site map or crawl, each spelt once (docs/decisions.md, "Site maps
 * and crawls"): parsed by the fetcher's rules, the fragment dropped (RFC 9110 4.2.4: never
 * sent), the default port dropped (WHATWG URL does it), tracking parameters dropped (the
 * project's one list, core/drop-tracking-params.ts) and session ids too (the same page under
 * a new id on every visit: a crawler trap); then the same origin as the start URL, or its
 * subdomains when asked, and the request's path globs.
 */
import { AppError, toAppError } from '../../core/errors.js';
import { dropTrackingParams } from '../../core/drop-tracking-params.js';
import { anyGlobMatches, pathGlob, type PathGlob } from '../../core/path-glob.js';
import { parseTargetUrl } from '../../net/request-url.js';

/** Query parameters (and `;name=` path parameters) that only carry a session: dropped. */
const SESSION_PARAMS: ReadonlySet<string> = new Set([
  'sessionid',
  'session_id',
  'sessid',
  'sid',
  'jsessionid',
  'phpsessid',
  'aspsessionid',
  'cfid',
  'cftoken',
  'zenid',
  'oscsid',
]);

export interface ScopeOptions {
  include_paths?: string[] | undefined;
  exclude_paths?: string[] | undefined;
  include_subdomains: boolean;
}

export type OutOfScope = 'invalid' | 'offsite' | 'excluded';

export class SiteScope {
  /** The start URL, normalised. */
  readonly start: URL;
  readonly #include: PathGlob[];
  readonly #exclude: PathGlob[];
  readonly #subdomains: boolean;
  /** The host whose subdomains count (the start host without a leading `www.`). */
  readonly #baseHost: string;

  /** Throws `invalid_request` naming `url` when the start URL cannot be fetched (not http(s), credentials...). */
  constructor(startUrl: string, options: ScopeOptions) {
    let start: URL;
    try {
      start = normalizedUrl(startUrl);
    } catch (err) {
      const reason = toAppError(err).message;
      throw new AppError('invalid_request', `Invalid request: url: ${reason}`, {
        details: [{ path: 'url', message: reason }],
      });
    }
    this.start = start;
    this.#include = (options.include_paths ?? []).map(pathGlob);
    this.#exclude = (options.exclude_paths ?? []).map(pathGlob);
    this.#subdomains = options.include_subdomains;
    this.#baseHost = start.hostname.replace(/^www\./, '');
  }

  /** The URL as the site's list spells it (relative ones against `base`), or why it is left out. */
  resolve(raw: string, base?: string): { url: string } | { out: OutOfScope } {
    let url: URL;
    try {
      url = normalizedUrl(raw, base);
    } catch {
      return { out: 'invalid' };
    }
    if (!this.#onSite(url)) return { out: 'offsite' };
    if (this.#include.length > 0 && !anyGlobMatches(this.#include, url.pathname)) return { out: 'excluded' };
    if (anyGlobMatches(this.#exclude, url.pathname)) return { out: 'excluded' };
    return { url: url.href };
  }

  /** The spelling of `raw` the scope would give it, whether in scope or not (aliases: a redirect's target). */
  spell(raw: string, base?: string): string | undefined {
    try {
      return normalizedUrl(raw, base).href;
    } catch {
      return undefined;
    }
  }

  #onSite(url: URL): boolean {
    if (url.origin === this.start.origin) return true;
    if (!this.#subdomains || url.protocol !== this.start.protocol) return false;
    return url.hostname === this.#baseHost || url.hostname.endsWith(`.${this.#baseHost}`);
  }
}

/** One spelling per page: fetcher's parse, no fragment, no tracking or session parameters. */
export function normalizedUrl(raw: string, base?: string): URL {
  const absolute = base === undefined ? raw.trim() : new URL(raw.trim(), base).href;
  const url = parseTargetUrl(absolute);
  url.hash = '';
  if (url.pathname.includes(';'))
    url.pathname = url.pathname.replace(/;([^/;=]+)=[^/;]*/g, (all, name: string) =>
      SESSION_PARAMS.has(name.toLowerCase()) ? '' : all,
    );
  const cleaned = new URL(dropTrackingParams(url.href));
  if (cleaned.search !== '') {
    const names = [...cleaned.searchParams.keys()];
    if (names.some((name) => SESSION_PARAMS.has(name.toLowerCase()))) {
      for (const name of names) if (SESSION_PARAMS.has(name.toLowerCase())) cleaned.searchParams.delete(name);
    }
  }
  return cleaned;
}

/** Throws the reason a start URL cannot be used, as a 400 naming `url` (an address refused, say). */
export function startUrlRefused(error: AppError): AppError {
  const reason = `${error.message} (${error.code})`;
  return new AppError('invalid_request', `Invalid request: url: ${reason}`, {
    details: [{ path: 'url', message: reason }],
  });
}
