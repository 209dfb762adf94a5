/**
 * DuckDuckGo, keyless: the HTML endpoint (`POST <base>/html/`, preferred) and the lite
 * endpoint (`POST <fallback>/lite/`, table layout) as a fallback. Both share one parser
 * that recognises which layout it got.
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
  HTML_ACCEPT,
  TIME_RANGE_LETTER,
  acceptLanguage,
  all,
  blocked,
  countryCode,
  httpError,
  isSuccess,
  languageRegion,
  malformed,
  parseHtmlDocument,
  primaryLanguage,
  rateLimited,
  textOf,
  trimBase,
  withSiteOperators,
} from './common.js';
import type { HtmlDocument, HtmlElement } from './common.js';
import { toIsoDate } from '../core/dates.js';
import { hostMatches, parseHttpUrl } from './normalize-url.js';
import { ENGINE_CATALOG } from './catalog.js';

const NAME = 'DuckDuckGo';

/** DuckDuckGo rejects queries of 500 characters or more. */
const MAX_QUERY_LENGTH = 499;

/** `kp` form value per safesearch level. */
export const DDG_SAFESEARCH: Record<SafeSearch, string> = { off: '-2', moderate: '-1', strict: '1' };

/**
 * DuckDuckGo regions, keyed by ISO 3166-1 country, as [ddg country, [[ddg language, ISO 639-1]...]].
 * The first language is the country's default. DDG's own codes differ from ISO in places
 * (uk = United Kingdom, xa = Saudi Arabia, sl = Slovenia, jp/kr/tzh languages).
 */
const REGIONS: Record<string, [string, [string, string][]]> = {
  ar: ['ar', [['es', 'es']]],
  au: ['au', [['en', 'en']]],
  at: ['at', [['de', 'de']]],
  be: [
    'be',
    [
      ['fr', 'fr'],
      ['nl', 'nl'],
    ],
  ],
  br: ['br', [['pt', 'pt']]],
  bg: ['bg', [['bg', 'bg']]],
  ca: [
    'ca',
    [
      ['en', 'en'],
      ['fr', 'fr'],
    ],
  ],
  cl: ['cl', [['es', 'es']]],
  cn: ['cn', [['zh', 'zh']]],
  co: ['co', [['es', 'es']]],
  hr: ['hr', [['hr', 'hr']]],
  cz: ['cz', [['cs', 'cs']]],
  dk: ['dk', [['da', 'da']]],
  ee: ['ee', [['et', 'et']]],
  fi: ['fi', [['fi', 'fi']]],
  fr: ['fr', [['fr', 'fr']]],
  de: ['de', [['de', 'de']]],
  gr: ['gr', [['el', 'el']]],
  hk: ['hk', [['tzh', 'zh']]],
  hu: ['hu', [['hu', 'hu']]],
  is: ['is', [['is', 'is']]],
  in: ['in', [['en', 'en']]],
  id: ['id', [['en', 'en']]],
  ie: ['ie', [['en', 'en']]],
  il: ['il', [['en', 'en']]],
  it: ['it', [['it', 'it']]],
  jp: ['jp', [['jp', 'ja']]],
  kr: ['kr', [['kr', 'ko']]],
  lv: ['lv', [['lv', 'lv']]],
  lt: ['lt', [['lt', 'lt']]],
  my: ['my', [['en', 'en']]],
  mx: ['mx', [['es', 'es']]],
  nl: ['nl', [['nl', 'nl']]],
  nz: ['nz', [['en', 'en']]],
  no: ['no', [['no', 'no']]],
  pk: ['pk', [['en', 'en']]],
  pe: ['pe', [['es', 'es']]],
  ph: ['ph', [['en', 'en']]],
  pl: ['pl', [['pl', 'pl']]],
  pt: ['pt', [['pt', 'pt']]],
  ro: ['ro', [['ro', 'ro']]],
  ru: ['ru', [['ru', 'ru']]],
  sa: ['xa', [['ar', 'ar']]],
  sg: ['sg', [['en', 'en']]],
  sk: ['sk', [['sk', 'sk']]],
  si: ['sl', [['sl', 'sl']]],
  za: ['za', [['en', 'en']]],
  es: [
    'es',
    [
      ['es', 'es'],
      ['ca', 'ca'],
    ],
  ],
  se: ['se', [['sv', 'sv']]],
  ch: [
    'ch',
    [
      ['de', 'de'],
      ['fr', 'fr'],
    ],
  ],
  tw: ['tw', [['tzh', 'zh']]],
  th: ['th', [['en', 'en']]],
  tr: ['tr', [['tr', 'tr']]],
  us: [
    'us',
    [
      ['en', 'en'],
      ['es', 'es'],
    ],
  ],
  ua: ['ua', [['uk', 'uk']]],
  gb: ['uk', [['en', 'en']]],
  vn: ['vn', [['en', 'en']]],
};

/** Norwegian Bokmål/Nynorsk are `no` at DuckDuckGo. */
const LANGUAGE_ALIASES: Record<string, string> = { nb: 'no', nn: 'no' };

/**
 * The `kl` region: from `country` (or else the region subtag of `language`, `de-CH` → CH),
 * with the language that matches `language` when the region has several; `wt-wt` (no region)
 * when neither names a region DuckDuckGo knows.
 */
export function ddgRegion(country: string | undefined, language: string | undefined): string {
  const cc = countryCode(country) ?? languageRegion(language);
  const region = cc === undefined ? undefined : REGIONS[cc === 'uk' ? 'gb' : cc];
  if (!region) return 'wt-wt';
  const [ddgCountry, languages] = region;
  let lang = primaryLanguage(language);
  if (lang) lang = LANGUAGE_ALIASES[lang] ?? lang;
  const match = languages.find(([, iso]) => iso === lang) ?? languages[0];
  return `${ddgCountry}-${match?.[0] ?? 'en'}`;
}

/** `!bang` words would make DuckDuckGo redirect to another site; quote them (as SearXNG does). */
export function neutralizeBangs(query: string): string {
  return query
    .split(/(\s+)/)
    .map((word) => (/^!\S/.test(word) ? `"${word.replace(/"/g, '')}"` : word))
    .join('');
}

function ddgQuery(params: SearchParams): string {
  return withSiteOperators(neutralizeBangs(params.query), params.includeDomains, params.excludeDomains, {
    multipleIncludes: 'or-group',
    excludes: true,
    maxLength: MAX_QUERY_LENGTH,
  });
}

function browserHeaders(origin: string, params: SearchParams, ctx: EngineContext): Record<string, string> {
  return {
    'User-Agent': ctx.userAgent,
    Accept: HTML_ACCEPT,
    'Accept-Language': acceptLanguage(params.language),
    'Content-Type': 'application/x-www-form-urlencoded',
    Referer: `${origin}/`,
    'Sec-Fetch-Dest': 'document',
    'Sec-Fetch-Mode': 'navigate',
    'Sec-Fetch-Site': 'same-origin',
    'Sec-Fetch-User': '?1',
  };
}

function originOf(base: string): string {
  try {
    return new URL(base).origin;
  } catch {
    return base;
  }
}

function buildHtmlRequest(params: SearchParams, ctx: EngineContext): EngineRequest {
  const base = trimBase(ctx.baseUrl);
  const form = new URLSearchParams();
  form.set('q', ddgQuery(params));
  form.set('b', '');
  form.set('kl', ddgRegion(params.country, params.language));
  if (params.timeRange) form.set('df', TIME_RANGE_LETTER[params.timeRange]);
  form.set('kp', DDG_SAFESEARCH[params.safesearch]);
  return {
    url: `${base}/html/`,
    method: 'POST',
    headers: browserHeaders(originOf(base), params, ctx),
    body: form.toString(),
  };
}

function buildLiteRequest(params: SearchParams, ctx: EngineContext): EngineRequest {
  const base = trimBase(ctx.fallbackUrl ?? ctx.baseUrl);
  const form = new URLSearchParams();
  form.set('q', ddgQuery(params));
  form.set('kl', ddgRegion(params.country, params.language));
  if (params.timeRange) form.set('df', TIME_RANGE_LETTER[params.timeRange]);
  form.set('kp', DDG_SAFESEARCH[params.safesearch]);
  return {
    url: `${base}/lite/`,
    method: 'POST',
    headers: browserHeaders(originOf(base), params, ctx),
    body: form.toString(),
  };
}

// ---------------------------------------------------------------------------------------
// Parsing

/**
 * Resolves a result href: entity-decoded already by the HTML parser; `//x` gets `https:`;
 * DuckDuckGo redirect links `//duckduckgo.com/l/?uddg=<target>&rut=..` give their `uddg`
 * target (URLSearchParams decodes it exactly once). Returns null for non-http(s) links.
 */
export function resolveDdgHref(raw: string | null): string | null {
  if (!raw) return null;
  let href = raw.trim();
  if (href.startsWith('//')) href = `https:${href}`;
  else if (href.startsWith('/')) href = `https://duckduckgo.com${href}`;
  let url = parseHttpUrl(href);
  if (!url) return null;
  if (hostMatches(url.hostname, 'duckduckgo.com') && url.pathname === '/l/') {
    let target = url.searchParams.get('uddg');
    if (!target) return null;
    if (target.startsWith('//')) target = `https:${target}`;
    url = parseHttpUrl(target);
    if (!url) return null;
  }
  return url.href;
}

/**
 * True for the CAPTCHA / anomaly page (served with 202, sometimes 200). Decided on the
 * markup, never on text, so a search *about* "anomaly.js" is not mistaken for a block.
 */
export function isDdgAnomalyPage(doc: HtmlDocument): boolean {
  return doc.querySelector('#challenge-form, form[action*="anomaly.js"], [class*="anomaly-modal"]') !== null;
}

function isAd(block: HtmlElement): boolean {
  return (
    block.classList.contains('result--ad') ||
    block.querySelector('.badge--ad') !== null ||
    block.querySelector('a.result__a[href*="/y.js"]') !== null
  );
}

function keepUrl(url: string | null): url is string {
  if (!url) return false;
  const parsed = parseHttpUrl(url);
  // Ads (y.js), help and feedback links point back to DuckDuckGo itself.
  return parsed !== null && !hostMatches(parsed.hostname, 'duckduckgo.com');
}

function dateIn(block: HtmlElement, selector: string): string | undefined {
  for (const el of all(block, selector)) {
    const iso = toIsoDate(textOf(el));
    if (iso) return iso;
  }
  return undefined;
}

interface Parsed {
  /** Result blocks found, ads included (0 with no marker → malformed). */
  blocks: number;
  noResultsMarker: boolean;
  results: EngineResult[];
}

function parseHtmlLayout(doc: HtmlDocument): Parsed {
  const results: EngineResult[] = [];
  let blocks = 0;
  for (const block of all(doc, 'div.result')) {
    if (block.classList.contains('result--no-result')) continue;
    blocks++;
    if (isAd(block)) continue;
    const link = block.querySelector('a.result__a');
    const url = resolveDdgHref(link?.getAttribute('href') ?? null);
    if (!keepUrl(url)) continue;
    const result: EngineResult = { title: textOf(link), url, snippet: textOf(block.querySelector('.result__snippet')) };
    const published = dateIn(block, '.result__extras__url span');
    if (published) result.published_at = published;
    results.push(result);
  }
  const noResultsMarker = doc.querySelector('.result--no-result, .no-results') !== null;
  return { blocks, noResultsMarker, results };
}

function parseLiteLayout(doc: HtmlDocument): Parsed {
  interface Pending {
    result: EngineResult;
    sponsored: boolean;
    row: HtmlElement;
  }
  const pending: Pending[] = [];
  let current: Pending | undefined;
  for (const row of all(doc, 'tr')) {
    const link = row.querySelector('a.result-link');
    if (link) {
      const sponsored = row.classList.contains('result-sponsored');
      const url = resolveDdgHref(link.getAttribute('href')) ?? '';
      current = { result: { title: textOf(link), url, snippet: '' }, sponsored, row };
      pending.push(current);
      continue;
    }
    if (!current) continue;
    const snippet = row.querySelector('td.result-snippet');
    if (snippet && current.result.snippet === '') current.result.snippet = textOf(snippet);
    const stamp = row.querySelector('span.timestamp');
    if (stamp && !current.result.published_at) {
      const iso = toIsoDate(textOf(stamp));
      if (iso) current.result.published_at = iso;
    }
  }
  const results = pending.filter((p) => !p.sponsored && keepUrl(p.result.url)).map((p) => p.result);
  const text = textOf(doc.body);
  const noResultsMarker = /\bno (more )?results\b/i.test(text) || doc.querySelector('.no-results') !== null;
  return { blocks: pending.length, noResultsMarker, results };
}

/** Which page layout a DuckDuckGo body uses, by its markup. */
export function detectDdgLayout(doc: HtmlDocument): 'html' | 'lite' | 'unknown' {
  if (doc.querySelector('div.result, a.result__a, .result--no-result, body.body--html') !== null) return 'html';
  if (doc.querySelector('a.result-link, td.result-snippet, form.next_form, form[action="/lite/"]') !== null)
    return 'lite';
  return 'unknown';
}

export function parseDuckDuckGo(res: EngineResponse, _params: SearchParams): EngineResult[] {
  if (res.status === 429) throw rateLimited(NAME, res);
  if (res.status === 202) throw blocked(NAME, res, 'anomaly (CAPTCHA) page');
  if (res.status === 403) throw blocked(NAME, res, 'forbidden');
  if (!isSuccess(res.status)) throw httpError(NAME, res);

  const doc = parseHtmlDocument(res.body);
  if (isDdgAnomalyPage(doc)) throw blocked(NAME, res, 'anomaly (CAPTCHA) page');
  const layout = detectDdgLayout(doc);
  if (layout === 'unknown') throw malformed(NAME, res, 'neither the html nor the lite result layout');
  const parsed = layout === 'html' ? parseHtmlLayout(doc) : parseLiteLayout(doc);
  if (parsed.blocks === 0 && !parsed.noResultsMarker) {
    throw malformed(NAME, res, `a ${layout} page with no results and no "no results" marker`);
  }
  return parsed.results;
}

/** DuckDuckGo HTML endpoint (`POST <baseUrl>/html/`). */
export const duckduckgo: SearchEngine = {
  id: 'duckduckgo',
  ...ENGINE_CATALOG.duckduckgo,
  buildRequest: buildHtmlRequest,
  parseResponse: parseDuckDuckGo,
};

/** DuckDuckGo lite endpoint (`POST <fallbackUrl or baseUrl>/lite/`), the fallback. */
export const duckduckgoLite: SearchEngine = {
  id: 'duckduckgo',
  ...ENGINE_CATALOG.duckduckgo,
  buildRequest: buildLiteRequest,
  parseResponse: parseDuckDuckGo,
};
