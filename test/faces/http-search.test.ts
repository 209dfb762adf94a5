/**
 * GET and POST /api/search and the `web_search` MCP tool end to end: the real server,
 * with every engine pointed at fake engine servers speaking the real wire formats.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { searchResponseSchema } from '../../src/core/schemas.js';
import type { FakeEngines } from '../helpers/fake-engines.js';
import { startFakeEngines } from '../helpers/fake-engines.js';
import { startFixtureSite } from '../helpers/fixture-site.js';
import type { TestApi } from '../helpers/test-server.js';
import { inMemoryMcpClient, startTestApi } from '../helpers/test-server.js';

let fake: FakeEngines;
let api: TestApi;

const searchSettings = { duckduckgoIntervalMs: 0, cacheTtlMs: 0, engineTimeoutMs: 1500 };

beforeAll(async () => {
  fake = await startFakeEngines();
  api = await startTestApi({ engines: fake.engineConfig, search: searchSettings, fetch: { perHostConcurrency: 64 } });
});
afterAll(async () => {
  await api?.close();
  await fake?.close();
});
beforeEach(() => {
  for (const engine of ['duckduckgo', 'wikipedia', 'mojeek', 'brave', 'searxng', 'google'] as const)
    fake.setScenario(engine, 'results');
});

async function get(query: string) {
  const res = await fetch(`${api.url}/api/search?${query}`);
  return { status: res.status, json: (await res.json()) as any };
}

async function post(body: unknown) {
  const res = await api.post('/api/search', body);
  return { status: res.status, json: (await res.json()) as any };
}

/** Fields that differ between two runs of the same search. */
function stable(response: any) {
  return { ...response, id: '', metadata: { ...response.metadata, response_time: 0, timestamp: '' } };
}

describe('/api/search', () => {
  it('answers a GET with fused results from every configured engine', async () => {
    const { status, json } = await get('q=rust+ownership');
    expect(status).toBe(200);
    expect(searchResponseSchema.parse(json)).toBeTruthy();
    expect(json.id).toMatch(/^srch_[0-9A-HJKMNP-TV-Z]{26}$/);
    expect(json.query).toBe('rust ownership');
    expect(json.engines).toEqual(['duckduckgo', 'wikipedia', 'mojeek', 'brave', 'searxng', 'google']);
    expect(json.results.length).toBeGreaterThan(0);
    expect(json.results.length).toBeLessThanOrEqual(10);
    expect(json.results.map((r: { position: number }) => r.position)).toEqual(
      json.results.map((_: unknown, i: number) => i + 1),
    );
    for (const r of json.results) {
      expect(r).not.toHaveProperty('content');
      expect(r).not.toHaveProperty('content_error');
      expect(json.engines).toContain(r.engine);
    }
    expect(json.metadata).toMatchObject({
      status: 'success',
      credits_used: 1,
      from_cache: false,
      number_of_results: json.results.length,
    });
    expect(json.metadata).not.toHaveProperty('content_requested');
  });

  it('coerces query-string booleans, integers and lists', async () => {
    // Result pages on a closed local port: their content fails fast and honestly.
    const results = [1, 2, 3, 4].map((n) => ({
      url: `http://127.0.0.1:1/page-${n}`,
      title: `Page ${n}`,
      content: `Snippet ${n}`,
      engine: 'x',
      template: 'default.html',
    }));
    fake.setScenario('searxng', {
      body: {
        query: 'test',
        results,
        answers: [],
        suggestions: [],
        infoboxes: [],
        corrections: [],
        unresponsive_engines: [],
      },
    });
    const { status, json } = await get(
      'q=test&max_results=3&engines=searxng,wikipedia&include_content=true&content_results=2',
    );
    expect(status).toBe(200);
    expect(json.engines).toEqual(['wikipedia', 'searxng']);
    expect(json.results).toHaveLength(3);
    expect(json.metadata).toMatchObject({ content_requested: 2, content_delivered: 0, credits_used: 1 });
    for (const r of json.results.slice(0, 2)) expect(r.content_error, r.url).toBe('network_error');
    for (const r of json.results.slice(2)) {
      expect(r).not.toHaveProperty('content');
      expect(r).not.toHaveProperty('content_error');
    }
  });

  it('answers a POST with the same shape', async () => {
    const { status, json } = await post({ q: 'test', engines: ['wikipedia'], max_results: 2 });
    expect(status).toBe(200);
    expect(json.engines).toEqual(['wikipedia']);
    expect(json.results.length).toBeLessThanOrEqual(2);
  });

  it('reports bad parameters with their paths', async () => {
    const empty = await get('q=%20%20');
    expect(empty.status).toBe(400);
    expect(empty.json.error.details[0].path).toBe('q');
    const bad = await get('q=x&max_results=abc&safesearch=none&engines=bing');
    expect(bad.status).toBe(400);
    expect(bad.json.error.details.map((d: { path: string }) => d.path)).toEqual(
      expect.arrayContaining(['max_results', 'safesearch', 'engines.0']),
    );
    const body = await post({ q: 'x'.repeat(401), content_results: 11, country: 'USA' });
    expect(body.status).toBe(400);
    expect(body.json.error.details.map((d: { path: string }) => d.path)).toEqual(
      expect.arrayContaining(['q', 'content_results', 'country']),
    );
    const missing = await post({});
    expect(missing.status).toBe(400);
    expect(missing.json.error.details[0].path).toBe('q');
  });

  it('says when a requested engine is not configured', async () => {
    const keyless = await startTestApi({
      engines: { ...fake.engineConfig, braveApiKey: undefined, searxngUrl: undefined },
      search: searchSettings,
    });
    try {
      const res = await keyless.post('/api/search', { q: 'x', engines: ['duckduckgo', 'brave'] });
      expect(res.status).toBe(400);
      const json = (await res.json()) as any;
      expect(json.error.details[0]).toMatchObject({ path: 'engines.1' });
      expect(json.error.details[0].message).toMatch(/BRAVE_API_KEY/);
    } finally {
      await keyless.close();
    }
  });

  it('reports partial results when an engine fails and 502 when every engine fails', async () => {
    fake.setScenario('google', 'server_error');
    const partial = await post({ q: 'test', engines: ['google', 'searxng'] });
    expect(partial.status).toBe(200);
    expect(partial.json.metadata.status).toBe('partial');
    expect(partial.json.metadata.failed_engines[0]).toMatchObject({ engine: 'google', error: 'http' });

    fake.setScenario('searxng', 'malformed');
    const none = await post({ q: 'test', engines: ['google', 'searxng'] });
    expect(none.status).toBe(502);
    expect(none.json.error.code).toBe('engines_unavailable');
    expect(none.json.error.message).toMatch(/google/);
  });

  it('answers no_results at 0 credits', async () => {
    fake.setScenario('wikipedia', 'no_results');
    const { status, json } = await post({ q: 'nothing at all', engines: ['wikipedia'] });
    expect(status).toBe(200);
    expect(json.results).toEqual([]);
    expect(json.metadata).toMatchObject({ status: 'no_results', credits_used: 0, number_of_results: 0 });
  });

  it('refuses other methods with 405', async () => {
    const res = await fetch(`${api.url}/api/search`, { method: 'DELETE' });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('GET, POST');
  });
});

describe('web_search over MCP', () => {
  it('returns structuredContent identical to the HTTP JSON, with a Markdown text block', async () => {
    const { client, close } = await inMemoryMcpClient(api.core);
    try {
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toEqual([
        'web_search',
        'extract_urls',
        'map_site',
        'crawl_site',
        'crawl_status',
      ]);
      const args = { q: 'test query', engines: ['searxng', 'wikipedia'], max_results: 5 };
      const result = await client.callTool({ name: 'web_search', arguments: args });
      expect(result.isError).toBeFalsy();
      const http = await post(args);
      expect(stable(result.structuredContent)).toEqual(stable(http.json));
      const text = (result.content as { text: string }[])[0]!.text;
      expect(text).toMatch(/^Search: "test query"/);
      expect(text).toMatch(/^\*\*1\. \[/m);
      expect(text).not.toMatch(/^#/m);

      fake.setScenario('wikipedia', 'server_error');
      const failed = await client.callTool({ name: 'web_search', arguments: { q: 'x', engines: ['wikipedia'] } });
      expect(failed.isError).toBe(true);
      expect((failed.content as { text: string }[])[0]!.text).toMatch(/^engines_unavailable: /);

      const invalid = await client.callTool({ name: 'web_search', arguments: { q: '' } });
      expect((invalid.content as { text: string }[])[0]!.text).toMatch(/^invalid_request: .*\n- q: /s);
    } finally {
      await close();
    }
  });
});

describe('a cached web_search answer is the fresh answer over MCP', () => {
  it('has the same page contents, the same budget cut and the same offsets', async () => {
    const long = Array.from({ length: 3000 }, (_, i) => `Line ${i + 1}: the tide tables for the harbour.`).join('\n');
    const site = await startFixtureSite({
      scenarios: [
        {
          path: '/tides',
          description: 'long text',
          handle: ({ res }) => void res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' }).end(long),
        },
      ],
    });
    const cachedApi = await startTestApi({
      engines: fake.engineConfig,
      search: { ...searchSettings, cacheTtlMs: 60_000 },
      mcp: { outputBudgetChars: 12_000 },
    });
    const results = [1, 2].map((n) => ({
      url: `${site.origin}/tides?n=${n}`,
      title: `Tides ${n}`,
      content: `Snippet ${n}`,
      engine: 'x',
      template: 'default.html',
    }));
    fake.setScenario('searxng', {
      body: {
        query: 'tides',
        results,
        answers: [],
        suggestions: [],
        infoboxes: [],
        corrections: [],
        unresponsive_engines: [],
      },
    });
    const { client, close } = await inMemoryMcpClient(cachedApi.core);
    try {
      const args = { q: 'tides', engines: ['searxng'], include_content: true, content_results: 2 };
      const fresh = await client.callTool({ name: 'web_search', arguments: args });
      const cached = await client.callTool({ name: 'web_search', arguments: args });
      const [f, c] = [fresh.structuredContent as any, cached.structuredContent as any];
      expect(f.metadata).toMatchObject({ from_cache: false, content_delivered: 2 });
      expect(c.metadata).toMatchObject({ from_cache: true, credits_used: 0 });
      expect(f.results[0].content_next_start_char).toBeGreaterThan(0);
      expect(c.results).toEqual(f.results);
      const text = (r: typeof fresh) => (r.content as { text: string }[])[0]!.text;
      const body = (t: string) => t.split('\n').filter((line) => !line.startsWith('Search: '));
      expect(body(text(cached))).toEqual(body(text(fresh)));
      expect(text(cached).length).toBeLessThanOrEqual(12_000);
    } finally {
      await close();
      await cachedApi.close();
      await site.close();
    }
  });
});

describe('websearch-mcp search', () => {
  it('prints the response object with --json and Markdown without', async () => {
    const cli = fileURLToPath(new URL('../../dist/cli.js', import.meta.url));
    const env: Record<string, string> = {
      ...(process.env as Record<string, string>),
      WEBSEARCH_LOG_LEVEL: 'silent',
      WEBSEARCH_DUCKDUCKGO_INTERVAL_MS: '0',
      SEARXNG_URL: fake.engineConfig.searxngUrl as string,
      WIKIPEDIA_URL: fake.engineConfig.wikipediaUrl as string,
    };
    const run = (args: string[]) =>
      new Promise<{ code: number | null; stdout: string }>((resolve) => {
        const child = spawn(process.execPath, [cli, 'search', ...args], { env });
        let stdout = '';
        child.stdout.on('data', (d) => (stdout += d));
        child.on('close', (code) => resolve({ code, stdout }));
      });
    const json = await run(['test', 'query', '--engines', 'searxng,wikipedia', '--json']);
    expect(json.code).toBe(0);
    const printed = JSON.parse(json.stdout);
    expect(searchResponseSchema.parse(printed)).toBeTruthy();
    expect(printed.query).toBe('test query');
    expect(printed.engines).toEqual(['wikipedia', 'searxng']);
    const md = await run(['test', '--engines', 'searxng']);
    expect(md.code).toBe(0);
    expect(md.stdout).toMatch(/^Search: "test"/);
  });
});
