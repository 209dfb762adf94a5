/**
 * GET /r/<url>, the reader: the page as text/markdown (title, URL, Markdown) or the crawl
 * response as JSON; the URL's own query string kept; every /api/crawl option as a query
 * parameter once the URL is percent-encoded; failed URLs as a status and one line; the
 * same credits, X-Credits-Remaining and auth as POST /api/crawl; a slice's total and next
 * offset in the text and in headers, the links under the content, and a screenshot refused
 * in text.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { READER_STATUS } from '../../../src/faces/http/reader.js';
import { linksText } from '../../../src/faces/reader-text.js';
import { startFixtureSite } from '../../helpers/fixture-site.js';
import { expectedLinks, pageControlScenarios } from '../../helpers/page-control-scenarios.js';
import type { TestApi } from '../../helpers/test-server.js';
import { startTestApi } from '../../helpers/test-server.js';

type Site = Awaited<ReturnType<typeof startFixtureSite>>;
let site: Site;
beforeAll(async () => {
  site = await startFixtureSite({ scenarios: pageControlScenarios() });
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
    expect(Object.keys(read.responses['200'].headers)).toEqual(
      expect.arrayContaining(['X-Total-Chars', 'X-Next-Start-Char']),
    );
  });
});

describe('GET /r/<url> shows what it was asked for, or refuses it', () => {
  it('a slice (max_chars, start_char) says the total and how to read on, in the text and in headers', async () => {
    const a = await api();
    const whole = (await a.crawl({ urls: [`${site.origin}/html`] })).json.results[0].markdown as string;
    expect(whole.length).toBeGreaterThan(300);
    const target = encodeURIComponent(`${site.origin}/html`);
    const res = await fetch(`${a.url}/r/${target}?max_chars=100&start_char=20`);
    expect(res.status).toBe(200);
    expect(res.headers.get('x-total-chars')).toBe(String(whole.length));
    expect(res.headers.get('x-next-start-char')).toBe('120');
    const text = await res.text();
    expect(text).toContain(whole.slice(20, 120));
    const next = `/r/${target}?max_chars=100&start_char=120`;
    expect(text.endsWith(`\n\n[Cut at character 120 of ${whole.length}. For the rest GET <${next}>.]\n`)).toBe(true);

    // The request it names is the next slice.
    const second = await fetch(`${a.url}${next}`);
    expect(second.headers.get('x-next-start-char')).toBe('220');
    expect(await second.text()).toContain(whole.slice(120, 220));

    // The last slice says the page ends in it, and there is no next offset.
    const last = await fetch(`${a.url}/r/${target}?max_chars=100&start_char=${whole.length - 10}`);
    expect(last.headers.get('x-total-chars')).toBe(String(whole.length));
    expect(last.headers.has('x-next-start-char')).toBe(false);
    const lastText = await last.text();
    expect(lastText).toContain(whole.slice(-10));
    expect(lastText.endsWith(`\n\n[End of page: it has ${whole.length} characters.]\n`)).toBe(true);

    // JSON carries the same headers beside total_chars and next_start_char.
    const json = await fetch(`${a.url}/r/${target}?max_chars=100`, { headers: { accept: 'application/json' } });
    expect(json.headers.get('x-total-chars')).toBe(String(whole.length));
    expect(json.headers.get('x-next-start-char')).toBe('100');

    // A page read whole has neither.
    const plain = await fetch(`${a.url}/r/${site.origin}/html`);
    expect(plain.headers.has('x-total-chars')).toBe(false);
    expect(await plain.text()).not.toMatch(/\[(Cut at|End of page)/);
  });

  it('include_links lists the links under the content, as Markdown links with their text', async () => {
    const a = await api();
    const target = encodeURIComponent(`${site.origin}/controls/links`);
    const text = await (await fetch(`${a.url}/r/${target}?include_links=true`)).text();
    const [page, links] = text.split('\n## Links\n\n');
    expect(page).toContain('Harbour guide');
    expect(links).toBeDefined();
    const items = (links as string).trimEnd().split('\n');
    expect(items).toEqual(
      expectedLinks(site.origin).map((l) => `- ${l.in_content ? '(in content) ' : ''}[${l.text}](${l.url})`),
    );
    // Without it, no list.
    expect(await (await fetch(`${a.url}/r/${target}`)).text()).not.toContain('## Links');
  });

  it('linksText, for the text faces: every link once, its URL as the label when it has no text, a cut list said', () => {
    const links = [
      { url: 'https://a.example/x', text: 'The [x] page', in_content: true },
      { url: 'https://a.example/y', text: '', in_content: false },
    ];
    expect(linksText(links)).toBe(
      '## Links\n\n- (in content) [The x page](https://a.example/x)\n- [https://a.example/y](https://a.example/y)',
    );
    expect(linksText(links, true)).toMatch(/\(the page has more links than these 2\)$/);
    expect(linksText([])).toBe('## Links\n\n(none)');
  });

  it('screenshot in text is a 400 naming screenshot and Accept: application/json; nothing fetched or charged', async () => {
    const a = await api();
    const { secret } = await a.core.keys.create({ name: 'shots', credits: 5 });
    const auth = { authorization: `Bearer ${secret}` };
    const target = encodeURIComponent(`${site.origin}/html`);
    const before = site.hits('/html');
    const res = await fetch(`${a.url}/r/${target}?screenshot=true`, { headers: auth });
    expect(res.status).toBe(400);
    expect(await res.text()).toMatch(/^invalid_request: screenshot needs Accept: application\/json\b.*\n$/);
    expect(site.hits('/html')).toBe(before);
    expect(await a.core.keys.usage()).toEqual([]);
    // With JSON it is taken (this server has no browser: render_unavailable, still nothing fetched or charged).
    const json = await fetch(`${a.url}/r/${target}?screenshot=true`, {
      headers: { ...auth, accept: 'application/json' },
    });
    expect(((await json.json()) as any).results[0]).toMatchObject({ error_type: 'render_unavailable' });
    expect(site.hits('/html')).toBe(before);
    // screenshot=false asks for nothing to refuse.
    expect((await fetch(`${a.url}/r/${target}?screenshot=false`, { headers: auth })).status).toBe(200);
  });
});
