/**
 * Google Programmable Search (Custom Search JSON API, `GET <base>/customsearch/v1`). Needs an
 * API key and a search engine id (cx). Closed to new customers; kept for existing ones.
 */
import type {
  EngineContext,
  EngineRequest,
  EngineResponse,
  EngineResult,
  SafeSearch,
  SearchEngine,
  SearchParams,
  TimeRange,
} from './types.js';
import {
  asString,
  cleanText,
  countryCode,
  httpError,
  isRecord,
  isSuccess,
  languageRegion,
  malformed,
  mapJsonResults,
  parseJsonBody,
  parseRetryAfter,
  primaryLanguage,
  rateLimited,
  siteOperatorDomains,
  trimBase,
  tryParseJson,
  withSiteOperators,
} from './common.js';
import { toIsoDate } from '../core/dates.js';
import { AppError } from '../core/errors.js';
import { ENGINE_CATALOG } from './catalog.js';

const NAME = 'Google Custom Search';

/** The API has two levels only; `moderate` filters explicit results like `strict`. */
export const GOOGLE_SAFE: Record<SafeSearch, 'active' | 'off'> = { off: 'off', moderate: 'active', strict: 'active' };
export const GOOGLE_DATE_RESTRICT: Record<TimeRange, string> = { day: 'd1', week: 'w1', month: 'm1', year: 'y1' };

/** `lr` value (`lang_xx`); Google spells Hebrew `iw` and splits Chinese by script. */
export function googleLanguage(language: string | undefined): string | undefined {
  const primary = primaryLanguage(language);
  if (!primary) return undefined;
  if (primary === 'zh') {
    const region = languageRegion(language);
    const traditional = /-hant\b/i.test(language ?? '') || ['tw', 'hk', 'mo'].includes(region ?? '');
    return traditional ? 'lang_zh-TW' : 'lang_zh-CN';
  }
  if (primary === 'he') return 'lang_iw';
  if (primary === 'nb' || primary === 'nn') return 'lang_no';
  return `lang_${primary}`;
}

/** `gl` country; Google uses `uk` for the United Kingdom. */
export function googleCountry(country: string | undefined): string | undefined {
  const cc = countryCode(country);
  return cc === 'gb' ? 'uk' : cc;
}

function buildRequest(params: SearchParams, ctx: EngineContext): EngineRequest {
  if (!ctx.apiKey || !ctx.cseId) {
    throw new AppError('engine_unconfigured', 'Google Custom Search needs an API key and a search engine id (cx)');
  }
  const includes = siteOperatorDomains(params.includeDomains);
  // One include domain goes to `siteSearch`; several become a `site:` OR group in q.
  const single = includes.length === 1 ? includes[0] : undefined;
  const q = withSiteOperators(params.query, includes, params.excludeDomains, {
    multipleIncludes: 'or-group',
    excludes: true,
    skipIncludes: single !== undefined,
    maxLength: 2048,
  });
  const query = new URLSearchParams({
    key: ctx.apiKey,
    cx: ctx.cseId,
    q,
    num: String(Math.min(10, Math.max(1, Math.floor(params.maxResults)))),
    safe: GOOGLE_SAFE[params.safesearch],
  });
  const lr = googleLanguage(params.language);
  if (lr) query.set('lr', lr);
  const gl = googleCountry(params.country);
  if (gl) query.set('gl', gl);
  if (params.timeRange) query.set('dateRestrict', GOOGLE_DATE_RESTRICT[params.timeRange]);
  if (single) {
    query.set('siteSearch', single);
    query.set('siteSearchFilter', 'i');
  }
  return {
    url: `${trimBase(ctx.baseUrl)}/customsearch/v1?${query.toString()}`,
    method: 'GET',
    headers: { 'User-Agent': ctx.userAgent, Accept: 'application/json' },
  };
}

const QUOTA_REASONS = new Set(['rateLimitExceeded', 'dailyLimitExceeded', 'userRateLimitExceeded', 'quotaExceeded']);

interface GoogleError {
  code?: number;
  message?: string;
  status?: string;
  reasons: string[];
}

function googleError(body: string): GoogleError | undefined {
  const data = tryParseJson(body);
  if (!isRecord(data) || !isRecord(data.error)) return undefined;
  const e = data.error;
  const reasons = Array.isArray(e.errors)
    ? e.errors.flatMap((x) => (isRecord(x) && typeof x.reason === 'string' ? [x.reason] : []))
    : [];
  return {
    code: typeof e.code === 'number' ? e.code : undefined,
    message: asString(e.message),
    status: asString(e.status),
    reasons,
  };
}

function parseResponse(res: EngineResponse, _params: SearchParams): EngineResult[] {
  if (!isSuccess(res.status)) {
    const err = googleError(res.body);
    const quota =
      err !== undefined && (err.status === 'RESOURCE_EXHAUSTED' || err.reasons.some((r) => QUOTA_REASONS.has(r)));
    if (res.status === 429 || (res.status === 403 && quota)) {
      throw rateLimited(NAME, res, err?.message, parseRetryAfter(res.headers['retry-after']));
    }
    const detail = err?.message
      ? `${err.message}${err.reasons.length ? ` (${err.reasons.join(', ')})` : ''}`
      : undefined;
    throw httpError(NAME, res, detail);
  }

  const data = parseJsonBody(NAME, res);
  if (!isRecord(data)) throw malformed(NAME, res, 'not a JSON object');
  if (data.items === undefined) return [];
  if (!Array.isArray(data.items)) throw malformed(NAME, res, '`items` is not an array');

  return mapJsonResults(data.items, {
    url: 'link',
    title: 'title',
    snippet: 'snippet',
    text: cleanText,
    published: (item) => publishedTime(item.pagemap),
  });
}

/** `pagemap.metatags[*]['article:published_time']`, as ISO 8601. */
function publishedTime(pagemap: unknown): string | undefined {
  if (!isRecord(pagemap) || !Array.isArray(pagemap.metatags)) return undefined;
  for (const tags of pagemap.metatags) {
    if (!isRecord(tags)) continue;
    const iso = toIsoDate(tags['article:published_time']);
    if (iso) return iso;
  }
  return undefined;
}

export const google: SearchEngine = {
  id: 'google',
  ...ENGINE_CATALOG.google,
  buildRequest,
  parseResponse,
};
