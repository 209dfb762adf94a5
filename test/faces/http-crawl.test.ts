/**
 * POST /api/crawl end to end: real HTTP requests to the real server, which fetches from the
 * local fixture site. Every gate, every error_type, page_type, credits, duplicates, cache, paging.
 */
import { request as httpRequest } from 'node:http';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PAGE_TYPES } from '../../src/core/page-types.js';
import { PRODUCT_DESCRIPTION_TEXT } from '../helpers/fixture-pages.js';
import { startFixtureSite } from '../helpers/fixture-site.js';
import type { TestApi } from '../helpers/test-server.js';
import { startTestApi } from '../helpers/test-server.js';

type Site = Awaited<ReturnType<typeof startFixtureSite>>;

let site: Site;
let api: TestApi;

beforeAll(async () => {
  site = await startFixtureSite();
  // The page cache is off here so that every test sees a fresh fetch; cache tests start their own API.
  api = await startTestApi({ cache: { ttlMs: 0 } });
});
afterAll(async () => {
  await api?.close();
  await site?.close();
});

const u = (path: string) => `${site.origin}${path}`;

async function crawlOne(path: string, extra: Record<string, unknown> = {}) {
  const { status, json } = await api.crawl({ urls: [u(path)], ...extra });
  expect(status).toBe(200);
  expect(json.results).toHaveLength(1);
  return { result: json.results[0], metadata: json.metadata };
}

describe('supported content types', () => {
  it('extracts an HTML article as Markdown with metadata and charges 1 credit', async () => {
    const { result, metadata } = await crawlOne('/html');
    expect(result.success).toBe(true);
    expect(result.status_code).toBe(200);
    expect(result.content_type).toBe('text/html');
    expect(result.markdown.length).toBeGreaterThan(50);
    expect(result.markdown).not.toMatch(/<script|<style|<nav/i);
    expect(result.title).toBeTruthy();
    expect(result).not.toHaveProperty('error');
    expect(result).not.toHaveProperty('error_type');
    expect(metadata).toMatchObject({
      total_urls: 1,
      processed_urls: 1,
      successful_crawls: 1,
      failed_crawls: 0,
      credits_used: 1,
      cached_free: 0,
    });
    expect(typeof metadata.response_time).toBe('number');
    expect(new Date(metadata.timestamp).toISOString()).toBe(metadata.timestamp);
  });

  it('extracts a product page: its name, declared price and the description a sheet hid, not the reviews', async () => {
    const { result } = await crawlOne('/product');
    expect(result.success).toBe(true);
    expect(result.markdown).toMatch(/^# Harbour Oilskin Jacket\n\nPrice: €189\.00 \(in stock\)\n/);
    expect(result.markdown).toContain(PRODUCT_DESCRIPTION_TEXT);
    expect(result.markdown).toContain('- Brass two-way zip');
    expect(result.markdown).not.toMatch(/Review 0|Filter 0|Add to bag|Imprint/);
  });

  it('writes formulas as TeX and a table with lists in its cells as a table', async () => {
    const { result } = await crawlOne('/formulas');
    expect(result.success).toBe(true);
    expect(result.markdown).toContain(
      'After $t$ hours the height above low water is\n\n$$h(t) = \\frac{R}{12} \\sum_{k=1}^{t} w_k$$\n\n',
    );
    expect(result.markdown).toContain('where the range is $R = H - L$ for high water H and low water L.');
    expect(result.markdown).toContain(
      '| Hour | Twelfths risen |\n| --- | --- |\n| 1 | one; running total 1 |\n| 2 | two; running total 3 |',
    );
    expect(result.markdown).not.toContain('R=H−L');
  });

  it.each([
    ['/text', 'text/plain'],
    ['/markdown', 'text/markdown'],
    ['/csv', 'text/csv'],
    ['/json', 'application/json'],
    ['/ld-json', 'application/ld+json'],
    ['/rss', 'application/rss+xml'],
    ['/atom', 'application/atom+xml'],
    ['/sitemap.xml', 'application/xml'],
    ['/xml', undefined],
    ['/xhtml', 'application/xhtml+xml'],
  ])('extracts %s', async (path, type) => {
    const { result, metadata } = await crawlOne(path);
    expect(result.success, JSON.stringify(result)).toBe(true);
    if (type) expect(result.content_type).toBe(type);
    expect(result.markdown.trim().length).toBeGreaterThan(0);
    expect(metadata.credits_used).toBe(1);
  });

  it('renders CSV as a GFM table and JSON in a fenced block', async () => {
    const csv = (await crawlOne('/csv')).result.markdown as string;
    expect(csv).toMatch(/^\|.*\|\n\|\s*-+/m);
    const json = (await crawlOne('/json')).result.markdown as string;
    expect(json).toMatch(/^```json\n/);
  });

  it('renders an RSS feed as a heading and a list of items', async () => {
    const md = (await crawlOne('/rss')).result.markdown as string;
    expect(md).toMatch(/^# /m);
    expect(md).toMatch(/^- \[/m);
  });

  it('decodes Latin-1 (header charset and meta charset) and Shift_JIS', async () => {
    for (const path of ['/latin1', '/latin1-meta']) {
      const md = (await crawlOne(path)).result.markdown as string;
      expect(md, path).toMatch(/é/);
      expect(md, path).toMatch(/€/);
      expect(md, path).not.toMatch(/\uFFFD/);
    }
    const sjis = (await crawlOne('/shift-jis')).result.markdown as string;
    expect(sjis).toMatch(/日本語/);
    expect(sjis).not.toMatch(/\uFFFD/);
  });

  it('returns the full decoded HTML with format "html"', async () => {
    const { result } = await crawlOne('/latin1', { format: 'html' });
    expect(result.success).toBe(true);
    expect(result.markdown).toBe('');
    expect(result.html).toMatch(/<html/i);
    expect(result.html).toMatch(/€/);
  });
});

describe('page_type', () => {
  it("comes with every page converted from HTML to Markdown, one of the extractor's types", async () => {
    for (const path of ['/html', '/product', '/xhtml', '/no-content-type']) {
      const { result } = await crawlOne(path);
      expect(result.success, path).toBe(true);
      expect(PAGE_TYPES, path).toContain(result.page_type);
    }
  });

  it('is absent for other kinds and for format html', async () => {
    for (const path of ['/text', '/markdown', '/csv', '/json', '/rss']) {
      const { result } = await crawlOne(path);
      expect(result.success, path).toBe(true);
      expect(result, path).not.toHaveProperty('page_type');
    }
    const { result } = await crawlOne('/html', { format: 'html' });
    expect(result).toMatchObject({ success: true, content_type: 'text/html' });
    expect(result).not.toHaveProperty('page_type');
  });

  it('is declared in the OpenAPI document, and a real response validates against it', async () => {
    const doc = (await (await fetch(`${api.url}/openapi.json`)).json()) as any;
    const pageType = doc.components.schemas.CrawlResponse.properties.results.items.properties.page_type;
    expect(pageType.enum).toEqual([...PAGE_TYPES]);
    const { json } = await api.crawl({ urls: [u('/html'), u('/json')] });
    const validate = new Ajv2020({ strict: false }).compile(doc.components.schemas.CrawlResponse);
    expect(validate(json), JSON.stringify(validate.errors)).toBe(true);
    expect(validate({ ...json, results: [{ ...json.results[0], page_type: 'blog' }] })).toBe(false);
  });
});

describe('per-URL gates and error types', () => {
  it('rejects an invalid URL with status 0 and no charge', async () => {
    const { json } = await api.crawl({ urls: ['not a url', 'ftp://example.com/file.txt', ''] });
    for (const r of json.results) {
      expect(r).toMatchObject({ success: false, markdown: '', status_code: 0, error_type: 'invalid_url' });
      expect(r.error).toBeTruthy();
    }
    expect(json.metadata).toMatchObject({ successful_crawls: 0, failed_crawls: 3, credits_used: 0 });
  });

  it('rejects binary extensions before any request', async () => {
    const { json } = await api.crawl({ urls: [u('/doc.pdf'), u('/image.png')] });
    for (const r of json.results)
      expect(r).toMatchObject({ success: false, status_code: 0, error_type: 'unsupported_content_type' });
    expect(site.hits('/doc.pdf')).toBe(0);
    expect(site.hits('/image.png')).toBe(0);
  });

  it('honours robots.txt', async () => {
    const { result } = await crawlOne('/private/page');
    expect(result).toMatchObject({ success: false, status_code: 0, error_type: 'robots_disallowed' });
    // Short, and names the setting that governs it.
    expect(result.error).toMatch(/robots\.txt disallows this path .*WEBSEARCH_ROBOTS setting/);
    expect(result.error.length).toBeLessThan(200);
    expect(site.hits('/private/page')).toBe(0);
    const forUs = await crawlOne('/no-bot/page');
    expect(forUs.result.error_type).toBe('robots_disallowed');
  });

  it('rejects a PDF served as application/pdf, a PDF served as text/html and a PNG served as text/html', async () => {
    for (const path of ['/pdf', '/pdf-as-html', '/png-as-html', '/binary-as-text']) {
      const { result, metadata } = await crawlOne(path);
      expect(result, path).toMatchObject({ success: false, error_type: 'unsupported_content_type', status_code: 200 });
      expect(metadata.credits_used).toBe(0);
    }
  });

  it('rejects pages over 10 MiB: chunked, declared, and a gzip bomb', async () => {
    for (const path of ['/huge-chunked', '/huge-declared', '/gzip-bomb']) {
      const { result } = await crawlOne(path);
      expect(result, path).toMatchObject({ success: false, error_type: 'too_large' });
    }
  });

  it('reports an HTTP error status with its status text', async () => {
    const { result } = await crawlOne('/status/404');
    expect(result).toMatchObject({ success: false, status_code: 404, error_type: 'http' });
    expect(result.error).toMatch(/404 Not Found/);
    const server = await crawlOne('/status/503');
    expect(server.result).toMatchObject({ status_code: 503, error_type: 'http' });
  });

  it('refuses a challenge page served with 200 as blocked', async () => {
    for (const path of ['/challenge', '/captcha']) {
      const { result, metadata } = await crawlOne(path);
      expect(result, path).toMatchObject({ success: false, error_type: 'blocked', status_code: 200 });
      expect(metadata.credits_used).toBe(0);
    }
  });

  it('times out a slow drip at the per-URL deadline', async () => {
    const started = Date.now();
    const { result } = await crawlOne('/slow-drip', { timeout_ms: 1000 });
    expect(result).toMatchObject({ success: false, error_type: 'timeout' });
    expect(Date.now() - started).toBeLessThan(8000);
  });

  it('reports a refused connection as a network error', async () => {
    const { json } = await api.crawl({ urls: ['http://127.0.0.1:1/page'] });
    expect(json.results[0]).toMatchObject({ success: false, status_code: 0, error_type: 'network' });
  });

  it('follows redirects and reports the final URL; too many redirects fail', async () => {
    const ok = await crawlOne('/redirect/3');
    expect(ok.result.success).toBe(true);
    expect(ok.result.final_url).toBe(u('/html'));
    const loop = await crawlOne('/redirect-loop');
    expect(loop.result).toMatchObject({ success: false, error_type: 'http' });
  });

  it('extracts the good URLs of a request whose other URLs fail, in submission order', async () => {
    const urls = [u('/html'), u('/doc.pdf'), u('/text'), 'nope', u('/status/500')];
    const { json } = await api.crawl({ urls });
    expect(json.results.map((r: { url: string }) => r.url)).toEqual(urls);
    expect(json.results.map((r: { success: boolean }) => r.success)).toEqual([true, false, true, false, false]);
    expect(json.metadata).toMatchObject({
      total_urls: 5,
      processed_urls: 5,
      successful_crawls: 2,
      failed_crawls: 3,
      credits_used: 2,
    });
  });
});

describe('the guard with the default configuration', () => {
  it('refuses loopback, 0x7f.1, [::ffff:127.0.0.1] and a redirect to a private address', async () => {
    const strict = await startTestApi({ fetch: { allowPrivateAddresses: false } });
    try {
      const port = new URL(site.origin).port;
      const { json } = await strict.crawl({
        urls: [
          `http://127.0.0.1:${port}/html`,
          `http://0x7f.1:${port}/html`,
          `http://[::ffff:127.0.0.1]:${port}/html`,
          `http://localhost:${port}/html`,
        ],
      });
      for (const r of json.results)
        expect(r, r.url).toMatchObject({ success: false, error_type: 'forbidden_address', status_code: 0 });
      expect(json.metadata.credits_used).toBe(0);
    } finally {
      await strict.close();
    }
  });
});

describe('duplicates, credits and the cache', () => {
  it('fetches a duplicate URL once and charges it once, keeping one result per entry', async () => {
    const before = site.hits('/markdown');
    const { json } = await api.crawl({ urls: [u('/markdown'), u('/text'), u('/markdown'), `${u('/markdown')}#part`] });
    expect(json.results).toHaveLength(4);
    expect(json.results.every((r: { success: boolean }) => r.success)).toBe(true);
    expect(site.hits('/markdown') - before).toBe(1);
    expect(json.metadata).toMatchObject({ total_urls: 4, successful_crawls: 4, credits_used: 2 });
  });

  it('charges 5 credits per successful URL with stealth and nothing for failures', async () => {
    const { json } = await api.crawl({ urls: [u('/html'), u('/text'), u('/status/404')], stealth: true });
    expect(json.metadata.credits_used).toBe(10);
  });

  it('serves a repeated URL from cache for free', async () => {
    const cached = await startTestApi();
    try {
      const first = await cached.crawl({ urls: [u('/csv'), u('/status/404')] });
      expect(first.json.metadata).toMatchObject({ credits_used: 1, cached_free: 0 });
      const hits = site.hits('/csv');
      const second = await cached.crawl({ urls: [u('/csv'), u('/status/404')] });
      expect(second.json.metadata).toMatchObject({
        credits_used: 0,
        cached_free: 1,
        successful_crawls: 1,
        failed_crawls: 1,
      });
      expect(second.json.results[0].markdown).toBe(first.json.results[0].markdown);
      expect(site.hits('/csv')).toBe(hits);
    } finally {
      await cached.close();
    }
  });
});

describe('paging with max_chars and start_char', () => {
  it('cuts the content and continues exactly where it stopped', async () => {
    const whole = (await crawlOne('/html')).result.markdown as string;
    const first = (await crawlOne('/html', { max_chars: 40 })).result;
    expect(first.markdown).toBe(whole.slice(0, 40));
    expect(first.total_chars).toBe(whole.length);
    expect(first.next_start_char).toBe(40);
    const rest = (await crawlOne('/html', { start_char: 40 })).result;
    expect(first.markdown + rest.markdown).toBe(whole);
    expect(rest.total_chars).toBe(whole.length);
    expect(rest).not.toHaveProperty('next_start_char');
  });
});

describe('request-level errors', () => {
  it('answers 400 with the offending paths', async () => {
    const urls = Array.from({ length: 11 }, (_, i) => u(`/text?${i}`));
    const eleven = await api.crawl({ urls });
    expect(eleven.status).toBe(400);
    expect(eleven.json.error.code).toBe('invalid_request');
    expect(eleven.json.error.details.map((d: { path: string }) => d.path)).toContain('urls');

    const mixed = await api.crawl({ urls: [u('/text'), 42], format: 'pdf', extra: true });
    expect(mixed.status).toBe(400);
    const paths = mixed.json.error.details.map((d: { path: string }) => d.path);
    expect(paths).toEqual(expect.arrayContaining(['urls.1', 'format']));
    expect(mixed.json.error.message).toMatch(/extra/);

    const none = await api.crawl({});
    expect(none.status).toBe(400);
    expect(none.json.error.details[0].path).toBe('urls');

    const empty = await api.crawl({ urls: [] });
    expect(empty.status).toBe(400);
  });

  it('names each unknown field by its own path, in the body and in a query string', async () => {
    const res = await api.crawl({ urls: ['https://example.com/'], nope: 1, formt: 'html' });
    expect(res.status).toBe(400);
    expect(res.json.error.details).toEqual([
      { path: 'nope', message: 'unknown field "nope"' },
      { path: 'formt', message: 'unknown field "formt"' },
    ]);
    const search = await fetch(`${api.url}/api/search?q=x&nope=1`);
    expect(search.status).toBe(400);
    expect(((await search.json()) as any).error.details).toEqual([{ path: 'nope', message: 'unknown field "nope"' }]);
  });

  it('answers 400 for a body that is not JSON', async () => {
    const res = await api.post('/api/crawl', '{"urls": [');
    expect(res.status).toBe(400);
    const body = (await res.json()) as any;
    expect(body.error).toMatchObject({ code: 'invalid_request' });
    expect(body.error.details[0].path).toBe('(body)');
  });

  it('answers 415 for a body that is not JSON', async () => {
    const res = await api.post('/api/crawl', 'urls=x', { 'content-type': 'application/x-www-form-urlencoded' });
    expect(res.status).toBe(415);
    expect(((await res.json()) as any).error.code).toBe('unsupported_media_type');
    const none = await fetch(`${api.url}/api/crawl`, { method: 'POST' });
    expect(none.status).toBe(415);
  });

  it('accepts a JSON object sent with curl -d (labelled as a form)', async () => {
    const res = await api.post('/api/crawl', JSON.stringify({ urls: [u('/text')] }), {
      'content-type': 'application/x-www-form-urlencoded',
    });
    expect(res.status).toBe(200);
    expect(((await res.json()) as any).results[0].success).toBe(true);
  });

  it('answers 413 for a body over 64 KiB', async () => {
    const res = await api.post('/api/crawl', { urls: ['x'.repeat(70 * 1024)] });
    expect(res.status).toBe(413);
    expect(((await res.json()) as any).error.code).toBe('payload_too_large');
  });

  it('answers 404 for an unknown route and 405 for a wrong method', async () => {
    const missing = await fetch(`${api.url}/api/nothing`);
    expect(missing.status).toBe(404);
    expect(((await missing.json()) as any).error.code).toBe('not_found');
    const wrong = await fetch(`${api.url}/api/crawl`);
    expect(wrong.status).toBe(405);
    expect(wrong.headers.get('allow')).toBe('POST');
    expect(((await wrong.json()) as any).error.code).toBe('method_not_allowed');
  });

  it('refuses a foreign Host header (DNS rebinding)', async () => {
    // fetch() always sends the real host, so the raw http client sends the forged one.
    const status = await new Promise<number>((resolve, reject) => {
      const req = httpRequest(
        `${api.url}/api/crawl`,
        { method: 'POST', headers: { host: 'attacker.example', 'content-type': 'application/json' } },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        },
      );
      req.on('error', reject);
      req.end(JSON.stringify({ urls: [u('/text')] }));
    });
    expect(status).toBe(403);
    const origin = await fetch(`${api.url}/api/crawl`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: 'https://attacker.example' },
      body: JSON.stringify({ urls: [u('/text')] }),
    });
    expect(origin.status).toBe(403);
  });
});
