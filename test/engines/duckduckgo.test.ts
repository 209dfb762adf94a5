import { describe, expect, it } from 'vitest';
import {
  duckduckgo,
  duckduckgoLite,
  ddgRegion,
  neutralizeBangs,
  resolveDdgHref,
} from '../../src/engines/duckduckgo.js';
import { ctx, fixture, fixtureResponse, params, response, thrown } from './helpers.js';

function form(body: string | undefined): URLSearchParams {
  return new URLSearchParams(body ?? '');
}

describe('duckduckgo.buildRequest (html endpoint)', () => {
  it('POSTs the form to <baseUrl>/html/ with browser-like headers', () => {
    const req = duckduckgo.buildRequest(params({ query: 'river canoe' }), ctx({ baseUrl: 'http://127.0.0.1:4001/' }));
    expect(req.method).toBe('POST');
    expect(req.url).toBe('http://127.0.0.1:4001/html/');
    expect(req.headers).toMatchObject({
      'Content-Type': 'application/x-www-form-urlencoded',
      Referer: 'http://127.0.0.1:4001/',
      'Sec-Fetch-Dest': 'document',
      'Sec-Fetch-Mode': 'navigate',
      'Sec-Fetch-Site': 'same-origin',
      'Sec-Fetch-User': '?1',
      'User-Agent': 'websearch-mcp-test/1.0',
      'Accept-Language': 'en-US,en;q=0.9',
    });
    const f = form(req.body);
    expect(f.get('q')).toBe('river canoe');
    expect(f.get('b')).toBe('');
    expect(f.get('kl')).toBe('wt-wt');
    expect(f.has('df')).toBe(false);
    expect(f.get('kp')).toBe('-1');
    expect(req.body?.startsWith('q=river+canoe&b=&kl=wt-wt')).toBe(true);
  });

  it('maps safesearch to kp (-2 off, -1 moderate, 1 strict)', () => {
    expect(form(duckduckgo.buildRequest(params({ safesearch: 'off' }), ctx()).body).get('kp')).toBe('-2');
    expect(form(duckduckgo.buildRequest(params({ safesearch: 'moderate' }), ctx()).body).get('kp')).toBe('-1');
    expect(form(duckduckgo.buildRequest(params({ safesearch: 'strict' }), ctx()).body).get('kp')).toBe('1');
  });

  it('maps timeRange to df d/w/m/y', () => {
    const df = (timeRange: 'day' | 'week' | 'month' | 'year') =>
      form(duckduckgo.buildRequest(params({ timeRange }), ctx()).body).get('df');
    expect([df('day'), df('week'), df('month'), df('year')]).toEqual(['d', 'w', 'm', 'y']);
  });

  it('maps country and language to the kl region', () => {
    const kl = (country?: string, language?: string) =>
      form(duckduckgo.buildRequest(params({ country, language }), ctx()).body).get('kl');
    expect(kl('US')).toBe('us-en');
    expect(kl('us', 'es')).toBe('us-es');
    expect(kl('DE')).toBe('de-de');
    expect(kl('ch', 'fr-CH')).toBe('ch-fr');
    expect(kl('GB')).toBe('uk-en');
    expect(kl('JP', 'ja')).toBe('jp-jp');
    expect(kl(undefined, 'de-AT')).toBe('at-de');
    expect(kl(undefined, 'de')).toBe('wt-wt');
    expect(kl('AQ')).toBe('wt-wt');
    expect(kl()).toBe('wt-wt');
  });

  it('sends Accept-Language from the language', () => {
    const req = duckduckgo.buildRequest(params({ language: 'de-CH' }), ctx());
    expect(req.headers['Accept-Language']).toBe('de-CH,de;q=0.9');
  });

  it('adds site: operators for include and exclude domains', () => {
    const one = form(duckduckgo.buildRequest(params({ query: 'canoe', includeDomains: ['Example.COM'] }), ctx()).body);
    expect(one.get('q')).toBe('canoe site:example.com');
    const many = form(
      duckduckgo.buildRequest(
        params({ query: 'canoe', includeDomains: ['a.com', 'b.org'], excludeDomains: ['spam.net', 'bücher.de'] }),
        ctx(),
      ).body,
    );
    expect(many.get('q')).toBe('canoe (site:a.com OR site:b.org) -site:spam.net -site:xn--bcher-kva.de');
  });

  it('drops host names that are not usable in an operator', () => {
    const f = form(duckduckgo.buildRequest(params({ query: 'x', includeDomains: ['a.com OR evil', ' '] }), ctx()).body);
    expect(f.get('q')).toBe('x');
  });

  it('leaves the operators out when they would pass the 500-character limit', () => {
    const long = 'w'.repeat(400);
    const f = form(
      duckduckgo.buildRequest(
        params({ query: long, includeDomains: ['a'.repeat(60) + '.com', 'b'.repeat(60) + '.com'] }),
        ctx(),
      ).body,
    );
    expect(f.get('q')).toBe(long);
  });

  it('quotes !bang words so DuckDuckGo does not redirect', () => {
    expect(neutralizeBangs('!g cats and !w dogs')).toBe('"!g" cats and "!w" dogs');
    expect(neutralizeBangs('wow! great')).toBe('wow! great');
    expect(form(duckduckgo.buildRequest(params({ query: '!yt music' }), ctx()).body).get('q')).toBe('"!yt" music');
  });
});

describe('duckduckgoLite.buildRequest', () => {
  it('POSTs q/kl/df/kp to <fallbackUrl>/lite/', () => {
    const req = duckduckgoLite.buildRequest(
      params({ query: 'mountain hut', timeRange: 'month', country: 'ch', language: 'de' }),
      ctx({ baseUrl: 'http://127.0.0.1:4001', fallbackUrl: 'http://127.0.0.1:4002' }),
    );
    expect(req.method).toBe('POST');
    expect(req.url).toBe('http://127.0.0.1:4002/lite/');
    expect(req.headers.Referer).toBe('http://127.0.0.1:4002/');
    const f = form(req.body);
    expect([...f.keys()]).toEqual(['q', 'kl', 'df', 'kp']);
    expect(f.get('kl')).toBe('ch-de');
    expect(f.get('df')).toBe('m');
    expect(duckduckgoLite.id).toBe('duckduckgo');
  });

  it('falls back to baseUrl when no fallbackUrl is configured', () => {
    expect(duckduckgoLite.buildRequest(params(), ctx({ baseUrl: 'http://127.0.0.1:4001' })).url).toBe(
      'http://127.0.0.1:4001/lite/',
    );
  });
});

describe('resolveDdgHref', () => {
  it('unwraps uddg redirect links, decoding exactly once', () => {
    expect(resolveDdgHref('//duckduckgo.com/l/?uddg=https%3A%2F%2Fa.example%2Fx%2520y&rut=abc')).toBe(
      'https://a.example/x%20y',
    );
    expect(resolveDdgHref('https://duckduckgo.com/l/?uddg=https%3A%2F%2Fa.example%2F')).toBe('https://a.example/');
    expect(resolveDdgHref('/l/?uddg=http%3A%2F%2Fb.example%2Fp')).toBe('http://b.example/p');
  });
  it('adds https: to protocol-relative links and keeps direct ones', () => {
    expect(resolveDdgHref('//c.example/path')).toBe('https://c.example/path');
    expect(resolveDdgHref('http://d.example/')).toBe('http://d.example/');
  });
  it('rejects non-http links and empty redirects', () => {
    expect(resolveDdgHref('javascript:alert(1)')).toBeNull();
    expect(resolveDdgHref('//duckduckgo.com/l/?rut=abc')).toBeNull();
    expect(resolveDdgHref('//duckduckgo.com/l/?uddg=ftp%3A%2F%2Fe.example%2F')).toBeNull();
    expect(resolveDdgHref(null)).toBeNull();
  });
});

describe('duckduckgo.parseResponse (html layout)', () => {
  const results = duckduckgo.parseResponse(fixtureResponse('duckduckgo/html_results.html'), params());

  it('returns the organic results in order, without ads, DDG links or the zero-click box', () => {
    expect(results.map((r) => r.url)).toEqual([
      'https://www.example-rivers.org/guides/canoe-basics/',
      'https://docs.paddle-works.dev/en/start?ref=nav&lang=en',
      'https://kayak.example.net/trips/lake%20district%20loop',
      'https://outfitters.example.com/blog/tips?id=7&utm_source=ddg',
      'http://oldclub.example.org/canoe.html',
      'https://river-maps.example.com/atlas',
    ]);
    for (const r of results) {
      expect(r.url).not.toContain('duckduckgo.com');
      expect(r.url).not.toContain('wikipedia.org');
    }
  });

  it('extracts titles and snippets as clean text', () => {
    expect(results[0]).toEqual({
      title: 'Canoe Basics: Your First Day on the River | Example Rivers',
      url: 'https://www.example-rivers.org/guides/canoe-basics/',
      snippet: 'Learn the basics of canoe handling: strokes, balance and how to read a calm river.',
      published_at: '2024-05-14T00:00:00.0000000Z',
    });
    expect(results[3]?.title).toBe('Tips & Tricks: "Dry Bags" Explained');
    expect(results[3]?.snippet).toBe("Keep gear dry — a canoe packing list 'that works'.");
    expect(results[1]?.published_at).toBeUndefined();
  });

  it('returns [] for the no-results page', () => {
    expect(duckduckgo.parseResponse(fixtureResponse('duckduckgo/html_no_results.html'), params())).toEqual([]);
  });

  it('returns [] when every block is an ad', () => {
    const body = `<html><body class="body--html"><div class="result result--ad"><a class="result__a" href="https://duckduckgo.com/y.js?ad_domain=x.example">Ad</a></div></body></html>`;
    expect(duckduckgo.parseResponse(response(body), params())).toEqual([]);
  });

  it('drops results on DuckDuckGo subdomains and badge--ad blocks', () => {
    const body = `<html><body>
      <div class="result"><a class="result__a" href="https://help.duckduckgo.com/privacy">Help</a></div>
      <div class="result"><h2><a class="result__a" href="https://shop.example/">Shop</a><button class="badge--ad">Ad</button></h2></div>
      <div class="result"><a class="result__a" href="https://ok.example/">OK</a><div class="result__snippet">fine</div></div>
    </body></html>`;
    expect(duckduckgo.parseResponse(response(body), params())).toEqual([
      { title: 'OK', url: 'https://ok.example/', snippet: 'fine' },
    ]);
  });
});

describe('duckduckgo.parseResponse (lite layout)', () => {
  it('detects the lite table layout and drops sponsored rows', () => {
    const results = duckduckgo.parseResponse(fixtureResponse('duckduckgo/lite_results.html'), params());
    expect(results).toEqual([
      {
        title: 'Book the Lindenhorn Hut | Alpine Huts Example',
        url: 'https://www.alpine-huts.example/book?hut=lindenhorn',
        snippet: 'Reserve a bunk in the Lindenhorn hut; open June to September.',
        published_at: '2025-03-02T00:00:00.0000000Z',
      },
      {
        title: 'Mountain Huts Directory',
        url: 'https://hiking.example.org/huts/',
        snippet: 'Every staffed hut with prices & contact details.',
      },
      { title: 'Hut Weather Forecasts', url: 'https://summit-weather.example.com/huts', snippet: '' },
    ]);
  });

  it('both engine objects parse both layouts', () => {
    expect(duckduckgoLite.parseResponse(fixtureResponse('duckduckgo/html_results.html'), params())).toHaveLength(6);
    expect(duckduckgoLite.parseResponse(fixtureResponse('duckduckgo/lite_results.html'), params())).toHaveLength(3);
  });

  it('returns [] for the lite no-results page', () => {
    expect(duckduckgoLite.parseResponse(fixtureResponse('duckduckgo/lite_no_results.html'), params())).toEqual([]);
  });
});

describe('duckduckgo.parseResponse errors', () => {
  it('202 anomaly page → blocked', () => {
    const err = thrown(() =>
      duckduckgo.parseResponse(fixtureResponse('duckduckgo/html_anomaly_202.html', 202), params()),
    );
    expect(err.code).toBe('blocked');
    expect(err.statusCode).toBe(202);
  });

  it('anomaly page served with 200 → blocked (html and lite)', () => {
    expect(
      thrown(() => duckduckgo.parseResponse(fixtureResponse('duckduckgo/html_anomaly_202.html', 200), params())).code,
    ).toBe('blocked');
    expect(
      thrown(() => duckduckgoLite.parseResponse(fixtureResponse('duckduckgo/html_anomaly_202.html', 200), params()))
        .code,
    ).toBe('blocked');
  });

  it('202 with any body → blocked', () => {
    expect(thrown(() => duckduckgo.parseResponse(response('', 202), params())).code).toBe('blocked');
  });

  it('a result snippet that merely mentions anomaly.js is not a block', () => {
    const body = `<html><body><div class="result"><a class="result__a" href="https://js.example/">anomaly.js explained</a><a class="result__snippet">About challenge-form and anomaly-modal.</a></div></body></html>`;
    expect(duckduckgo.parseResponse(response(body), params())).toHaveLength(1);
  });

  it('429 → rate_limited (retryAfter from Retry-After when sent)', () => {
    const err = thrown(() => duckduckgo.parseResponse(response('', 429, { 'Retry-After': '120' }), params()));
    expect(err.code).toBe('rate_limited');
    expect(err.retryAfter).toBe(120);
    expect(err.retryable).toBe(true);
    expect(thrown(() => duckduckgo.parseResponse(response('', 429), params())).retryAfter).toBeUndefined();
  });

  it('403 → blocked', () => {
    const err = thrown(() => duckduckgo.parseResponse(response('If this error persists, contact us', 403), params()));
    expect(err.code).toBe('blocked');
    expect(err.statusCode).toBe(403);
  });

  it('other non-2xx → http with statusCode (5xx retryable)', () => {
    const e500 = thrown(() => duckduckgo.parseResponse(response('oops', 500), params()));
    expect(e500.code).toBe('http');
    expect(e500.statusCode).toBe(500);
    expect(e500.retryable).toBe(true);
    const e404 = thrown(() => duckduckgo.parseResponse(response('nope', 404), params()));
    expect([e404.code, e404.statusCode, e404.retryable]).toEqual(['http', 404, false]);
  });

  it('a page with neither results nor the no-results marker → malformed_response', () => {
    expect(
      thrown(() => duckduckgo.parseResponse(fixtureResponse('duckduckgo/unexpected_page.html'), params())).code,
    ).toBe('malformed_response');
    expect(thrown(() => duckduckgo.parseResponse(response('<<<garbage>>> \u0000'), params())).code).toBe(
      'malformed_response',
    );
    expect(thrown(() => duckduckgo.parseResponse(response(''), params())).code).toBe('malformed_response');
  });

  it('an html page whose result list vanished (no blocks, no marker) → malformed_response', () => {
    const page = fixture('duckduckgo/html_no_results.html').replace(
      /<div class="result [^"]*">[\s\S]*?<\/div>\s*<\/div>\s*<\/div>/,
      '',
    );
    expect(page).not.toContain('no-results');
    expect(thrown(() => duckduckgo.parseResponse(response(page), params())).code).toBe('malformed_response');
  });
});

describe('ddgRegion', () => {
  it('defaults to wt-wt', () => {
    expect(ddgRegion(undefined, undefined)).toBe('wt-wt');
  });
  it('uses DuckDuckGo spellings of countries and languages', () => {
    expect(ddgRegion('SA', undefined)).toBe('xa-ar');
    expect(ddgRegion('si', undefined)).toBe('sl-sl');
    expect(ddgRegion('tw', 'zh-Hant')).toBe('tw-tzh');
    expect(ddgRegion('kr', 'ko')).toBe('kr-kr');
    expect(ddgRegion('be', 'nl-BE')).toBe('be-nl');
    expect(ddgRegion('be', 'en')).toBe('be-fr');
  });
});
