/**
 * GET /r/<url>, the reader: the page as text/markdown (title, URL, Markdown) or the crawl
 * response as JSON; the URL's own query string kept; every /api/crawl option as a query
 * parameter once the URL is percent-encoded; failed URLs as a status and one line; the
 * same credits, X-Credits-Remaining and auth as POST /api/crawl.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { READER_STATUS } from '../../../src/faces/http/reader.js';
import { startFixtureSite } from '../../helpers/fixture-site.js';
import type { TestApi } from '../../helpers/test-server.js';
import { startTestApi } from '../../helpers/test-server.js';

type Site = Awaited<ReturnType<typeof startFixtureSite>>;
let site: Site;
beforeAll(async () => {
  site = await startFixtureSite();
});
afterAll(async () => {
  await site?.close();
});

const apis: TestApi[] = [];
afterEach(async () => {
  await Promise.all(apis.splice(0).map((a) => a.close().catch(() => undefined)));
});
async function api(overrides: Parameters<typeof startTestApi>[0] = {}): Promise<TestApi> {
  const started = await startTestApi({ cache: { ttlMs: 0 }, ...overrides });
  apis.push(started);
  return started;
}

describe('GET /r/<url>', () => {
  it('answers text/markdown: the title, the source URL, then the Markdown that /api/crawl gives', async () => {
    const a = await api();
    const res = await fetch(`${a.url}/r/${site.origin}/html`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/markdown; charset=utf-8');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('x-request-id')).toMatch(/^req_/);
    const text = await res.text();
    const crawl = (await a.crawl({ urls: [`${site.origin}/html`] })).json.results[0];
    expect(text.startsWith(`Title: ${crawl.title}\nURL: ${site.origin}/html\n`)).toBe(true);
    expect(text).toContain(`\n\n${crawl.markdown}`);
  });

  it('answers the crawl response itself with Accept: application/json', async () => {
    const a = await api();
    const res = await fetch(`${a.url}/r/${site.origin}/text`, { headers: { accept: 'application/json' } });
    expect(res.status).toBe(200);
    const body = (await res.json()) as any;
    expect(body.results).toHaveLength(1);
    expect(body.results[0]).toMatchObject({ url: `${site.origin}/text`, success: true });
    expect(body.metadata).toMatchObject({ total_urls: 1, credits_used: 1 });
  });

  it('with a query, shows the passages that answer it, each after its offsets into the whole Markdown', async () => {
    const a = await api();
    const target = encodeURIComponent(`${site.origin}/html`);
    const json = (await (
      await fetch(`${a.url}/r/${target}?query=tide%20tables&max_passages=2`, {
        headers: { accept: 'application/json' },
      })
    ).json()) as any;
    const passages = json.results[0].passages as { text: string; start_char: number; end_char: number }[];
    expect(passages.length).toBeGreaterThan(0);
    const text = await (await fetch(`${a.url}/r/${target}?query=tide%20tables&max_passages=2`)).text();
    for (const p of passages) {
      expect(text).toContain(`[${p.start_char}-${p.end_char} of ${json.results[0].total_chars} characters]`);
      expect(text).toContain(p.text);
    }
  });

  it("keeps the URL's own query string", async () => {
    const a = await api();
    const res = await fetch(`${a.url}/r/${site.origin}/text?y=1&format=html`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/markdown; charset=utf-8');
    expect(await res.text()).toContain(`URL: ${site.origin}/text?y=1&format=html`);
    expect(site.hits('/text?y=1&format=html')).toBe(1);
  });

  it('takes every /api/crawl option as a query parameter when the URL is percent-encoded', async () => {
    const a = await api();
    const target = encodeURIComponent(`${site.origin}/text?z=2`);
    const cut = await fetch(`${a.url}/r/${target}?max_chars=10&start_char=5&timeout_ms=4000&stealth=false`, {
      headers: { accept: 'application/json' },
    });
    expect(cut.status).toBe(200);
    const result = ((await cut.json()) as any).results[0];
    expect(result).toMatchObject({ url: `${site.origin}/text?z=2`, total_chars: expect.any(Number) });
    expect(result.markdown).toHaveLength(10);
    expect(result.next_start_char).toBe(15);

    const html = await fetch(`${a.url}/r/${encodeURIComponent(`${site.origin}/html`)}?format=html`);
    expect(html.status).toBe(200);
    // A page's HTML is never served as HTML under this origin.
    expect(html.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(html.headers.get('content-security-policy')).toContain('sandbox');
    expect(await html.text()).toMatch(/<html/i);
  });

  it('refuses a bad option by path, as one line of text (JSON with Accept: application/json)', async () => {
    const a = await api();
    const target = encodeURIComponent(`${site.origin}/text`);
    const text = await fetch(`${a.url}/r/${target}?max_chars=lots&colour=blue`);
    expect(text.status).toBe(400);
    expect(text.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    const line = await text.text();
    expect(line).toMatch(/^invalid_request: .*max_chars.*colour/);
    expect(line.trimEnd().split('\n')).toHaveLength(1);
    const json = await fetch(`${a.url}/r/${target}?max_chars=lots`, { headers: { accept: 'application/json' } });
    expect(json.status).toBe(400);
    expect(((await json.json()) as any).error.details[0].path).toBe('max_chars');
    expect((await fetch(`${a.url}/r/${target}?urls=${target}`)).status).toBe(400);
    expect((await fetch(`${a.url}/r/`)).status).toBe(400);
  });

  it('answers a failed URL with the status of its error type and one line', async () => {
    const a = await api();
    const cases: [string, string, number][] = [
      [`${site.origin}/status/500`, 'http', 502],
      [`${site.origin}/no-bot/page`, 'robots_disallowed', 403],
      [`${site.origin}/image.png`, 'unsupported_content_type', 422],
      ['ftp://example.com/file', 'invalid_url', 400],
    ];
    for (const [url, type, status] of cases) {
      const res = await fetch(`${a.url}/r/${url}`);
      expect(res.status, url).toBe(status);
      expect(READER_STATUS[type as keyof typeof READER_STATUS]).toBe(status);
      expect(await res.text(), url).toMatch(new RegExp(`^${type}: [^\\n]+\\n$`));
    }
    const json = await fetch(`${a.url}/r/${site.origin}/status/500`, { headers: { accept: 'application/json' } });
    expect(json.status).toBe(502);
    expect(((await json.json()) as any).results[0]).toMatchObject({ success: false, error_type: 'http' });
  });

  it('times a slow URL out as 504', async () => {
    const a = await api();
    const res = await fetch(`${a.url}/r/${encodeURIComponent(`${site.origin}/hang`)}?timeout_ms=300`);
    expect(res.status).toBe(504);
    expect(await res.text()).toMatch(/^timeout: /);
  });

  it('charges and refuses as /api/crawl: 401 without a key, 402 when spent, X-Credits-Remaining after each debit', async () => {
    const a = await api();
    const { secret } = await a.core.keys.create({ name: 'reader', credits: 2 });
    const unauth = await fetch(`${a.url}/r/${site.origin}/text`);
    expect(unauth.status).toBe(401);
    expect(unauth.headers.get('www-authenticate')).toBe('Bearer');
    expect(await unauth.text()).toMatch(/^unauthorized: .*\n$/);
    const auth = { authorization: `Bearer ${secret}` };
    const first = await fetch(`${a.url}/r/${site.origin}/text`, { headers: auth });
    expect(first.status).toBe(200);
    expect(first.headers.get('x-credits-remaining')).toBe('1');
    // A failed URL is not charged; the header still says the balance.
    const failed = await fetch(`${a.url}/r/${site.origin}/status/404`, { headers: auth });
    expect(failed.status).toBe(502);
    expect(failed.headers.get('x-credits-remaining')).toBe('1');
    expect(
      (await fetch(`${a.url}/r/${site.origin}/text?again`, { headers: auth })).headers.get('x-credits-remaining'),
    ).toBe('0');
    const spent = await fetch(`${a.url}/r/${site.origin}/text`, { headers: auth });
    expect(spent.status).toBe(402);
    expect(await spent.text()).toMatch(/^insufficient_credits: /);
    const usage = await a.core.keys.usage();
    expect(usage.map((u) => [u.operation, u.credits, u.urls])).toEqual([
      ['crawl', 1, [`${site.origin}/text`]],
      ['crawl', 0, [`${site.origin}/status/404`]],
      ['crawl', 1, [`${site.origin}/text?again`]],
    ]);
  });

  it('allows only GET, and is in the OpenAPI document', async () => {
    const a = await api();
    const post = await fetch(`${a.url}/r/${site.origin}/text`, { method: 'POST' });
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET');
    // A HEAD would run and charge the extraction for nothing it could read: refused, nothing fetched.
    const before = site.hits('/text');
    const head = await fetch(`${a.url}/r/${site.origin}/text`, { method: 'HEAD' });
    expect(head.status).toBe(405);
    expect(head.headers.get('allow')).toBe('GET');
    const headSearch = await fetch(`${a.url}/api/search?q=x`, { method: 'HEAD' });
    expect(headSearch.status).toBe(405);
    expect(headSearch.headers.get('allow')).toBe('GET, POST');
    expect(site.hits('/text')).toBe(before);
    const doc = (await (await fetch(`${a.url}/openapi.json`)).json()) as any;
    const read = doc.paths['/r/{url}'].get;
    const names = read.parameters.map((p: any) => p.name);
    // Every option of the crawl request, derived from its schema.
    const crawlOptions = Object.keys(doc.components.schemas.CrawlRequest.properties).filter((n) => n !== 'urls');
    expect(names).toEqual(['url', ...crawlOptions]);
    expect(Object.keys(read.responses)).toEqual(expect.arrayContaining(['200', '401', '402', '422', '502', '504']));
    expect(read.responses['200'].headers['X-Credits-Remaining']).toBeDefined();
  });
});
