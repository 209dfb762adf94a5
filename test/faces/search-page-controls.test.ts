/**
 * include_comments and include_structured_data on every search face, end to end: the real
 * server, the engines at fake engine servers, result pages on the fixture site. GET and POST
 * /api/search (the comments section in `content`, `structured_data` on the results, passages
 * from the comments), the 400s naming the field without include_content, the options in the
 * search's cache key, web_search (structured result, text, output budget) and the command
 * line's flags.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { SearchRequest, SearchResponse } from '../../src/core/schemas.js';
import { searchRequestSchema, searchResponseSchema } from '../../src/core/schemas.js';
import { budgetSearch } from '../../src/faces/mcp/output-budget.js';
import { renderSearchMarkdown } from '../../src/faces/mcp/tools/render-search-markdown.js';
import { searchCacheKey } from '../../src/services/search/search-service.js';
import { spawnedServerEnv, startFakeEngines, type FakeEngines } from '../helpers/fake-engines.js';
import { send } from '../helpers/fixture-scenarios.js';
import { startFixtureSite, type FixtureSite } from '../helpers/fixture-site.js';
import { COMMENTS, STORY, STORY_HTML } from '../helpers/harbour-story.js';
import { runCli } from '../helpers/spawn-cli.js';
import { inMemoryMcpClient, startTestApi, type TestApi } from '../helpers/test-server.js';

let fake: FakeEngines;
let site: FixtureSite;
let api: TestApi;

beforeAll(async () => {
  [fake, site] = await Promise.all([
    startFakeEngines(),
    startFixtureSite({
      scenarios: [
        {
          path: '/sd/story',
          description: 'a story with JSON-LD, Open Graph and comments',
          handle: (ctx) => send(ctx.res, 200, 'text/html; charset=utf-8', STORY_HTML),
        },
      ],
    }),
  ]);
  // The search cache on, as on a server: a test that must not meet another's answer asks its own query.
  api = await startTestApi({
    engines: fake.engineConfig,
    search: { duckduckgoIntervalMs: 0, cacheTtlMs: 60_000, engineTimeoutMs: 1500 },
    fetch: { perHostConcurrency: 64 },
  });
});
afterAll(async () => {
  await api?.close();
  await fake?.close();
  await site?.close();
});

/** Every result page is the story, under its own query string (each a page of its own in the page cache). */
function storyResults(tag: string, n = 1): void {
  const results = Array.from({ length: n }, (_, i) => ({
    url: `${site.origin}/sd/story?${tag}=${i + 1}`,
    title: `North pier ${i + 1}`,
    content: 'The harbour board voted to rebuild the north pier.',
  }));
  fake.setScenario('searxng', { body: { query: tag, results } });
}
beforeEach(() => storyResults('default'));

async function search(body: Record<string, unknown>): Promise<{ status: number; json: any }> {
  const res = await api.post('/api/search', { engines: ['searxng'], ...body });
  return { status: res.status, json: await res.json() };
}

const detailPaths = (json: any): string[] => json.error.details.map((d: { path: string }) => d.path);

describe('include_comments', () => {
  it('adds the "## Comments" section to the content; left out without it', async () => {
    storyResults('comments');
    const plain = await search({ q: 'north pier comments', include_content: true, content_results: 1 });
    expect(plain.status).toBe(200);
    const content: string = plain.json.results[0].content;
    expect(content).toContain(STORY[2]);
    expect(content).not.toContain('## Comments');
    for (const [, , text] of COMMENTS) expect(content).not.toContain(text);
    expect(plain.json.results[0]).not.toHaveProperty('structured_data');

    const asked = await search({
      q: 'north pier comments',
      include_content: true,
      content_results: 1,
      include_comments: true,
    });
    expect(asked.status).toBe(200);
    expect(searchResponseSchema.parse(asked.json)).toBeTruthy();
    expect(asked.json.metadata).toMatchObject({ content_requested: 1, content_delivered: 1 });
    const withComments: string = asked.json.results[0].content;
    // The same section as the extractor writes for /api/crawl, after the same content.
    expect(withComments.startsWith(content)).toBe(true);
    const section = withComments.slice(content.length);
    expect(section.startsWith('\n\n## Comments\n\n')).toBe(true);
    for (const [name, date, text] of COMMENTS) expect(section).toContain(`**${name}** · ${date}\n\n${text}`);
    const crawled = await api.crawl({ urls: [asked.json.results[0].url], include_comments: true });
    expect(crawled.json.results[0].markdown).toBe(withComments);
  });

  it('with content_mode "passages": the passages may come from the comments, as an extraction with a query', async () => {
    storyResults('passages');
    const q = 'room for visiting yachts at the south quay';
    const without = await search({ q, include_content: true, content_results: 1, content_mode: 'passages' });
    expect(without.status).toBe(200);
    const texts = (json: any): string[] => json.results[0].passages.map((p: { text: string }) => p.text);
    expect(texts(without.json).join('\n')).not.toContain('visiting yachts');
    const asked = await search({
      q,
      include_content: true,
      content_results: 1,
      content_mode: 'passages',
      include_comments: true,
    });
    expect(asked.status).toBe(200);
    expect(asked.json.results[0]).not.toHaveProperty('content');
    expect(texts(asked.json).join('\n')).toContain('visiting yachts');
  });
});

describe('include_structured_data', () => {
  it("gives each result with content its page's structured_data, as /api/crawl does (GET and POST)", async () => {
    storyResults('structured', 2);
    const { status, json } = await search({
      q: 'north pier structured',
      include_content: true,
      content_results: 1,
      include_structured_data: true,
    });
    expect(status).toBe(200);
    expect(searchResponseSchema.parse(json)).toBeTruthy();
    const data = json.results[0].structured_data;
    expect(data.items[0]).toMatchObject({
      type: 'NewsArticle',
      sources: ['json-ld'],
      headline: 'North pier to be rebuilt in stone',
      authors: [{ name: 'Ada Quill' }],
    });
    expect(data.open_graph).toMatchObject({ title: 'North pier to be rebuilt in stone', type: 'article' });
    const crawled = await api.crawl({ urls: [json.results[0].url], include_structured_data: true });
    expect(data).toEqual(crawled.json.results[0].structured_data);
    // A result without content has none.
    expect(json.results[1]).not.toHaveProperty('structured_data');
    expect(json.results[1]).not.toHaveProperty('content');
    // The comments stay out unless asked for.
    expect(json.results[0].content).not.toContain('## Comments');

    const res = await fetch(
      `${api.url}/api/search?q=north+pier+structured+get&engines=searxng&include_content=true&content_results=1&include_structured_data=true&include_comments=true`,
    );
    expect(res.status).toBe(200);
    const got = (await res.json()) as any;
    expect(got.results[0].structured_data.items[0].type).toBe('NewsArticle');
    expect(got.results[0].content).toContain('## Comments');
  });
});

describe('without include_content', () => {
  it('each option is a 400 naming its path (POST and GET)', async () => {
    const one = await search({ q: 'x', include_comments: true });
    expect(one.status).toBe(400);
    expect(one.json.error.code).toBe('invalid_request');
    expect(detailPaths(one.json)).toEqual(['include_comments']);
    expect(one.json.error.details[0].message).toBe('include_comments needs include_content: true');
    const both = await search({
      q: 'x',
      include_content: false,
      include_comments: true,
      include_structured_data: true,
    });
    expect(both.status).toBe(400);
    expect(detailPaths(both.json)).toEqual(['include_comments', 'include_structured_data']);
    const res = await fetch(`${api.url}/api/search?q=x&include_structured_data=true`);
    expect(res.status).toBe(400);
    expect(detailPaths(await res.json())).toEqual(['include_structured_data']);
    const notBoolean = await search({ q: 'x', include_content: true, include_comments: 'yes' });
    expect(notBoolean.status).toBe(400);
    expect(detailPaths(notBoolean.json)).toEqual(['include_comments']);
  });

  it('false asks for nothing, and is no mistake', () => {
    expect(searchRequestSchema.safeParse({ q: 'x', include_comments: false }).success).toBe(true);
  });
});

describe('the search cache', () => {
  it('never answers a request with comments or structured data with an answer without them', async () => {
    storyResults('cache');
    const base = { q: 'north pier cache', include_content: true, content_results: 1 };
    const plain = await search(base);
    expect(plain.json.metadata.from_cache).toBe(false);
    expect(plain.json.results[0].content).not.toContain('## Comments');
    expect((await search(base)).json.metadata.from_cache).toBe(true);

    const comments = await search({ ...base, include_comments: true });
    expect(comments.json.metadata.from_cache).toBe(false);
    expect(comments.json.results[0].content).toContain('## Comments');
    const data = await search({ ...base, include_structured_data: true });
    expect(data.json.metadata.from_cache).toBe(false);
    expect(data.json.results[0].structured_data.items[0].type).toBe('NewsArticle');
    expect(data.json.results[0].content).not.toContain('## Comments');

    const again = await search({ ...base, include_comments: true });
    expect(again.json.metadata).toMatchObject({ from_cache: true, credits_used: 0 });
    expect(again.json.results[0].content).toBe(comments.json.results[0].content);
    const dataAgain = await search({ ...base, include_structured_data: true });
    expect(dataAgain.json.metadata.from_cache).toBe(true);
    expect(dataAgain.json.results[0].structured_data).toEqual(data.json.results[0].structured_data);
    // And the plain answer stays the plain one.
    const plainAgain = await search(base);
    expect(plainAgain.json.metadata.from_cache).toBe(true);
    expect(plainAgain.json.results[0]).not.toHaveProperty('structured_data');
    expect(plainAgain.json.results[0].content).toBe(plain.json.results[0].content);
  });

  it('keys: the options count with content only, and a search without them keeps its key', () => {
    const request = (body: Record<string, unknown>): SearchRequest => searchRequestSchema.parse({ q: 'q', ...body });
    const key = (body: Record<string, unknown>) => searchCacheKey(request(body), ['searxng']);
    const content = key({ include_content: true });
    expect(key({ include_content: true, include_comments: false })).toBe(content);
    const variants = [
      key({ include_content: true, include_comments: true }),
      key({ include_content: true, include_structured_data: true }),
      key({ include_content: true, include_comments: true, include_structured_data: true }),
    ];
    expect(new Set([content, ...variants]).size).toBe(4);
  });
});

describe('web_search', () => {
  it('returns structured_data in the structured result and shows it, and the comments, in the text', async () => {
    storyResults('mcp');
    const mcp = await inMemoryMcpClient(api.core);
    try {
      const result = await mcp.client.callTool({
        name: 'web_search',
        arguments: {
          q: 'north pier mcp',
          engines: ['searxng'],
          include_content: true,
          content_results: 1,
          include_comments: true,
          include_structured_data: true,
        },
      });
      expect(result.isError).toBeFalsy();
      const structured = result.structuredContent as SearchResponse;
      expect(structured.results[0]?.structured_data?.items[0]?.type).toBe('NewsArticle');
      expect(structured.results[0]?.content).toContain('## Comments');
      const text = (result.content as { type: string; text: string }[])[0]?.text ?? '';
      expect(text).toContain('<structured_data>');
      expect(text).toContain('"headline": "North pier to be rebuilt in stone"');
      expect(text).toContain('## Comments');
      expect(text).toContain(COMMENTS[0]![2]);

      const tools = await mcp.client.listTools();
      const tool = tools.tools.find((t) => t.name === 'web_search')!;
      expect(Object.keys(tool.inputSchema.properties ?? {})).toEqual(
        expect.arrayContaining(['include_comments', 'include_structured_data']),
      );
      expect(tool.description).toMatch(/include_comments/);
      expect(tool.description).toMatch(/include_structured_data/);

      const refused = await mcp.client.callTool({ name: 'web_search', arguments: { q: 'x', include_comments: true } });
      expect(refused.isError).toBe(true);
      expect((refused.content as { text: string }[])[0]?.text).toMatch(
        /^invalid_request: [\s\S]*- include_comments: include_comments needs include_content: true/,
      );
    } finally {
      await mcp.close();
    }
  });
});

describe('web_search output budget', () => {
  const page = (n: number, items: number, content: string): SearchResponse['results'][number] => ({
    title: `Page ${n}`,
    url: `https://example.com/${n}`,
    snippet: 'snippet',
    position: n,
    engine: 'searxng',
    engines: ['searxng'],
    content,
    structured_data: {
      items: Array.from({ length: items }, (_, i) => ({ type: 'Thing', sources: ['json-ld'], name: `item ${i}` })),
    },
  });
  const response = (results: SearchResponse['results']): SearchResponse => ({
    id: 'srch_x',
    query: 'q',
    engines: ['searxng'],
    results,
    metadata: {
      number_of_results: results.length,
      credits_used: 2,
      from_cache: false,
      status: 'success',
      response_time: 0,
      timestamp: '',
      content_requested: results.length,
      content_delivered: results.length,
    },
  });

  it('holds structured data to a quarter of the budget, by whole items, saying so', () => {
    const args = { q: 'q', include_content: true, include_structured_data: true };
    const render = (r: SearchResponse) => renderSearchMarkdown(r, args);
    const whole = response([page(1, 300, 'Short page.'), page(2, 2, 'Another short page.')]);
    const { result, cut } = budgetSearch(whole, 8_000, render);
    expect(cut).toBe(1);
    const data = result.results[0]!.structured_data!;
    expect(data.truncated).toBe(true);
    expect(data.items.length).toBeGreaterThan(0);
    expect(data.items.length).toBeLessThan(300);
    expect(data.notes?.at(-1)).toMatch(/POST \/api\/search returns it whole/);
    expect(JSON.stringify(data).length).toBeLessThanOrEqual(8_000 / 4);
    expect(result.results[1]).toBe(whole.results[1]);
    expect(render(result).length).toBeLessThanOrEqual(8_000);
  });

  it('ends on a budget too small for even a cut note, and the read-on call repeats include_comments', () => {
    const args = { q: 'q', include_content: true, include_comments: true, include_structured_data: true };
    const render = (r: SearchResponse) => renderSearchMarkdown(r, args);
    const whole = response(Array.from({ length: 10 }, (_, i) => page(i + 1, 20, 'word '.repeat(2_000))));
    const { result, cut } = budgetSearch(whole, 3_000, render);
    expect(cut).toBe(10);
    const text = render(result);
    expect(text).toMatch(
      /call extract_urls with \{"urls":\["https:\/\/example\.com\/1"\],"include_comments":true,"start_char":\d+/,
    );
  });
});

describe('websearch-mcp search', () => {
  const run = (args: string[]) => runCli(['search', ...args], spawnedServerEnv(fake));

  it('--include-comments and --include-structured-data ask for them, in Markdown and with --json', async () => {
    storyResults('cli');
    const flags = ['--engines', 'searxng', '--content', '--content-results', '1'];
    const md = await run(['north', 'pier', ...flags, '--include-comments', '--include-structured-data']);
    expect(md.code, md.stderr).toBe(0);
    expect(md.stdout).toContain('## Comments');
    expect(md.stdout).toContain(COMMENTS[3]![2]);
    expect(md.stdout).toContain('<structured_data>');
    const json = await run(['north', 'pier', ...flags, '--include-structured-data', '--json']);
    expect(json.code, json.stderr).toBe(0);
    const printed = JSON.parse(json.stdout);
    expect(printed.results[0].structured_data.items[0].type).toBe('NewsArticle');
    expect(printed.results[0].content).not.toContain('## Comments');
    // On/off as extract's: negated, or with false.
    const off = await run([
      'north',
      'pier',
      ...flags,
      '--no-include-comments',
      '--include-structured-data',
      'false',
      '--json',
    ]);
    expect(off.code, off.stderr).toBe(0);
    expect(JSON.parse(off.stdout).results[0]).not.toHaveProperty('structured_data');
  });

  it("without --content is the API's invalid_request naming the field, exit 2", async () => {
    const out = await run(['x', '--engines', 'searxng', '--include-comments', '--json']);
    expect(out.code).toBe(2);
    expect(JSON.parse(out.stdout)).toMatchObject({
      error: { code: 'invalid_request', details: [{ path: 'include_comments' }] },
    });
  });

  it('names both flags in its help', async () => {
    const out = await run(['--help']);
    expect(out.code).toBe(0);
    expect(out.stdout).toMatch(/--include-comments\s+with --content/);
    expect(out.stdout).toMatch(/--include-structured-data\n\s+with --content/);
  });
});
