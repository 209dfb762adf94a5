/**
 * The contract of the guarded HTTP client (`GuardedFetcher` in guarded-fetcher.ts).
 */
import type { RequestDeadline } from '../core/request-context.js';
import type { BrowserProfile } from './browser-profile.js';

/** What is known once the status line and headers of the final hop arrived. */
export interface ResponseHead {
  /** The URL asked for. */
  url: string;
  /** The URL of the final hop, after redirects. */
  finalUrl: string;
  status: number;
  statusText: string;
  /**
   * Lower-cased header names; repeated headers joined with ", ", but Set-Cookie's with "\n"
   * (a cookie's Expires holds a comma; a browser handed these headers splits them there).
   */
  headers: Record<string, string>;
  /** Every URL visited before the final one, in order. */
  redirects: string[];
}

export interface FetchedResponse extends ResponseHead {
  /** The decoded (gzip/deflate/br removed) body bytes, at most `maxBytes`. */
  body: Uint8Array;
}

/** A redirect about to be followed: where from, with which status, and the exchange's deadline. */
export interface RedirectHop {
  from: URL;
  status: number;
  ctx: RequestDeadline;
}

export interface FetchOptions {
  method?: 'GET' | 'POST' | 'HEAD';
  headers?: Record<string, string>;
  body?: string | Uint8Array;
  /**
   * The deadline of the whole exchange, redirects included, and the signal that cancels
   * it (and closes the socket): the request's context, or a budget under it (an engine
   * call). Default: the configured timeout from now, not cancellable.
   */
  ctx?: RequestDeadline;
  /** Cap on decoded body bytes. Default: config (10 MiB). */
  maxBytes?: number;
  /** Stop reading after this many bytes instead of failing (robots.txt: 500 KiB). */
  truncateAt?: number;
  /** Redirect hops to follow. Default: config (5). */
  maxRedirects?: number;
  /**
   * `manual`: a redirect is returned as the response, not followed (a browser's navigation,
   * which the browser follows itself as a request of its own). Default `follow`.
   */
  redirect?: 'follow' | 'manual';
  /**
   * Called once the final hop's headers arrived, before the body is read. Throwing an
   * AppError aborts the download (content-type gate, Content-Length pre-check).
   */
  onHead?: (head: ResponseHead) => void;
  /**
   * Called with the first bytes of the decoded body (up to 4100 bytes, or all of a
   * shorter body), before the rest is read. Throwing aborts the download (magic bytes).
   */
  onFirstBytes?: (bytes: Uint8Array, head: ResponseHead) => void | Promise<void>;
  /**
   * Called with each redirect target before it is requested (after the URL rules and the
   * literal-address pre-check, before its host slot is taken), under the exchange's
   * deadline. Throwing refuses the hop: the fetch fails with that error, unchanged. The page
   * journey checks robots.txt here (RFC 9309 applies to every URL fetched, not only the
   * first); robots.txt's own fetch sets none (RFC 9309 2.3.1.2: it follows its redirects).
   */
  onRedirect?: (target: URL, hop: RedirectHop) => void | Promise<void>;
  /**
   * Allow private/loopback destinations for this request only (a configured engine base
   * URL on the LAN). Page fetches never set it; the global config switch still applies.
   */
  allowPrivate?: boolean;
  /**
   * Stealth: send this browser profile's headers instead of the project's User-Agent, and
   * go through the stealth proxy when one is configured (the address policy still applies
   * to the target, resolved here first).
   */
  profile?: BrowserProfile;
  /** Skip the per-host concurrency queue (robots.txt fetched while holding a slot). */
  bypassHostLimit?: boolean;
}

export interface HttpClient {
  /** A URL string is parsed by the fetcher's rules; a parsed URL is checked by them (net/request-url.ts). */
  /**
   * Under the caller's context: its deadline covers the whole exchange and its signal
   * cancels it. (GuardedFetcher, as a library class, also takes a call without one: the
   * configured timeout then applies.)
   */
  fetch(url: string | URL, options: FetchOptions & { ctx: RequestDeadline }): Promise<FetchedResponse>;
  close(): Promise<void>;
}
