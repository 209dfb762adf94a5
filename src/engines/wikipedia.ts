/**
 * Wikipedia through the MediaWiki search API (`list=search`), keyless. Only finds Wikipedia
 * articles, so it has a low default weight. Time range, safesearch and domain filters do
 * not apply (the fused list still enforces the domain filters).
 */
import type {
  EngineContext,
  EngineRequest,
  EngineResponse,
  EngineResult,
  SearchEngine,
  SearchParams,
} from './types.js';
import {
  asString,
  blocked,
  htmlToText,
  httpError,
  isRecord,
  isSuccess,
  malformed,
  parseJsonBody,
  primaryLanguage,
  rateLimited,
  trimBase,
} from './common.js';
import { AppError } from '../core/errors.js';
import { ENGINE_CATALOG } from './catalog.js';

const NAME = 'Wikipedia';

/** Wikis whose subdomain is not the ISO 639-1 code. */
const WIKI_ALIASES: Record<string, string> = { nb: 'no' };

/** Wiki language subdomain for a BCP 47 tag: its primary subtag, `en` by default. */
export function wikiLanguage(language: string | undefined): string {
  const primary = primaryLanguage(language) ?? 'en';
  return WIKI_ALIASES[primary] ?? primary;
}

/** Base URL with `{lang}` replaced by the wiki language. */
export function wikiBase(baseUrl: string, language: string | undefined): string {
  return trimBase(baseUrl.replace(/\{lang\}/g, wikiLanguage(language)));
}

/** Article URL: spaces → `_`, percent-encoded, `/` and `:` kept readable. */
export function wikiArticleUrl(base: string, title: string): string {
  const path = encodeURIComponent(title.replace(/ /g, '_')).replace(/%2F/g, '/').replace(/%3A/g, ':');
  return `${base}/wiki/${path}`;
}

function buildRequest(params: SearchParams, ctx: EngineContext): EngineRequest {
  const base = wikiBase(ctx.baseUrl, params.language);
  const query = new URLSearchParams({
    action: 'query',
    list: 'search',
    srsearch: params.query,
    srlimit: String(Math.min(50, Math.max(1, Math.floor(params.maxResults)))),
    format: 'json',
    formatversion: '2',
    utf8: '1',
    srprop: 'snippet|timestamp',
  });
  return {
    url: `${base}/w/api.php?${query.toString()}`,
    method: 'GET',
    headers: { 'User-Agent': ctx.userAgent, Accept: 'application/json' },
  };
}

function parseResponse(res: EngineResponse, params: SearchParams): EngineResult[] {
  if (res.status === 429) throw rateLimited(NAME, res);
  // Wikimedia answers 403 to clients breaking its User-Agent policy.
  if (res.status === 403) throw blocked(NAME, res, 'forbidden (check the User-Agent)');
  if (!isSuccess(res.status)) throw httpError(NAME, res);

  const data = parseJsonBody(NAME, res);
  if (!isRecord(data)) throw malformed(NAME, res, 'not a JSON object');
  // MediaWiki reports API errors with HTTP 200 and an `error` object.
  if (isRecord(data.error)) {
    const code = asString(data.error.code) ?? 'unknown';
    const info = asString(data.error.info) ?? '';
    if (code === 'ratelimited' || code === 'maxlag') {
      throw new AppError('rate_limited', `${NAME} API error ${code}: ${info}`, {
        statusCode: res.status,
        retryable: true,
      });
    }
    throw new AppError('http', `${NAME} API error ${code}: ${info}`, { statusCode: res.status });
  }
  const search = isRecord(data.query) ? data.query.search : undefined;
  if (!Array.isArray(search)) throw malformed(NAME, res, 'no query.search array');

  // The base of the URL that answered: it already has {lang} substituted.
  const base = wikiBase(baseFromResponse(res.url) ?? 'https://{lang}.wikipedia.org', params.language);
  const results: EngineResult[] = [];
  for (const item of search) {
    if (!isRecord(item)) continue;
    const title = asString(item.title);
    if (!title) continue;
    // `timestamp` is the last edit, not a publication date: deliberately not published_at.
    results.push({ title, url: wikiArticleUrl(base, title), snippet: htmlToText(asString(item.snippet)) });
  }
  return results;
}

/** `https://de.wikipedia.org/w/api.php?...` → `https://de.wikipedia.org` (the part before `/w/api.php`). */
function baseFromResponse(url: string): string | undefined {
  const at = url.indexOf('/w/api.php');
  return at > 0 ? url.slice(0, at) : undefined;
}

export const wikipedia: SearchEngine = {
  id: 'wikipedia',
  ...ENGINE_CATALOG.wikipedia,
  buildRequest,
  parseResponse,
};
