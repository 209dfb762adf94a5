/**
 * Brave Search API, web search (`GET <base>/res/v1/web/search`), needs a subscription token.
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
  countryCode,
  htmlToText,
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
  trimBase,
  tryParseJson,
  withSiteOperators,
} from './common.js';
import { toIsoDate } from '../core/dates.js';
import { AppError } from '../core/errors.js';
import { ENGINE_CATALOG } from './catalog.js';

const NAME = 'Brave Search';

/** Countries the API accepts (others are answered with 422); unknown ones become `ALL`. */
const COUNTRIES = new Set(
  'AR AU AT BE BR CA CL DK FI FR DE HK IN ID IT JP KR MY MX NL NZ NO CN PL PT PH RU SA ZA ES SE CH TW TR GB US'.split(
    ' ',
  ),
);

/** `search_lang` values the API accepts. */
const SEARCH_LANGS = new Set(
  (
    'ar eu bn bg ca zh-hans zh-hant hr cs da nl en en-gb et fi fr gl de gu he hi hu is it jp kn ko lv lt ms ml mr nb pl ' +
    'pt-br pt-pt pa ro ru sr sk sl es sv ta te th tr uk vi'
  ).split(' '),
);

export const BRAVE_FRESHNESS: Record<TimeRange, string> = { day: 'pd', week: 'pw', month: 'pm', year: 'py' };
const BRAVE_SAFESEARCH: Record<SafeSearch, string> = { off: 'off', moderate: 'moderate', strict: 'strict' };

export function braveCountry(country: string | undefined): string | undefined {
  const cc = countryCode(country)?.toUpperCase();
  if (!cc) return undefined;
  const mapped = cc === 'UK' ? 'GB' : cc;
  return COUNTRIES.has(mapped) ? mapped : 'ALL';
}

/** `search_lang` for a BCP 47 tag, undefined when Brave does not support the language. */
export function braveSearchLang(language: string | undefined): string | undefined {
  const primary = primaryLanguage(language);
  if (!primary) return undefined;
  const region = languageRegion(language);
  const script = language
    ?.split(/[-_]/)
    .slice(1)
    .find((p) => /^[a-z]{4}$/i.test(p))
    ?.toLowerCase();
  let lang: string = primary;
  if (primary === 'zh') lang = script === 'hant' || ['tw', 'hk', 'mo'].includes(region ?? '') ? 'zh-hant' : 'zh-hans';
  else if (primary === 'ja') lang = 'jp';
  else if (primary === 'no' || primary === 'nn') lang = 'nb';
  else if (primary === 'pt') lang = region === 'pt' ? 'pt-pt' : 'pt-br';
  else if (primary === 'en' && (region === 'gb' || region === 'uk')) lang = 'en-gb';
  return SEARCH_LANGS.has(lang) ? lang : undefined;
}

function buildRequest(params: SearchParams, ctx: EngineContext): EngineRequest {
  if (!ctx.apiKey) throw new AppError('engine_unconfigured', 'Brave Search needs an API key (X-Subscription-Token)');
  const q = withSiteOperators(params.query, params.includeDomains, params.excludeDomains, {
    multipleIncludes: 'or-group',
    excludes: true,
    maxLength: 400,
    maxWords: 50,
  });
  const query = new URLSearchParams({
    q,
    count: String(Math.min(20, Math.max(1, Math.floor(params.maxResults)))),
    // A page index (0-9), not a result offset.
    offset: '0',
    safesearch: BRAVE_SAFESEARCH[params.safesearch],
  });
  const country = braveCountry(params.country);
  if (country) query.set('country', country);
  const lang = braveSearchLang(params.language);
  if (lang) query.set('search_lang', lang);
  if (params.timeRange) query.set('freshness', BRAVE_FRESHNESS[params.timeRange]);
  query.set('text_decorations', 'false');
  query.set('result_filter', 'web');
  return {
    url: `${trimBase(ctx.baseUrl)}/res/v1/web/search?${query.toString()}`,
    method: 'GET',
    headers: { 'User-Agent': ctx.userAgent, Accept: 'application/json', 'X-Subscription-Token': ctx.apiKey },
  };
}

function csvNumbers(value: string | undefined): number[] {
  if (!value) return [];
  return value.split(',').map((v) => Number(v.trim()));
}

/**
 * Seconds to wait after a 429: `Retry-After` when sent; else from `X-RateLimit-Reset`
 * (per-window "seconds until reset", e.g. `1, 1419704`): the longest reset among the
 * windows that `X-RateLimit-Remaining` shows exhausted, or the first (per-second) window.
 */
export function braveRetryAfter(headers: Record<string, string>): number | undefined {
  const explicit = parseRetryAfter(headers['retry-after']);
  if (explicit !== undefined) return explicit;
  const resets = csvNumbers(headers['x-ratelimit-reset']);
  if (resets.length === 0 || resets.some((n) => !Number.isFinite(n) || n < 0)) return undefined;
  const remaining = csvNumbers(headers['x-ratelimit-remaining']);
  const exhausted = resets.filter((_, i) => remaining[i] === 0);
  return exhausted.length > 0 ? Math.max(...exhausted) : resets[0];
}

interface BraveError {
  code?: string;
  detail?: string;
  errors: string[];
}

function braveError(body: string): BraveError | undefined {
  const data = tryParseJson(body);
  if (!isRecord(data) || !isRecord(data.error)) return undefined;
  const error = data.error;
  const errors: string[] = [];
  const meta = isRecord(error.meta) ? error.meta : undefined;
  if (meta && Array.isArray(meta.errors)) {
    for (const e of meta.errors) {
      if (!isRecord(e)) continue;
      const loc = Array.isArray(e.loc) ? e.loc.map(String).join('.') : undefined;
      const msg = asString(e.msg) ?? asString(e.message);
      if (msg) errors.push(loc ? `${loc}: ${msg}` : msg);
    }
  }
  return { code: asString(error.code), detail: asString(error.detail), errors };
}

function parseResponse(res: EngineResponse, _params: SearchParams): EngineResult[] {
  if (!isSuccess(res.status)) {
    const err = braveError(res.body);
    const detail = [err?.code, err?.detail].filter(Boolean).join(' ');
    if (res.status === 429) throw rateLimited(NAME, res, detail || undefined, braveRetryAfter(res.headers));
    if (res.status === 401 || err?.code === 'SUBSCRIPTION_TOKEN_INVALID') {
      throw httpError(
        NAME,
        res,
        `the API key (X-Subscription-Token) is invalid${err?.detail ? ` — ${err.detail}` : ''}`,
      );
    }
    if (res.status === 422) {
      const parts = [err?.detail ?? 'request validation failed', ...(err?.errors ?? [])];
      throw httpError(NAME, res, `invalid request: ${parts.join('; ')}`);
    }
    throw httpError(NAME, res, detail || undefined);
  }

  const data = parseJsonBody(NAME, res);
  if (!isRecord(data)) throw malformed(NAME, res, 'not a JSON object');
  if (data.web === undefined || data.web === null) return [];
  if (!isRecord(data.web)) throw malformed(NAME, res, '`web` is not an object');
  const list = data.web.results;
  if (list === undefined) return [];
  if (!Array.isArray(list)) throw malformed(NAME, res, '`web.results` is not an array');

  return mapJsonResults(list, {
    url: 'url',
    title: 'title',
    snippet: 'description',
    text: htmlToText,
    published: (item) => toIsoDate(item.page_age),
  });
}

export const brave: SearchEngine = {
  id: 'brave',
  ...ENGINE_CATALOG.brave,
  buildRequest,
  parseResponse,
};
