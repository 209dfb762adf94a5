import { describe, expect, it } from 'vitest';
import { wikipedia, wikiArticleUrl, wikiBase, wikiLanguage } from '../../src/engines/wikipedia.js';
import { ctx, fixtureResponse, params, query, response, thrown } from './helpers.js';

const BASE = 'http://127.0.0.1:4100/{lang}';

describe('wikipedia.buildRequest', () => {
  it('builds the list=search API call', () => {
    const req = wikipedia.buildRequest(
      params({ query: 'canoe slalom', maxResults: 7 }),
      ctx({ baseUrl: 'https://{lang}.wikipedia.org' }),
    );
    expect(req.method).toBe('GET');
    const url = new URL(req.url);
    expect(url.origin + url.pathname).toBe('https://en.wikipedia.org/w/api.php');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      action: 'query',
      list: 'search',
      srsearch: 'canoe slalom',
      srlimit: '7',
      format: 'json',
      formatversion: '2',
      utf8: '1',
      srprop: 'snippet|timestamp',
    });
    expect(req.headers['User-Agent']).toBe('websearch-mcp-test/1.0');
    expect(req.headers.Accept).toBe('application/json');
  });

  it('replaces {lang} with the primary language subtag (default en)', () => {
    expect(wikipedia.buildRequest(params({ language: 'de-CH' }), ctx({ baseUrl: BASE })).url).toMatch(
      /^http:\/\/127\.0\.0\.1:4100\/de\/w\/api\.php\?/,
    );
    expect(
      wikipedia.buildRequest(params({ language: 'FR' }), ctx({ baseUrl: 'https://{lang}.wikipedia.org' })).url,
    ).toMatch(/^https:\/\/fr\.wikipedia\.org\//);
    expect(wikipedia.buildRequest(params(), ctx({ baseUrl: BASE })).url).toMatch(/\/en\/w\/api\.php/);
    expect(wikiLanguage('nb-NO')).toBe('no');
    expect(wikiLanguage('x')).toBe('en');
  });

  it('works with a base URL without {lang}', () => {
    expect(wikipedia.buildRequest(params(), ctx({ baseUrl: 'http://127.0.0.1:4100/' })).url).toMatch(
      /^http:\/\/127\.0\.0\.1:4100\/w\/api\.php\?/,
    );
  });

  it('clamps srlimit to 1..50', () => {
    expect(query(wikipedia.buildRequest(params({ maxResults: 500 }), ctx()).url).get('srlimit')).toBe('50');
    expect(query(wikipedia.buildRequest(params({ maxResults: 0 }), ctx()).url).get('srlimit')).toBe('1');
  });
});

describe('wikiArticleUrl', () => {
  it('uses underscores and keeps / and : readable', () => {
    expect(wikiArticleUrl('https://en.wikipedia.org', 'AC/DC: Live at the Lake')).toBe(
      'https://en.wikipedia.org/wiki/AC/DC:_Live_at_the_Lake',
    );
    expect(wikiArticleUrl('https://en.wikipedia.org', 'Café & Söhne?')).toBe(
      'https://en.wikipedia.org/wiki/Caf%C3%A9_%26_S%C3%B6hne%3F',
    );
  });
  it('wikiBase substitutes {lang} and trims slashes', () => {
    expect(wikiBase('https://{lang}.wikipedia.org/', 'pt-BR')).toBe('https://pt.wikipedia.org');
  });
});

describe('wikipedia.parseResponse', () => {
  const res = fixtureResponse(
    'wikipedia/search_results.json',
    200,
    {},
    'https://de.wikipedia.org/w/api.php?action=query',
  );

  it('builds article URLs on the wiki that answered and strips snippet HTML', () => {
    expect(wikipedia.parseResponse(res, params({ language: 'de' }))).toEqual([
      {
        title: 'Canoe',
        url: 'https://de.wikipedia.org/wiki/Canoe',
        snippet: 'A canoe is a light, narrow boat "paddled" by one or more people & usually pointed at both ends',
      },
      {
        title: 'Canoe slalom',
        url: 'https://de.wikipedia.org/wiki/Canoe_slalom',
        snippet: 'Canoe slalom is a competitive sport in which paddlers navigate a course of gates on whitewater',
      },
      {
        title: 'AC/DC: Live at the Lake',
        url: 'https://de.wikipedia.org/wiki/AC/DC:_Live_at_the_Lake',
        snippet: "an invented live album recorded beside a canoe club's boathouse",
      },
      {
        title: 'Café Ørsted & Söhne',
        url: 'https://de.wikipedia.org/wiki/Caf%C3%A9_%C3%98rsted_%26_S%C3%B6hne',
        snippet: '',
      },
    ]);
  });

  it('never presents the last-edit timestamp as published_at', () => {
    for (const r of wikipedia.parseResponse(res, params())) expect(r).not.toHaveProperty('published_at');
  });

  it('uses https://<lang>.wikipedia.org when the response URL is unknown', () => {
    const noUrl = fixtureResponse('wikipedia/search_results.json');
    expect(wikipedia.parseResponse(noUrl, params({ language: 'it' }))[0]?.url).toBe(
      'https://it.wikipedia.org/wiki/Canoe',
    );
  });

  it('keeps a mirror path prefix', () => {
    const mirror = fixtureResponse('wikipedia/search_results.json', 200, {}, 'http://127.0.0.1:4100/wp/w/api.php?x=1');
    expect(wikipedia.parseResponse(mirror, params())[1]?.url).toBe('http://127.0.0.1:4100/wp/wiki/Canoe_slalom');
  });

  it('returns [] when nothing matched', () => {
    expect(wikipedia.parseResponse(fixtureResponse('wikipedia/search_empty.json'), params())).toEqual([]);
  });

  it('API error objects (HTTP 200) → http', () => {
    const err = thrown(() => wikipedia.parseResponse(fixtureResponse('wikipedia/api_error.json'), params()));
    expect(err.code).toBe('http');
    expect(err.message).toContain('nosrsearch');
  });

  it('ratelimited API error → rate_limited', () => {
    const body = JSON.stringify({ error: { code: 'ratelimited', info: 'slow down' } });
    expect(thrown(() => wikipedia.parseResponse(response(body), params())).code).toBe('rate_limited');
  });

  it('truncated JSON, HTML garbage and wrong shapes → malformed_response', () => {
    expect(thrown(() => wikipedia.parseResponse(fixtureResponse('wikipedia/truncated.json'), params())).code).toBe(
      'malformed_response',
    );
    expect(thrown(() => wikipedia.parseResponse(response('<html><body>oops</body></html>'), params())).code).toBe(
      'malformed_response',
    );
    expect(thrown(() => wikipedia.parseResponse(response('{"query":{}}'), params())).code).toBe('malformed_response');
    expect(thrown(() => wikipedia.parseResponse(response('[1,2]'), params())).code).toBe('malformed_response');
  });

  it('429 → rate_limited, 403 → blocked, 503 → http', () => {
    const e429 = thrown(() => wikipedia.parseResponse(response('', 429, { 'retry-after': '30' }), params()));
    expect([e429.code, e429.retryAfter]).toEqual(['rate_limited', 30]);
    expect(thrown(() => wikipedia.parseResponse(response('', 403), params())).code).toBe('blocked');
    const e503 = thrown(() => wikipedia.parseResponse(response('', 503), params()));
    expect([e503.code, e503.statusCode, e503.retryable]).toEqual(['http', 503, true]);
  });

  it('has a low default weight and needs no key', () => {
    expect(wikipedia.defaultWeight).toBeLessThan(1);
    expect(wikipedia.keyless).toBe(true);
  });
});
