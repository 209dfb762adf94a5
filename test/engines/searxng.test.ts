import { describe, expect, it } from 'vitest';
import { searxng, SEARXNG_JSON_DISABLED_MESSAGE } from '../../src/engines/searxng.js';
import { ctx, fixtureResponse, params, query, response, thrown } from './helpers.js';

const C = ctx({ baseUrl: 'http://127.0.0.1:4400/searx/' });

describe('searxng.buildRequest', () => {
  it('GETs <baseUrl>/search with format=json and Accept-Language', () => {
    const req = searxng.buildRequest(params({ query: 'static site generator' }), C);
    expect(req.method).toBe('GET');
    const url = new URL(req.url);
    expect(url.origin + url.pathname).toBe('http://127.0.0.1:4400/searx/search');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      q: 'static site generator',
      format: 'json',
      pageno: '1',
      safesearch: '1',
    });
    expect(req.headers['Accept-Language']).toBe('en-US,en;q=0.9');
    expect(req.headers.Accept).toBe('application/json');
  });

  it('maps safesearch to 0|1|2, language and time_range', () => {
    const s = (safesearch: 'off' | 'moderate' | 'strict') =>
      query(searxng.buildRequest(params({ safesearch }), C).url).get('safesearch');
    expect([s('off'), s('moderate'), s('strict')]).toEqual(['0', '1', '2']);
    const q = query(searxng.buildRequest(params({ language: 'de-CH', timeRange: 'month' }), C).url);
    expect([q.get('language'), q.get('time_range')]).toEqual(['de-CH', 'month']);
    expect(searxng.buildRequest(params({ language: 'de-CH' }), C).headers['Accept-Language']).toBe('de-CH,de;q=0.9');
  });

  it('adds site: operators', () => {
    expect(
      query(
        searxng.buildRequest(params({ query: 'ssg', includeDomains: ['a.dev'], excludeDomains: ['b.dev'] }), C).url,
      ).get('q'),
    ).toBe('ssg site:a.dev -site:b.dev');
  });

  it('needs a base URL', () => {
    expect(thrown(() => searxng.buildRequest(params(), ctx({ baseUrl: '' }))).code).toBe('engine_unconfigured');
  });
});

describe('searxng.parseResponse', () => {
  it('keeps default-template results (or none), with publishedDate → published_at', () => {
    expect(searxng.parseResponse(fixtureResponse('searxng/results.json'), params())).toEqual([
      {
        title: 'PageBuilder - a fast static site generator',
        url: 'https://www.pagebuilder.example.dev/',
        snippet: 'Write Markdown, get HTML. An invented generator for fixtures.',
      },
      {
        title: 'Choosing an SSG in 2025',
        url: 'https://blog.example.org/2025/09/choosing-an-ssg',
        snippet: 'Five generators compared on build speed & plugins.',
        published_at: '2025-09-14T00:00:00Z',
      },
      {
        title: 'Legacy SSG notes',
        url: 'http://legacy.example.net/ssg/',
        snippet: 'An older result from an engine that sends a dict without a template.',
        published_at: '2021-03-04T05:06:07+02:00',
      },
    ]);
  });

  it('returns [] for an empty result list', () => {
    expect(searxng.parseResponse(response('{"query":"x","results":[],"unresponsive_engines":[]}'), params())).toEqual(
      [],
    );
  });

  it('403 (JSON format disabled) → http with the exact instruction', () => {
    const err = thrown(() => searxng.parseResponse(fixtureResponse('searxng/forbidden_403.html', 403), params()));
    expect(err.code).toBe('http');
    expect(err.statusCode).toBe(403);
    expect(err.message).toBe(
      'SearXNG answered 403: the JSON output format is disabled on this instance; enable it with `search: formats: [html, json]` in its settings.yml',
    );
    expect(err.message).toBe(SEARXNG_JSON_DISABLED_MESSAGE);
  });

  it('429 → rate_limited', () => {
    const err = thrown(() =>
      searxng.parseResponse(response('Too Many Requests', 429, { 'Retry-After': '5' }), params()),
    );
    expect([err.code, err.retryAfter]).toEqual(['rate_limited', 5]);
  });

  it('400/500 JSON error bodies → http with their message', () => {
    const e400 = thrown(() => searxng.parseResponse(fixtureResponse('searxng/error_400.json', 400), params()));
    expect([e400.code, e400.statusCode, e400.retryable]).toEqual(['http', 400, false]);
    expect(e400.message).toContain('Invalid value "99" for parameter pageno');
    const e500 = thrown(() => searxng.parseResponse(fixtureResponse('searxng/error_500.json', 500), params()));
    expect([e500.code, e500.statusCode, e500.retryable]).toEqual(['http', 500, true]);
    expect(e500.message).toContain('search error');
  });

  it('truncated JSON, HTML with 200 and wrong shapes → malformed_response', () => {
    expect(thrown(() => searxng.parseResponse(fixtureResponse('searxng/truncated.json'), params())).code).toBe(
      'malformed_response',
    );
    expect(thrown(() => searxng.parseResponse(fixtureResponse('searxng/forbidden_403.html', 200), params())).code).toBe(
      'malformed_response',
    );
    expect(thrown(() => searxng.parseResponse(response('{"query":"x"}'), params())).code).toBe('malformed_response');
  });
});
