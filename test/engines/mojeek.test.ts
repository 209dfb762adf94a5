import { afterEach, describe, expect, it, vi } from 'vitest';
import { mojeek, mojeekSince } from '../../src/engines/mojeek.js';
import { ctx, fixtureResponse, params, query, response, thrown } from './helpers.js';

afterEach(() => {
  vi.useRealTimers();
});

describe('mojeek.buildRequest', () => {
  it('GETs <baseUrl>/search?q=.. without s on page 1', () => {
    const req = mojeek.buildRequest(params({ query: 'glacier lake' }), ctx({ baseUrl: 'http://127.0.0.1:4200/' }));
    expect(req.method).toBe('GET');
    expect(req.url).toBe('http://127.0.0.1:4200/search?q=glacier+lake&safe=1');
    expect(query(req.url).has('s')).toBe(false);
    expect(req.headers['User-Agent']).toBe('websearch-mcp-test/1.0');
    expect(req.headers.Cookie).toBeUndefined();
  });

  it('maps safesearch to safe=0|1', () => {
    expect(query(mojeek.buildRequest(params({ safesearch: 'off' }), ctx()).url).get('safe')).toBe('0');
    expect(query(mojeek.buildRequest(params({ safesearch: 'strict' }), ctx()).url).get('safe')).toBe('1');
  });

  it('maps timeRange to since=YYYYMMDD', () => {
    vi.useFakeTimers();
    vi.setSystemTime(new Date('2025-03-10T12:00:00Z'));
    expect(query(mojeek.buildRequest(params({ timeRange: 'week' }), ctx()).url).get('since')).toBe('20250303');
    expect(mojeekSince('day', Date.parse('2025-03-01T05:00:00Z'))).toBe('20250228');
    expect(mojeekSince('year', Date.parse('2025-03-10T00:00:00Z'))).toBe('20240310');
    expect(mojeekSince('month', Date.parse('2025-03-31T00:00:00Z'))).toBe('20250228');
    expect(mojeekSince('month', Date.parse('2025-01-15T00:00:00Z'))).toBe('20241215');
    expect(mojeekSince('year', Date.parse('2024-02-29T00:00:00Z'))).toBe('20230228');
  });

  it('sends language and region as lb/arc cookies and Accept-Language', () => {
    const req = mojeek.buildRequest(params({ language: 'fr-BE', country: 'BE' }), ctx());
    expect(req.headers.Cookie).toBe('lb=fr; arc=be');
    expect(req.headers['Accept-Language']).toBe('fr-BE,fr;q=0.9');
  });

  it('uses site: for a single include domain only', () => {
    expect(
      query(mojeek.buildRequest(params({ query: 'lake', includeDomains: ['trails.example.org'] }), ctx()).url).get('q'),
    ).toBe('lake site:trails.example.org');
    expect(
      query(
        mojeek.buildRequest(
          params({ query: 'lake', includeDomains: ['a.com', 'b.com'], excludeDomains: ['c.com'] }),
          ctx(),
        ).url,
      ).get('q'),
    ).toBe('lake');
  });
});

describe('mojeek.parseResponse', () => {
  it('parses ul.results-standard > li (a.ob / h2 a / p.s), skipping non-http links', () => {
    expect(mojeek.parseResponse(fixtureResponse('mojeek/results.html'), params())).toEqual([
      {
        title: 'Glacier Lake Trail – Route Guide',
        url: 'https://trails.example.org/glacier-lake',
        snippet: 'A 12 km trail to a turquoise glacier lake; best walked in late summer.',
      },
      {
        title: 'Lakes of the North Region',
        url: 'https://www.parks.example.gov/visit/lakes?region=north&utm_medium=search',
        snippet: 'Permits, parking & opening times.',
      },
      {
        title: 'A Day at the Glacier',
        url: 'http://blog.hiker.example.com/2023/glacier-day',
        snippet: 'Photos from an invented hike.',
      },
    ]);
  });

  it('returns [] for the no-results page and for an empty result list', () => {
    expect(mojeek.parseResponse(fixtureResponse('mojeek/no_results.html'), params())).toEqual([]);
    expect(
      mojeek.parseResponse(response('<html><body><ul class="results-standard"></ul></body></html>'), params()),
    ).toEqual([]);
  });

  it('captcha page → blocked, whatever the status', () => {
    for (const status of [200, 403]) {
      const err = thrown(() => mojeek.parseResponse(fixtureResponse('mojeek/captcha.html', status), params()));
      expect([err.code, err.statusCode]).toEqual(['blocked', status]);
    }
    const textOnly =
      '<html><head><title>Please wait</title></head><body><p>JavaScript is required to complete this challenge.</p></body></html>';
    expect(thrown(() => mojeek.parseResponse(response(textOnly), params())).code).toBe('blocked');
  });

  it('403 → blocked, 429 → rate_limited, 500 → http', () => {
    expect(thrown(() => mojeek.parseResponse(response('<h1>403 - Forbidden</h1>', 403), params())).code).toBe(
      'blocked',
    );
    const e429 = thrown(() => mojeek.parseResponse(response('', 429, { 'Retry-After': '60' }), params()));
    expect([e429.code, e429.retryAfter]).toEqual(['rate_limited', 60]);
    expect(thrown(() => mojeek.parseResponse(response('', 500), params())).code).toBe('http');
  });

  it('a page with neither results nor the no-results notice → malformed_response', () => {
    expect(thrown(() => mojeek.parseResponse(fixtureResponse('mojeek/unexpected_page.html'), params())).code).toBe(
      'malformed_response',
    );
    expect(thrown(() => mojeek.parseResponse(response('{"not":"html"}'), params())).code).toBe('malformed_response');
  });
});
