import { describe, expect, it } from 'vitest';
import { brave, braveCountry, braveRetryAfter, braveSearchLang } from '../../src/engines/brave.js';
import { ctx, fixtureResponse, params, query, response, thrown } from './helpers.js';

const KEYED = ctx({ baseUrl: 'http://127.0.0.1:4300/', apiKey: 'test-brave-key' });

describe('brave.buildRequest', () => {
  it('GETs /res/v1/web/search with the key in X-Subscription-Token', () => {
    const req = brave.buildRequest(params({ query: 'sourdough starter', maxResults: 5 }), KEYED);
    expect(req.method).toBe('GET');
    const url = new URL(req.url);
    expect(url.origin + url.pathname).toBe('http://127.0.0.1:4300/res/v1/web/search');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      q: 'sourdough starter',
      count: '5',
      offset: '0',
      safesearch: 'moderate',
      text_decorations: 'false',
      result_filter: 'web',
    });
    expect(req.headers).toMatchObject({ Accept: 'application/json', 'X-Subscription-Token': 'test-brave-key' });
    expect(req.url).not.toContain('test-brave-key');
  });

  it('clamps count to 1..20 and keeps offset a page index (0)', () => {
    expect(query(brave.buildRequest(params({ maxResults: 50 }), KEYED).url).get('count')).toBe('20');
    expect(query(brave.buildRequest(params({ maxResults: 0 }), KEYED).url).get('count')).toBe('1');
    expect(query(brave.buildRequest(params({ maxResults: 50 }), KEYED).url).get('offset')).toBe('0');
  });

  it('maps safesearch, timeRange, country and language', () => {
    const q = query(
      brave.buildRequest(params({ safesearch: 'strict', timeRange: 'week', country: 'de', language: 'de-DE' }), KEYED)
        .url,
    );
    expect([q.get('safesearch'), q.get('freshness'), q.get('country'), q.get('search_lang')]).toEqual([
      'strict',
      'pw',
      'DE',
      'de',
    ]);
    const fresh = (timeRange: 'day' | 'week' | 'month' | 'year') =>
      query(brave.buildRequest(params({ timeRange }), KEYED).url).get('freshness');
    expect([fresh('day'), fresh('week'), fresh('month'), fresh('year')]).toEqual(['pd', 'pw', 'pm', 'py']);
    expect(query(brave.buildRequest(params({ safesearch: 'off' }), KEYED).url).get('safesearch')).toBe('off');
  });

  it('uses ALL for countries Brave does not support, and drops unsupported languages', () => {
    expect(braveCountry('gb')).toBe('GB');
    expect(braveCountry('UK')).toBe('GB');
    expect(braveCountry('ke')).toBe('ALL');
    expect(braveCountry(undefined)).toBeUndefined();
    expect(braveSearchLang('ja-JP')).toBe('jp');
    expect(braveSearchLang('zh-TW')).toBe('zh-hant');
    expect(braveSearchLang('zh')).toBe('zh-hans');
    expect(braveSearchLang('pt-PT')).toBe('pt-pt');
    expect(braveSearchLang('pt')).toBe('pt-br');
    expect(braveSearchLang('en-GB')).toBe('en-gb');
    expect(braveSearchLang('en-US')).toBe('en');
    expect(braveSearchLang('xx')).toBeUndefined();
  });

  it('adds site: operators (OR group) and -site:', () => {
    const q = query(
      brave.buildRequest(
        params({ query: 'bread', includeDomains: ['a.com', 'b.org'], excludeDomains: ['c.net'] }),
        KEYED,
      ).url,
    );
    expect(q.get('q')).toBe('bread (site:a.com OR site:b.org) -site:c.net');
  });

  it('leaves the operators out beyond 400 characters or 50 words', () => {
    const long = 'x'.repeat(395);
    expect(query(brave.buildRequest(params({ query: long, includeDomains: ['a.com'] }), KEYED).url).get('q')).toBe(
      long,
    );
    const words = Array.from({ length: 49 }, (_, i) => `w${i}`).join(' ');
    expect(
      query(brave.buildRequest(params({ query: words, includeDomains: ['a.com', 'b.com'] }), KEYED).url).get('q'),
    ).toBe(words);
    expect(query(brave.buildRequest(params({ query: words, includeDomains: ['a.com'] }), KEYED).url).get('q')).toBe(
      `${words} site:a.com`,
    );
  });

  it('refuses to build a request without an API key', () => {
    expect(thrown(() => brave.buildRequest(params(), ctx())).code).toBe('engine_unconfigured');
  });
});

describe('brave.parseResponse', () => {
  it('parses web.results, stripping <strong> and converting page_age to ISO', () => {
    expect(brave.parseResponse(fixtureResponse('brave/web_results.json'), params())).toEqual([
      {
        title: 'Starter Hydration Explained | Crumb Lab',
        url: 'https://crumblab.example.com/guides/starter-hydration',
        snippet: 'How hydration changes a sourdough starter: 100% vs 50% & what the numbers mean.',
        published_at: '2025-02-11T09:30:00Z',
      },
      {
        title: "Bakers' Forum: stiff vs. liquid starters",
        url: 'https://forum.bakers.example.org/t/stiff-vs-liquid/4411',
        snippet: 'Thread comparing a 60% starter with a 125% one.',
      },
      {
        title: 'Flour & Water Ratios',
        url: 'http://ratios.example.net/flour-water',
        snippet: 'A table of ratios.',
        published_at: '2019-07-04T00:00:00Z',
      },
    ]);
  });

  it('returns [] when web is missing', () => {
    expect(brave.parseResponse(fixtureResponse('brave/no_web.json'), params())).toEqual([]);
    expect(brave.parseResponse(response('{"type":"search","web":{"type":"search"}}'), params())).toEqual([]);
  });

  it('429 → rate_limited with retryAfter from X-RateLimit-Reset', () => {
    const err = thrown(() =>
      brave.parseResponse(
        fixtureResponse('brave/rate_limited_429.json', 429, {
          'X-RateLimit-Reset': '1, 1419704',
          'X-RateLimit-Remaining': '0, 1958',
        }),
        params(),
      ),
    );
    expect(err.code).toBe('rate_limited');
    expect(err.retryAfter).toBe(1);
    expect(err.statusCode).toBe(429);
    expect(err.message).toContain('RATE_LIMITED');
  });

  it('429 prefers Retry-After, and waits for the monthly window when that one is exhausted', () => {
    expect(braveRetryAfter({ 'retry-after': '7', 'x-ratelimit-reset': '1, 99' })).toBe(7);
    expect(braveRetryAfter({ 'x-ratelimit-reset': '1, 1419704' })).toBe(1);
    expect(braveRetryAfter({ 'x-ratelimit-reset': '1, 1419704', 'x-ratelimit-remaining': '1, 0' })).toBe(1419704);
    expect(braveRetryAfter({})).toBeUndefined();
    expect(braveRetryAfter({ 'x-ratelimit-reset': 'soon' })).toBeUndefined();
  });

  it('401 and SUBSCRIPTION_TOKEN_INVALID → http naming the invalid key', () => {
    for (const [file, status] of [
      ['brave/unauthorized_401.json', 401],
      ['brave/invalid_token_422.json', 422],
    ] as const) {
      const err = thrown(() => brave.parseResponse(fixtureResponse(file, status), params()));
      expect(err.code).toBe('http');
      expect(err.statusCode).toBe(status);
      expect(err.message).toMatch(/API key \(X-Subscription-Token\) is invalid/);
    }
  });

  it('422 validation → http with the validation detail', () => {
    const err = thrown(() => brave.parseResponse(fixtureResponse('brave/validation_422.json', 422), params()));
    expect(err.code).toBe('http');
    expect(err.message).toContain('Unable to validate request parameter(s)');
    expect(err.message).toContain('query.count: Input should be less than or equal to 20');
  });

  it('other errors → http (5xx retryable), HTML bodies tolerated', () => {
    const err = thrown(() => brave.parseResponse(response('<html>Bad gateway</html>', 502), params()));
    expect([err.code, err.statusCode, err.retryable]).toEqual(['http', 502, true]);
  });

  it('truncated JSON or HTML garbage with 200 → malformed_response', () => {
    expect(thrown(() => brave.parseResponse(fixtureResponse('brave/truncated.json'), params())).code).toBe(
      'malformed_response',
    );
    expect(thrown(() => brave.parseResponse(response('<html><body>Hello</body></html>'), params())).code).toBe(
      'malformed_response',
    );
    expect(thrown(() => brave.parseResponse(response('{"web":{"results":"nope"}}'), params())).code).toBe(
      'malformed_response',
    );
  });
});
