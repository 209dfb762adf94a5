/**
 * Query-focused passages end to end (issue 31): /api/crawl and extract_urls with `query`,
 * /api/search and web_search with content_mode "passages", the library's extract; offsets
 * that index the full Markdown, so start_char reads on; the 400s for settings that would
 * do nothing; credits as without passages.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { extractResponseSchema, searchResponseSchema } from '../../src/core/schemas.js';
import { createWebSearch } from '../../src/index.js';
import type { FakeEngines } from '../helpers/fake-engines.js';
import { startFakeEngines } from '../helpers/fake-engines.js';
import { startFixtureSite } from '../helpers/fixture-site.js';
import type { TestApi } from '../helpers/test-server.js';
import { inMemoryMcpClient, startTestApi } from '../helpers/test-server.js';

const filler = (topic: string, n: number) =>
  Array.from(
    { length: n },
    (_, i) => `Paragraph ${i + 1} about ${topic} goes on at some length, as a real page would, without much to say.`,
  ).join(' ');

// A guide long enough for many passages; the answers sit in the middle and at the end.
const GUIDE_HTML = `<!doctype html><html lang="en"><head><title>Harbour Guide</title></head><body>
<nav><a href="/">Home</a> <a href="/about">About</a></nav>
<article>
<h1>Harbour Guide</h1>
<p>${filler('the harbour and its history', 6)}</p>
<h2>Getting there</h2>
<p>${filler('roads and parking', 6)}</p>
<p>The ferry to the lighthouse island leaves from pier 7 every 40 minutes between April and October.</p>
<h2>Opening hours</h2>
<p>${filler('the visitor centre', 6)}</p>
<table><thead><tr><th>Season</th><th>Hours</th></tr></thead>
<tbody><tr><td>Summer</td><td>8:00-20:00</td></tr><tr><td>Winter</td><td>10:00-16:00</td></tr></tbody></table>
<h2>Fishing</h2>
<p>${filler('boats and nets', 6)}</p>
<p>A fishing permit costs 12 euros a day and is sold at the harbour master's office.</p>
</article>
<footer>Imprint</footer>
</body></html>`;

type Site = Awaited<ReturnType<typeof startFixtureSite>>;
let site: Site;
let api: TestApi;
let fake: FakeEngines;

beforeAll(async () => {
  site = await startFixtureSite({
    scenarios: [
      {
        path: '/guide',
        description: 'a long sectioned article for passages',
        handle: ({ res }) => void res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(GUIDE_HTML),
      },
    ],
  });
  fake = await startFakeEngines();
  api = await startTestApi({
    cache: { ttlMs: 0 },
    engines: fake.engineConfig,
    search: { duckduckgoIntervalMs: 0, cacheTtlMs: 0, engineTimeoutMs: 1500 },
  });
});
afterAll(async () => {
  await api?.close();
  await fake?.close();
  await site?.close();
});

const guide = () => `${site.origin}/guide`;

/** The fields that differ between two runs of the same request. */
function stable(response: any) {
  return {
    ...response,
    id: '',
    results: response.results.map((r: any) => ({ ...r, cached_at: '' })),
    metadata: { ...response.metadata, response_time: 0, timestamp: '' },
  };
}

describe('/api/crawl with query', () => {
  it('returns the passages that answer it, offsets into the full Markdown, Markdown left out, credits unchanged', async () => {
    const whole = await api.crawl({ urls: [guide()] });
    const markdown: string = whole.json.results[0].markdown;
    expect(markdown).toContain('pier 7');

    const { status, json } = await api.crawl({
      urls: [guide()],
      query: 'How often does the ferry go?',
      max_passages: 2,
    });
    expect(status).toBe(200);
    expect(extractResponseSchema.parse(json)).toEqual(json);
    const [result] = json.results;
    expect(result.success).toBe(true);
    expect(result.markdown).toBe('');
    expect(result.total_chars).toBe(markdown.length);
    expect(result).not.toHaveProperty('next_start_char');
    expect(json.metadata.credits_used).toBe(whole.json.metadata.credits_used);
    expect(result.passages.length).toBeGreaterThan(0);
    expect(result.passages.length).toBeLessThanOrEqual(2);
    const best = result.passages.find((p: any) => p.text.includes('every 40 minutes'));
    // The page's title is its metadata; the Markdown starts under it.
    expect(best.heading_path).toEqual(['Getting there']);
    for (const p of result.passages) expect(markdown.slice(p.start_char, p.end_char)).toBe(p.text);

    // start_char on a follow-up call reads on from a passage.
    const next = await api.crawl({ urls: [guide()], start_char: best.end_char, max_chars: 200 });
    expect(next.json.results[0].markdown).toBe(markdown.slice(best.end_char, best.end_char + 200));
  });

  it('finds an answer at the end of the page and in a table', async () => {
    const { json } = await api.crawl({ urls: [guide()], query: 'price of a fishing permit' });
    expect(json.results[0].passages.map((p: any) => p.text).join('\n')).toContain('12 euros a day');
    const hours = await api.crawl({ urls: [guide()], query: 'winter opening hours', max_passages: 1 });
    expect(hours.json.results[0].passages[0].text).toContain('| Winter | 10:00-16:00 |');
  });

  it('returns [] when nothing matches, and the Markdown slice too when max_chars is given', async () => {
    const none = await api.crawl({ urls: [guide()], query: 'quantum chromodynamics' });
    expect(none.json.results[0].passages).toEqual([]);
    const both = await api.crawl({ urls: [guide()], query: 'ferry', max_chars: 100 });
    expect(both.json.results[0].markdown).toHaveLength(100);
    expect(both.json.results[0].next_start_char).toBe(100);
    expect(both.json.results[0].passages.length).toBeGreaterThan(0);
  });

  it('keeps the passages within max_passage_chars, cut at sentences, offsets exact; the default is 1,500', async () => {
    const whole = await api.crawl({ urls: [guide()] });
    const markdown: string = whole.json.results[0].markdown;
    const ask = { urls: [guide()], query: 'How often does the ferry go?' };
    const plain = await api.crawl(ask);
    const total = (r: any) => r.passages.reduce((n: number, p: any) => n + p.text.length, 0);
    expect(total(plain.json.results[0])).toBeLessThanOrEqual(1500);
    const { status, json } = await api.crawl({ ...ask, max_passage_chars: 300 });
    expect(status).toBe(200);
    const [result] = json.results;
    expect(total(result)).toBeLessThanOrEqual(300);
    const best = result.passages.find((p: any) => p.text.includes('every 40 minutes'));
    // The answer's sentence whole, from its first word to its full stop.
    expect(best.text).toMatch(/^The ferry to the lighthouse island[^\n]*October\.$/);
    for (const p of result.passages) expect(markdown.slice(p.start_char, p.end_char)).toBe(p.text);
  });

  it('refuses max_passages without query, query with format html, and an empty query, by path', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ max_passages: 3 }, 'max_passages'],
      [{ query: 'ferry', format: 'html' }, 'query'],
      [{ query: '   ' }, 'query'],
      [{ query: 'ferry', max_passages: 11 }, 'max_passages'],
      [{ max_passage_chars: 800 }, 'max_passage_chars'],
      [{ query: 'ferry', max_passage_chars: 99 }, 'max_passage_chars'],
      [{ query: 'ferry', max_passage_chars: 20_001 }, 'max_passage_chars'],
      [{ query: 'ferry', max_passage_chars: 500.5 }, 'max_passage_chars'],
    ];
    for (const [extra, path] of cases) {
      const { status, json } = await api.crawl({ urls: [guide()], ...extra });
      expect(status, JSON.stringify(extra)).toBe(400);
      expect(json.error.details.map((d: { path: string }) => d.path)).toContain(path);
    }
  });
});

describe('extract_urls with query over MCP', () => {
  it('shows the passages under the page title with their headings and how to read on; structuredContent is the HTTP JSON', async () => {
    const { client, close } = await inMemoryMcpClient(api.core);
    try {
      const args = { urls: [guide()], query: 'How often does the ferry go?' };
      const result = await client.callTool({ name: 'extract_urls', arguments: args });
      expect(result.isError).toBeFalsy();
      const http = await api.crawl(args);
      expect(stable(result.structuredContent)).toEqual(stable(http.json));
      const text = (result.content as { text: string }[])[0]!.text;
      expect(text).toContain('**Page 1: Harbour Guide');
      expect(text).toMatch(/<passage start_char="\d+" end_char="\d+" section="Getting there">/);
      expect(text).toContain('every 40 minutes');
      expect(text).not.toContain('<page_content>');
      expect(text).toMatch(
        /call extract_urls with its end_char as start_char, e\.g\. \{"urls":\[.*\],"start_char":\d+/,
      );
      expect(text.length).toBeLessThan((http.json.results[0].total_chars as number) + 2000);

      const { tools } = await client.listTools();
      const tool = tools.find((t) => t.name === 'extract_urls')!;
      expect(tool.inputSchema.properties).toHaveProperty('query');
      expect(tool.inputSchema.properties).toHaveProperty('max_passages');
      expect(tool.description).toMatch(/Prefer passing query/);
    } finally {
      await close();
    }
  });
});

describe('search with content_mode "passages"', () => {
  beforeEach(() => {
    fake.setScenario('searxng', {
      body: {
        query: 'ferry',
        results: [1, 2].map((n) => ({
          url: `${guide()}?n=${n}`,
          title: `Guide ${n}`,
          content: `Snippet ${n}`,
          engine: 'x',
          template: 'default.html',
        })),
        answers: [],
        suggestions: [],
        infoboxes: [],
        corrections: [],
        unresponsive_engines: [],
      },
    });
  });

  it('attaches passages for the search query instead of content, at the same credits', async () => {
    const base = { q: 'lighthouse ferry pier', engines: ['searxng'], include_content: true, content_results: 2 };
    const full = await api.post('/api/search', base);
    const fullJson = (await full.json()) as any;
    const res = await api.post('/api/search', { ...base, content_mode: 'passages', max_passages: 1 });
    expect(res.status).toBe(200);
    const json = (await res.json()) as any;
    expect(searchResponseSchema.parse(json)).toEqual(json);
    expect(json.metadata).toMatchObject({ content_requested: 2, content_delivered: 2 });
    expect(json.metadata.credits_used).toBe(fullJson.metadata.credits_used);
    for (const r of json.results.slice(0, 2)) {
      expect(r).not.toHaveProperty('content');
      expect(r.passages).toHaveLength(1);
      expect(r.passages[0].text).toContain('pier 7');
      expect(fullJson.results[0].content.slice(r.passages[0].start_char, r.passages[0].end_char)).toBe(
        r.passages[0].text,
      );
    }
  });

  it('keeps each page within max_passage_chars, from POST and from a GET query string', async () => {
    const base = { q: 'lighthouse ferry pier', engines: ['searxng'], include_content: true, content_results: 2 };
    const res = await api.post('/api/search', { ...base, content_mode: 'passages', max_passage_chars: 200 });
    expect(res.status).toBe(200);
    const json = (await res.json()) as any;
    for (const r of json.results.slice(0, 2)) {
      expect(r.passages.reduce((n: number, p: any) => n + p.text.length, 0)).toBeLessThanOrEqual(200);
      expect(r.passages.map((p: any) => p.text).join('\n')).toContain('pier 7');
    }
    const get = await fetch(
      `${api.url}/api/search?q=fishing+permit&engines=searxng&include_content=true&content_results=1&content_mode=passages&max_passage_chars=150`,
    );
    expect(get.status).toBe(200);
    const passages = ((await get.json()) as any).results[0].passages;
    expect(passages.reduce((n: number, p: any) => n + p.text.length, 0)).toBeLessThanOrEqual(150);
  });

  it('takes max_passages from a GET query string, and the same answer on web_search with passages in the text', async () => {
    const get = await fetch(
      `${api.url}/api/search?q=fishing+permit&engines=searxng&include_content=true&content_results=1&content_mode=passages&max_passages=2`,
    );
    expect(get.status).toBe(200);
    const json = (await get.json()) as any;
    expect(json.results[0].passages.length).toBeGreaterThan(0);
    expect(json.results[0].passages.length).toBeLessThanOrEqual(2);

    const { client, close } = await inMemoryMcpClient(api.core);
    try {
      const args = {
        q: 'fishing permit',
        engines: ['searxng'],
        include_content: true,
        content_results: 1,
        content_mode: 'passages',
        max_passages: 2,
      };
      const result = await client.callTool({ name: 'web_search', arguments: args });
      expect(result.isError).toBeFalsy();
      expect(stable(result.structuredContent)).toEqual(stable(json));
      const text = (result.content as { text: string }[])[0]!.text;
      expect(text).toContain('12 euros a day');
      expect(text).toContain('section="Fishing"');
      expect(text).not.toContain('<page_content>');
      const { tools } = await client.listTools();
      expect(tools.find((t) => t.name === 'web_search')!.description).toMatch(/Prefer content_mode="passages"/);
    } finally {
      await close();
    }
  });

  it('never answers a passages search from a cached full one, nor one max_passages from another', async () => {
    const cached = await startTestApi({
      engines: fake.engineConfig,
      search: { duckduckgoIntervalMs: 0, cacheTtlMs: 60_000, engineTimeoutMs: 1500 },
    });
    try {
      const base = { q: 'harbour ferry pier', engines: ['searxng'], include_content: true, content_results: 1 };
      const ask = async (extra: Record<string, unknown>) =>
        (await (await cached.post('/api/search', { ...base, ...extra })).json()) as any;
      expect((await ask({})).results[0].content).toContain('pier 7');
      const three = await ask({ content_mode: 'passages' });
      expect(three.metadata.from_cache).toBe(false);
      expect(three.results[0]).not.toHaveProperty('content');
      expect(three.results[0].passages.length).toBeGreaterThan(1);
      const one = await ask({ content_mode: 'passages', max_passages: 1 });
      expect(one.metadata.from_cache).toBe(false);
      expect(one.results[0].passages).toHaveLength(1);
      const again = await ask({ content_mode: 'passages', max_passages: 1 });
      expect(again.metadata.from_cache).toBe(true);
      expect(again.results).toEqual(one.results);
    } finally {
      await cached.close();
    }
  });

  it('refuses content_mode "passages" without include_content, and max_passages without it, by path', async () => {
    const a = await api.post('/api/search', { q: 'x', content_mode: 'passages' });
    expect(a.status).toBe(400);
    expect(((await a.json()) as any).error.details.map((d: { path: string }) => d.path)).toContain('content_mode');
    const b = await api.post('/api/search', { q: 'x', include_content: true, max_passages: 2 });
    expect(b.status).toBe(400);
    expect(((await b.json()) as any).error.details.map((d: { path: string }) => d.path)).toContain('max_passages');
    const c = await api.post('/api/search', { q: 'x', include_content: true, max_passage_chars: 900 });
    expect(c.status).toBe(400);
    expect(((await c.json()) as any).error.details.map((d: { path: string }) => d.path)).toContain('max_passage_chars');
  });
});

describe('the library', () => {
  it('takes query as the API does', async () => {
    const web = createWebSearch({
      env: {},
      config: { store: { path: ':memory:' }, fetch: { allowPrivateAddresses: true } },
    });
    try {
      const answer = await web.extract({ urls: [guide()], query: 'fishing permit price', max_passages: 1 });
      expect(answer.results[0]?.passages?.[0]?.text).toContain('12 euros a day');
    } finally {
      await web.close();
    }
  });
});
