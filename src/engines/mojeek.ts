/**
 * Mojeek HTML results page (`GET <base>/search?q=..`), keyless, independent index.
 * Page 1 carries no `s` parameter (sending `s=0` is known to trigger its rate limit).
 */
import type {
  EngineContext,
  EngineRequest,
  EngineResponse,
  EngineResult,
  SearchEngine,
  SearchParams,
  TimeRange,
} from './types.js';
import {
  HTML_ACCEPT,
  acceptLanguage,
  all,
  blocked,
  countryCode,
  httpError,
  isSuccess,
  malformed,
  parseHtmlDocument,
  primaryLanguage,
  rateLimited,
  textOf,
  trimBase,
  withSiteOperators,
} from './common.js';
import type { HtmlDocument } from './common.js';
import { parseHttpUrl } from './normalize-url.js';
import { ENGINE_CATALOG } from './catalog.js';

const NAME = 'Mojeek';

/**
 * `since=YYYYMMDD` lower bound for a time range, from `now` (UTC calendar): one day, seven
 * days, one month or one year earlier; a day missing in the shorter month is clamped
 * (March 31 minus a month → February 28/29).
 */
export function mojeekSince(range: TimeRange, now: number = Date.now()): string {
  const today = new Date(now);
  let y = today.getUTCFullYear();
  let m = today.getUTCMonth();
  let d = today.getUTCDate();
  if (range === 'day' || range === 'week') {
    const back = new Date(Date.UTC(y, m, d - (range === 'day' ? 1 : 7)));
    [y, m, d] = [back.getUTCFullYear(), back.getUTCMonth(), back.getUTCDate()];
  } else {
    if (range === 'month') m -= 1;
    else y -= 1;
    if (m < 0) [y, m] = [y - 1, 11];
    const lastDay = new Date(Date.UTC(y, m + 1, 0)).getUTCDate();
    d = Math.min(d, lastDay);
  }
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${y}${pad(m + 1)}${pad(d)}`;
}

function buildRequest(params: SearchParams, ctx: EngineContext): EngineRequest {
  // Mojeek understands a single `site:`; several include domains are left to the fused filter.
  const q = withSiteOperators(params.query, params.includeDomains, undefined, {
    multipleIncludes: 'none',
    excludes: false,
    maxLength: 1000,
  });
  const query = new URLSearchParams({ q });
  // Mojeek has one safe-search level: on or off.
  query.set('safe', params.safesearch === 'off' ? '0' : '1');
  if (params.timeRange) query.set('since', mojeekSince(params.timeRange));

  const headers: Record<string, string> = {
    'User-Agent': ctx.userAgent,
    Accept: HTML_ACCEPT,
    'Accept-Language': acceptLanguage(params.language),
  };
  // Language and region preferences are cookies (`lb`, `arc`) at Mojeek.
  const cookies: string[] = [];
  const lang = primaryLanguage(params.language);
  if (lang) cookies.push(`lb=${lang}`);
  const cc = countryCode(params.country);
  if (cc) cookies.push(`arc=${cc}`);
  if (cookies.length > 0) headers.Cookie = cookies.join('; ');

  return { url: `${trimBase(ctx.baseUrl)}/search?${query.toString()}`, method: 'GET', headers };
}

/** Mojeek's JavaScript challenge page. */
export function isMojeekCaptcha(doc: HtmlDocument): boolean {
  if (/^\s*captcha\s*$/i.test(doc.title)) return true;
  if (doc.querySelector('#challenge-form, form[action*="captcha"]') !== null) return true;
  return /JavaScript is required to complete this challenge/i.test(textOf(doc.body));
}

function parseResponse(res: EngineResponse, _params: SearchParams): EngineResult[] {
  if (res.status === 429) throw rateLimited(NAME, res);
  const doc = parseHtmlDocument(res.body);
  if (isMojeekCaptcha(doc)) throw blocked(NAME, res, 'CAPTCHA page');
  if (res.status === 403) throw blocked(NAME, res, 'forbidden');
  if (!isSuccess(res.status)) throw httpError(NAME, res);

  const items = all(doc, 'ul.results-standard > li');
  const results: EngineResult[] = [];
  for (const li of items) {
    const titleLink = li.querySelector('h2 a');
    const href = li.querySelector('a.ob')?.getAttribute('href') ?? titleLink?.getAttribute('href') ?? null;
    const url = href ? parseHttpUrl(href) : null;
    if (!url) continue;
    results.push({ title: textOf(titleLink), url: url.href, snippet: textOf(li.querySelector('p.s')) });
  }
  if (items.length === 0) {
    const noResults = doc.querySelector('ul.results-standard') !== null || /\bNo pages found\b/i.test(textOf(doc.body));
    if (!noResults) throw malformed(NAME, res, 'no result list and no "no pages found" notice');
  }
  return results;
}

export const mojeek: SearchEngine = {
  id: 'mojeek',
  ...ENGINE_CATALOG.mojeek,
  buildRequest,
  parseResponse,
};
