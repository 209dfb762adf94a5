/**
 * One page as the services carry it, built once per submitted URL: the URL parsed by the
 * fetcher's own rules (net/request-url.ts), the key that says "the same page" (duplicates in
 * one request share one extraction and one charge; docs/interface.md 4.2), the key its
 * output is cached under, the options that change that output, and the request's context
 * (its deadline and cancellation). Cache, robots, fetch, render and convert all read this
 * one value; nothing parses the URL again.
 */
import { createHash } from 'node:crypto';
import { AppError, toAppError } from '../../core/errors.js';
import type { RequestContext } from '../../core/request-context.js';
import type { PageControls } from '../../extract/types.js';
import { parseTargetUrl, requestTarget } from '../../net/request-url.js';

export type ExtractFormat = 'markdown' | 'html';

export interface ExtractOptions {
  format: ExtractFormat;
  /** The browser profile on the static fetch, and a rendered retry of a blocked page. */
  stealth?: boolean;
  /** Links and selectors (HTML only): part of the cache key. */
  controls?: PageControls;
  /** Render, and wait for this CSS selector to match (needs the browser): part of the cache key. */
  waitForSelector?: string;
  /** Render, and take a PNG of the page (needs the browser): never served from or written to the cache. */
  screenshot?: boolean;
  /** Seconds: a cached copy older than this is fetched again; 0 always fetches. */
  maxAge?: number;
  /**
   * The passages that answer `query` (docs/decisions.md, "Query-focused passages"), ranked once
   * the page is known (cached or fresh); `language` names the stop words when the page names none.
   * Not part of the cache key: the cache keeps pages, not answers.
   */
  passages?: { query: string; max: number; maxChars: number; language?: string };
}

export interface PageRequest {
  /** The URL as submitted: what the result echoes. */
  readonly raw: string;
  /** Parsed once, by the fetcher's rules (http/https, a host, no credentials). */
  readonly url: URL;
  /** "The same page": the URL without its fragment (RFC 9110 4.2.4: a fragment is never sent). */
  readonly key: string;
  /** Where the page's output is cached: the format, the key, and the options that shape the output. */
  readonly cacheKey: string;
  readonly options: ExtractOptions;
  readonly ctx: RequestContext;
}

/** The page request for a submitted URL, or the reason it cannot be fetched (`invalid_url`). */
export function pageRequest(ctx: RequestContext, raw: string, options: ExtractOptions): PageRequest | AppError {
  const text = raw.trim();
  if (text === '') return new AppError('invalid_url', 'The URL is empty.');
  let url: URL;
  try {
    url = parseTargetUrl(text);
  } catch (err) {
    return toAppError(err);
  }
  const key = requestTarget(url).href;
  return { raw, url, key, cacheKey: pageCacheKey(options.format, key, options), options, ctx };
}

/**
 * The key a page's output is cached under: its format and key, and a digest of the options
 * that change the output (links, selectors, comments, structured data, the selector waited
 * for, stealth: a site may answer a browser's identity with another page), so that one never answers for another;
 * a request without them keeps the key it always had.
 */
export function pageCacheKey(format: ExtractFormat, key: string, options: ExtractOptions): string {
  const { controls = {}, waitForSelector } = options;
  const shaping = {
    links: controls.includeLinks === true,
    include: controls.includeSelectors ?? [],
    exclude: controls.excludeSelectors ?? [],
    wait: waitForSelector ?? null,
    ...(options.stealth === true ? { stealth: true } : {}),
    ...(controls.includeComments === true ? { comments: true } : {}),
    ...(controls.includeStructuredData === true ? { structuredData: true } : {}),
  };
  const plain =
    !shaping.links &&
    shaping.include.length === 0 &&
    shaping.exclude.length === 0 &&
    shaping.wait === null &&
    options.stealth !== true &&
    controls.includeComments !== true &&
    controls.includeStructuredData !== true;
  if (plain) return `page:${format}:${key}`;
  const digest = createHash('sha256').update(JSON.stringify(shaping)).digest('hex').slice(0, 16);
  return `page:${format}:${digest}:${key}`;
}

/** The options that need the headless browser, named for the error that says it is missing. */
export function browserOptions(options: ExtractOptions): string[] {
  return [
    ...(options.waitForSelector !== undefined ? ['wait_for_selector'] : []),
    ...(options.screenshot === true ? ['screenshot'] : []),
  ];
}
