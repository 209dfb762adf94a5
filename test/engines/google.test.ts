import { describe, expect, it } from 'vitest';
import { google, googleCountry, googleLanguage } from '../../src/engines/google.js';
import { ctx, fixtureResponse, params, query, response, thrown } from './helpers.js';

const KEYED = ctx({ baseUrl: 'http://127.0.0.1:4500', apiKey: 'test-google-key', cseId: 'test-cx' });

describe('google.buildRequest', () => {
  it('GETs /customsearch/v1 with key, cx, q, num and safe', () => {
    const req = google.buildRequest(params({ query: 'tide tables', maxResults: 8 }), KEYED);
    expect(req.method).toBe('GET');
    const url = new URL(req.url);
    expect(url.origin + url.pathname).toBe('http://127.0.0.1:4500/customsearch/v1');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      key: 'test-google-key',
      cx: 'test-cx',
      q: 'tide tables',
      num: '8',
      safe: 'active',
    });
  });

  it('caps num at 10', () => {
    expect(query(google.buildRequest(params({ maxResults: 20 }), KEYED).url).get('num')).toBe('10');
  });

  it('maps safesearch to active|off, language to lr, country to gl, timeRange to dateRestrict', () => {
    const safe = (safesearch: 'off' | 'moderate' | 'strict') =>
      query(google.buildRequest(params({ safesearch }), KEYED).url).get('safe');
    expect([safe('off'), safe('moderate'), safe('strict')]).toEqual(['off', 'active', 'active']);
    const q = query(google.buildRequest(params({ language: 'fr-CA', country: 'CA', timeRange: 'month' }), KEYED).url);
    expect([q.get('lr'), q.get('gl'), q.get('dateRestrict')]).toEqual(['lang_fr', 'ca', 'm1']);
    const dr = (timeRange: 'day' | 'week' | 'month' | 'year') =>
      query(google.buildRequest(params({ timeRange }), KEYED).url).get('dateRestrict');
    expect([dr('day'), dr('week'), dr('month'), dr('year')]).toEqual(['d1', 'w1', 'm1', 'y1']);
    expect(googleLanguage('zh-TW')).toBe('lang_zh-TW');
    expect(googleLanguage('zh-Hant')).toBe('lang_zh-TW');
    expect(googleLanguage('zh')).toBe('lang_zh-CN');
    expect(googleLanguage('he')).toBe('lang_iw');
    expect(googleCountry('GB')).toBe('uk');
  });

  it('one include domain → siteSearch; several → site: OR group; excludes → -site:', () => {
    const one = query(
      google.buildRequest(
        params({ query: 'tides', includeDomains: ['harbour.example.gov'], excludeDomains: ['spam.example'] }),
        KEYED,
      ).url,
    );
    expect([one.get('q'), one.get('siteSearch'), one.get('siteSearchFilter')]).toEqual([
      'tides -site:spam.example',
      'harbour.example.gov',
      'i',
    ]);
    const many = query(google.buildRequest(params({ query: 'tides', includeDomains: ['a.gov', 'b.edu'] }), KEYED).url);
    expect(many.get('q')).toBe('tides (site:a.gov OR site:b.edu)');
    expect(many.has('siteSearch')).toBe(false);
  });

  it('refuses to build a request without key or cx', () => {
    expect(thrown(() => google.buildRequest(params(), ctx({ apiKey: 'k' }))).code).toBe('engine_unconfigured');
    expect(thrown(() => google.buildRequest(params(), ctx({ cseId: 'cx' }))).code).toBe('engine_unconfigured');
  });
});

describe('google.parseResponse', () => {
  it('parses items (title, link, snippet, article:published_time)', () => {
    expect(google.parseResponse(fixtureResponse('google/items.json'), params())).toEqual([
      {
        title: 'Tide Tables for the North Coast – Harbour Office',
        url: 'https://harbour.example.gov/tides/north-coast',
        snippet: 'Mar 3, 2025 ... High and low water for every port on the north coast, updated daily.',
        published_at: '2025-03-03T06:00:00+00:00',
      },
      {
        title: 'How tides work',
        url: 'https://oceans.example.edu/learn/how-tides-work',
        snippet: 'The moon, the sun and the shape of the coast.',
        published_at: '2023-10-20T14:45:00+02:00',
      },
      { title: 'Tide app', url: 'http://tideapp.example.com/', snippet: 'Download an invented tide app.' },
    ]);
  });

  it('returns [] when there is no items key', () => {
    expect(google.parseResponse(fixtureResponse('google/no_items.json'), params())).toEqual([]);
  });

  it('429 RESOURCE_EXHAUSTED → rate_limited', () => {
    const err = thrown(() =>
      google.parseResponse(fixtureResponse('google/quota_429.json', 429, { 'Retry-After': '3600' }), params()),
    );
    expect([err.code, err.statusCode, err.retryAfter]).toEqual(['rate_limited', 429, 3600]);
  });

  it('403 dailyLimitExceeded → rate_limited', () => {
    const err = thrown(() => google.parseResponse(fixtureResponse('google/daily_limit_403.json', 403), params()));
    expect([err.code, err.statusCode]).toEqual(['rate_limited', 403]);
    expect(err.retryAfter).toBeUndefined();
  });

  it('other errors → http with the API message', () => {
    const e403 = thrown(() => google.parseResponse(fixtureResponse('google/forbidden_403.json', 403), params()));
    expect([e403.code, e403.statusCode]).toEqual(['http', 403]);
    expect(e403.message).toContain('Custom Search API has not been used in project');
    expect(e403.message).toContain('accessNotConfigured');
    const e400 = thrown(() => google.parseResponse(fixtureResponse('google/invalid_key_400.json', 400), params()));
    expect([e400.code, e400.statusCode]).toEqual(['http', 400]);
    expect(e400.message).toContain('API key not valid');
    const e500 = thrown(() => google.parseResponse(response('<html>Server Error</html>', 500), params()));
    expect([e500.code, e500.retryable]).toEqual(['http', true]);
  });

  it('truncated JSON, HTML with 200 and wrong shapes → malformed_response', () => {
    expect(thrown(() => google.parseResponse(fixtureResponse('google/truncated.json'), params())).code).toBe(
      'malformed_response',
    );
    expect(thrown(() => google.parseResponse(response('<!doctype html><p>login</p>'), params())).code).toBe(
      'malformed_response',
    );
    expect(thrown(() => google.parseResponse(response('{"items":{}}'), params())).code).toBe('malformed_response');
  });
});
