/**
 * A SearXNG instance's JSON output (`GET <base>/search?format=json`). Usually self-hosted;
 * the instance must allow the JSON format (`search: formats: [html, json]`).
 */
import type {
  EngineContext,
  EngineRequest,
  EngineResponse,
  EngineResult,
  SafeSearch,
  SearchEngine,
  SearchParams,
} from './types.js';
import {
  acceptLanguage,
  asString,
  cleanText,
  httpError,
  isRecord,
  isSuccess,
  malformed,
  mapJsonResults,
  parseJsonBody,
  rateLimited,
  trimBase,
  tryParseJson,
  withSiteOperators,
} from './common.js';
import { toIsoDate } from '../core/dates.js';
import { AppError } from '../core/errors.js';
import { ENGINE_CATALOG } from './catalog.js';

const NAME = 'SearXNG';

export const SEARXNG_SAFESEARCH: Record<SafeSearch, string> = { off: '0', moderate: '1', strict: '2' };

export const SEARXNG_JSON_DISABLED_MESSAGE =
  'SearXNG answered 403: the JSON output format is disabled on this instance; enable it with `search: formats: [html, json]` in its settings.yml';

function buildRequest(params: SearchParams, ctx: EngineContext): EngineRequest {
  if (!ctx.baseUrl.trim()) throw new AppError('engine_unconfigured', 'SearXNG needs the base URL of an instance');
  // SearXNG hands the query to general web engines, which understand `site:` operators.
  const q = withSiteOperators(params.query, params.includeDomains, params.excludeDomains, {
    multipleIncludes: 'or-group',
    excludes: true,
    maxLength: 1000,
  });
  const query = new URLSearchParams({
    q,
    format: 'json',
    pageno: '1',
    safesearch: SEARXNG_SAFESEARCH[params.safesearch],
  });
  if (params.language) query.set('language', params.language.trim());
  if (params.timeRange) query.set('time_range', params.timeRange);
  return {
    url: `${trimBase(ctx.baseUrl)}/search?${query.toString()}`,
    method: 'GET',
    // The instance's limiter refuses clients that send no Accept-Language.
    headers: {
      'User-Agent': ctx.userAgent,
      Accept: 'application/json',
      'Accept-Language': acceptLanguage(params.language),
    },
  };
}

function errorMessage(body: string): string | undefined {
  const data = tryParseJson(body);
  if (!isRecord(data)) return undefined;
  return asString(data.error) ?? asString(data.message);
}

function parseResponse(res: EngineResponse, _params: SearchParams): EngineResult[] {
  if (res.status === 403) throw new AppError('http', SEARXNG_JSON_DISABLED_MESSAGE, { statusCode: 403 });
  if (res.status === 429) throw rateLimited(NAME, res, errorMessage(res.body));
  if (!isSuccess(res.status)) throw httpError(NAME, res, errorMessage(res.body));

  const data = parseJsonBody(NAME, res);
  if (!isRecord(data)) throw malformed(NAME, res, 'not a JSON object');
  if (!Array.isArray(data.results)) throw malformed(NAME, res, 'no `results` array');

  return mapJsonResults(data.results, {
    url: 'url',
    // SearXNG sends plain text (it escapes when rendering HTML itself).
    title: 'title',
    snippet: 'content',
    text: cleanText,
    published: (item) => toIsoDate(item.publishedDate),
    // Web results only: images, videos, maps… use other templates.
    accept: (item) => item.template === undefined || item.template === null || item.template === 'default.html',
  });
}

export const searxng: SearchEngine = {
  id: 'searxng',
  ...ENGINE_CATALOG.searxng,
  buildRequest,
  parseResponse,
};
