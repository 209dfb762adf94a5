/**
 * Helpers shared by the engine modules: HTML parsing (linkedom), text clean-up, JSON
 * parsing, status-to-AppError mapping, locale mapping and `site:` query operators.
 * Everything here is pure (apart from reading the clock for `Retry-After` dates).
 */
import { parseHTML } from 'linkedom';
import { decodeEntities } from '../core/entities.js';
import { AppError } from '../core/errors.js';
import type { EngineResponse, EngineResult, TimeRange } from './types.js';
import { toAsciiHost } from './normalize-url.js';

// ---------------------------------------------------------------------------------------
// HTML

/** The small part of the DOM the parsers use (linkedom ships no usable typings here). */
export interface HtmlElement {
  readonly textContent: string | null;
  readonly tagName: string;
  getAttribute(name: string): string | null;
  querySelector(selector: string): HtmlElement | null;
  querySelectorAll(selector: string): ArrayLike<HtmlElement>;
  closest(selector: string): HtmlElement | null;
  readonly classList: { contains(token: string): boolean };
}

export interface HtmlDocument {
  readonly title: string;
  readonly body: HtmlElement | null;
  readonly documentElement: HtmlElement | null;
  querySelector(selector: string): HtmlElement | null;
  querySelectorAll(selector: string): ArrayLike<HtmlElement>;
}

export function parseHtmlDocument(html: string): HtmlDocument {
  const doc = parseHTML(html).document as unknown as HtmlDocument;
  // linkedom leaves documentElement null for bodies without any element (plain text, JSON).
  if (doc.documentElement) return doc;
  return parseHTML(`<!DOCTYPE html><html><head></head><body>${html}</body></html>`).document as unknown as HtmlDocument;
}

export function all(root: HtmlDocument | HtmlElement, selector: string): HtmlElement[] {
  return Array.from(root.querySelectorAll(selector));
}

/** Trims and collapses every run of white space (including NBSP) to one space. */
export function cleanText(value: string | null | undefined): string {
  if (!value) return '';
  return value.replace(/[\s\u00a0]+/g, ' ').trim();
}

export function textOf(element: HtmlElement | null | undefined): string {
  return element ? cleanText(element.textContent) : '';
}

const TAG = /<\/?[A-Za-z][A-Za-z0-9-]*(?:\s[^<>]*)?\/?>/g;

/**
 * Text of an HTML snippet from an API (`<span class="searchmatch">`, `<strong>`): tags
 * removed, entities decoded, white space collapsed. A lone `<` (as in `a<b`) is kept.
 */
export function htmlToText(fragment: string | null | undefined): string {
  if (!fragment) return '';
  // The fragment's text, so its references read as a browser reads them in text.
  return cleanText(decodeEntities(fragment.replace(TAG, ''), 'text'));
}

// ---------------------------------------------------------------------------------------
// JSON

export function parseJsonBody(engineName: string, res: EngineResponse): unknown {
  try {
    return JSON.parse(res.body) as unknown;
  } catch (cause) {
    throw new AppError(
      'malformed_response',
      `${engineName} answered HTTP ${res.status} with a body that is not valid JSON`,
      {
        statusCode: res.status,
        retryable: true,
        cause,
      },
    );
  }
}

/** Same as parseJsonBody but returns undefined instead of throwing (error bodies). */
export function tryParseJson(body: string): unknown {
  try {
    return JSON.parse(body) as unknown;
  } catch {
    return undefined;
  }
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function asString(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/**
 * Where one engine's JSON result keeps its fields and how their text is cleaned: Brave and
 * Google send HTML fragments or plain text, SearXNG plain text; each names them its own way.
 */
export interface JsonResultShape {
  url: string;
  title: string;
  snippet: string;
  /** The cleaner of title and snippet (cleanText for plain text, htmlToText for fragments). */
  text: (value: string | undefined) => string;
  /** The publication date as ISO 8601, when the item has one. */
  published?: (item: Record<string, unknown>) => string | undefined;
  /** Whether the item is a web result at all (the rest are skipped). */
  accept?: (item: Record<string, unknown>) => boolean;
}

/** Maps an engine's JSON result list to results: items that are not objects or have no URL are skipped. */
export function mapJsonResults(list: readonly unknown[], shape: JsonResultShape): EngineResult[] {
  const results: EngineResult[] = [];
  for (const item of list) {
    if (!isRecord(item) || (shape.accept !== undefined && !shape.accept(item))) continue;
    const url = asString(item[shape.url]);
    if (!url) continue;
    const result: EngineResult = {
      title: shape.text(asString(item[shape.title])),
      url,
      snippet: shape.text(asString(item[shape.snippet])),
    };
    const published = shape.published?.(item);
    if (published) result.published_at = published;
    results.push(result);
  }
  return results;
}

export function malformed(engineName: string, res: EngineResponse, what: string): AppError {
  return new AppError(
    'malformed_response',
    `${engineName} answered HTTP ${res.status} with an unexpected body: ${what}`,
    {
      statusCode: res.status,
      retryable: true,
    },
  );
}

// ---------------------------------------------------------------------------------------
// Status handling

/** Seconds from a `Retry-After` header (delta-seconds or HTTP date); undefined if absent/invalid. */
export function parseRetryAfter(value: string | undefined, now: number = Date.now()): number | undefined {
  if (value === undefined) return undefined;
  const trimmed = value.trim();
  if (trimmed === '') return undefined;
  if (/^\d+$/.test(trimmed)) return Number(trimmed);
  const at = Date.parse(trimmed);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, Math.ceil((at - now) / 1000));
}

export function isSuccess(status: number): boolean {
  return status >= 200 && status < 300;
}

export function rateLimited(engineName: string, res: EngineResponse, detail?: string, retryAfter?: number): AppError {
  const after = retryAfter ?? parseRetryAfter(res.headers['retry-after']);
  return new AppError(
    'rate_limited',
    `${engineName} rate-limited the request (HTTP ${res.status})${detail ? `: ${detail}` : ''}`,
    {
      statusCode: res.status,
      retryable: true,
      ...(after === undefined ? {} : { retryAfter: after }),
    },
  );
}

export function blocked(engineName: string, res: EngineResponse, why: string): AppError {
  return new AppError('blocked', `${engineName} refused the request (HTTP ${res.status}): ${why}`, {
    statusCode: res.status,
    retryable: false,
  });
}

export function httpError(engineName: string, res: EngineResponse, detail?: string): AppError {
  return new AppError('http', `${engineName} answered HTTP ${res.status}${detail ? `: ${detail}` : ''}`, {
    statusCode: res.status,
    retryable: res.status >= 500,
  });
}

// ---------------------------------------------------------------------------------------
// Locale

/** Lower-case primary subtag of a BCP 47 tag (`de-CH` → `de`), undefined when unusable. */
export function primaryLanguage(language: string | undefined): string | undefined {
  if (!language) return undefined;
  const primary = language.trim().split(/[-_]/)[0]?.toLowerCase();
  return primary && /^[a-z]{2,3}$/.test(primary) ? primary : undefined;
}

/** Region subtag of a BCP 47 tag (`de-CH` → `ch`, `zh-Hant-TW` → `tw`), lower case. */
export function languageRegion(language: string | undefined): string | undefined {
  if (!language) return undefined;
  const parts = language.trim().split(/[-_]/).slice(1);
  const region = parts.find((p) => /^[a-z]{2}$/i.test(p));
  return region?.toLowerCase();
}

/** Lower-case ISO 3166-1 alpha-2 country, undefined when not two letters. */
export function countryCode(country: string | undefined): string | undefined {
  if (!country) return undefined;
  const c = country.trim().toLowerCase();
  return /^[a-z]{2}$/.test(c) ? c : undefined;
}

/** `Accept-Language` value for a BCP 47 tag; a neutral English default when none. */
export function acceptLanguage(language: string | undefined): string {
  const primary = primaryLanguage(language);
  if (!language || !primary) return 'en-US,en;q=0.9';
  const tag = language.trim().replace(/_/g, '-');
  if (!/^[A-Za-z0-9-]{2,35}$/.test(tag)) return primary;
  return tag.toLowerCase() === primary ? primary : `${tag},${primary};q=0.9`;
}

export const TIME_RANGE_LETTER: Record<TimeRange, 'd' | 'w' | 'm' | 'y'> = {
  day: 'd',
  week: 'w',
  month: 'm',
  year: 'y',
};

// ---------------------------------------------------------------------------------------
// URLs and queries

/** Base URL without trailing slashes. */
export function trimBase(baseUrl: string): string {
  return baseUrl.trim().replace(/\/+$/, '');
}

/** Host names usable in a `site:` operator: IDNA ASCII, letters, digits, dots and hyphens only. */
export function siteOperatorDomains(domains: string[] | undefined): string[] {
  const out: string[] = [];
  for (const d of domains ?? []) {
    const host = toAsciiHost(d);
    if (host && /^[a-z0-9.-]+$/.test(host) && !out.includes(host)) out.push(host);
  }
  return out;
}

export interface SiteQueryOptions {
  /** How several include domains are expressed: an OR group, or not at all. */
  multipleIncludes: 'or-group' | 'none';
  /** Whether `-site:` is understood. */
  excludes: boolean;
  /** Include domains that are already passed some other way (Google `siteSearch`). */
  skipIncludes?: boolean;
  /** Longest query the engine accepts; the operators are left out when they do not fit. */
  maxLength: number;
  /** Most words the engine accepts (Brave: 50). */
  maxWords?: number;
}

/**
 * Appends `site:` operators for include/exclude domains: `q site:a.com`,
 * `q (site:a.com OR site:b.org)`, `q -site:x.com`. The fused list filters domains again,
 * so when the operators would push the query over the engine's limits they are dropped.
 */
export function withSiteOperators(
  query: string,
  include: string[] | undefined,
  exclude: string[] | undefined,
  options: SiteQueryOptions,
): string {
  const parts: string[] = [];
  const inc = options.skipIncludes ? [] : siteOperatorDomains(include);
  if (inc.length === 1) parts.push(`site:${inc[0]}`);
  else if (inc.length > 1 && options.multipleIncludes === 'or-group') {
    parts.push(`(${inc.map((d) => `site:${d}`).join(' OR ')})`);
  }
  if (options.excludes) for (const d of siteOperatorDomains(exclude)) parts.push(`-site:${d}`);
  if (parts.length === 0) return query;
  const full = `${query} ${parts.join(' ')}`;
  if (full.length > options.maxLength) return query;
  if (options.maxWords !== undefined && full.split(/\s+/).filter(Boolean).length > options.maxWords) return query;
  return full;
}

export const HTML_ACCEPT = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';
