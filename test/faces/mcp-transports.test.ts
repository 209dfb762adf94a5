/**
 * Both tools through the SDK Client over EVERY transport the server offers: stdio (the
 * spawned binary), Streamable HTTP with sessions, Streamable HTTP stateless (a fresh
 * server per POST, no Mcp-Session-Id) and the legacy HTTP+SSE transport (GET /sse +
 * POST /messages). On each: the tool list (outputSchema, annotations), both tools called
 * (web_search against the fake engines, extract_urls against the fixture site), the
 * structuredContent validated against the advertised outputSchema (ajv, JSON Schema
 * 2020-12, the dialect zod emits) and against the zod schemas, and progress
 * notifications of web_search with include_content.
 *
 * Then the wire contracts a client library hides: the stateless mode checked with raw
 * fetch (every request self-contained, as behind a load balancer), and the legacy SSE
 * stream read by hand (the `endpoint` event, session cleanup, the host guard).
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { LATEST_PROTOCOL_VERSION } from '@modelcontextprotocol/sdk/types.js';
// ajv is CommonJS: under Node ESM the default import is `module.exports` (the class or
// plugin function itself, which also carries `.default` pointing at itself), while TS
// with NodeNext types the default import as the whole module. The named class export
// and `.default` of the plugin are right for both.
import { Ajv2020 } from 'ajv/dist/2020.js';
import ajvFormats from 'ajv-formats';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { extractResponseSchema, searchResponseSchema } from '../../src/core/schemas.js';
import type { FakeEngines } from '../helpers/fake-engines.js';
import { spawnedServerEnv, startFakeEngines } from '../helpers/fake-engines.js';
import type { FixtureSite, Scenario } from '../helpers/fixture-site.js';
import { startFixtureSite } from '../helpers/fixture-site.js';
import type { TestApi } from '../helpers/test-server.js';
import { startTestApi } from '../helpers/test-server.js';

const CLI = fileURLToPath(new URL('../../dist/cli.js', import.meta.url));
const ENGINES = ['duckduckgo', 'wikipedia', 'mojeek', 'brave', 'searxng', 'google'] as const;
const searchSettings = { duckduckgoIntervalMs: 0, cacheTtlMs: 0, braveRatePerSecond: 1000 };

let fake: FakeEngines;
let site: FixtureSite;
/** Connections to /never that the server closed (an aborted fetch). */
let neverClosed = 0;
const never: Scenario = {
  path: '/never',
  description: 'headers and a first chunk, then silence; counts closed connections',
  handle: (c) => {
    c.res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    c.res.write('<!doctype html><title>stalled</title>');
    c.onClose(() => (neverClosed += 1));
  },
};
/** Sessions on /mcp, plus /sse. */
let api: TestApi;
/** `mcp.stateless`: /mcp without sessions. */
let stateless: TestApi;

beforeAll(async () => {
  [fake, site] = await Promise.all([startFakeEngines(), startFixtureSite({ scenarios: [never] })]);
  const overrides = {
    engines: fake.engineConfig,
    search: searchSettings,
    fetch: { perHostConcurrency: 64 },
    cache: { ttlMs: 0 },
  };
  [api, stateless] = await Promise.all([
    startTestApi(overrides),
    startTestApi({ ...overrides, mcp: { stateless: true } }),
  ]);
});
afterAll(async () => {
  await Promise.all([api?.close(), stateless?.close()]);
  await Promise.all([fake?.close(), site?.close()]);
});
beforeEach(() => {
  for (const engine of ENGINES) fake.setScenario(engine, 'results');
});

// ------------------------------------------------------------------ JSON Schema validation

const addFormats = ajvFormats.default;

/** Compiles a tool's advertised outputSchema; strict mode refuses unknown keywords. */
function compileOutputSchema(tool: Tool) {
  const ajv = new Ajv2020({ strict: true, allErrors: true });
  addFormats(ajv);
  expect(tool.outputSchema, `${tool.name} advertises an outputSchema`).toBeDefined();
  return ajv.compile(tool.outputSchema as object);
}

function expectValid(tool: Tool, structured: unknown, zodSchema: z.ZodType): void {
  const validate = compileOutputSchema(tool);
  const ok = validate(structured);
  expect(validate.errors ?? [], `${tool.name} structuredContent against its outputSchema`).toEqual([]);
  expect(ok).toBe(true);
  // The schema is not vacuous: the same object without its metadata fails it.
  const { metadata: _metadata, ...withoutMetadata } = structured as Record<string, unknown>;
  expect(validate(withoutMetadata)).toBe(false);
  // zod strips unknown keys: equality means the object has nothing the spec does not name.
  expect(zodSchema.parse(structured)).toEqual(structured);
}

// ------------------------------------------------------------------ the transports

interface Target {
  name: string;
  /** The Streamable HTTP session id the transport must (true) or must not (false) hold. */
  session?: boolean;
  transport(): Transport;
}

const TARGETS: Target[] = [
  {
    name: 'stdio (spawned dist/cli.js)',
    transport: () =>
      new StdioClientTransport({ command: process.execPath, args: [CLI], env: spawnedServerEnv(fake), stderr: 'pipe' }),
  },
  {
    name: 'Streamable HTTP with sessions (/mcp)',
    session: true,
    transport: () => new StreamableHTTPClientTransport(new URL(`${api.url}/mcp`)),
  },
  {
    name: 'Streamable HTTP stateless (/mcp, mcp.stateless)',
    session: false,
    transport: () => new StreamableHTTPClientTransport(new URL(`${stateless.url}/mcp`)),
  },
  {
    name: 'legacy HTTP+SSE (/sse)',
    transport: () => new SSEClientTransport(new URL(`${api.url}/sse`)),
  },
];

/** Fields that differ between two runs of the same request. */
function stableSearch(response: any) {
  return { ...response, id: '', metadata: { ...response.metadata, response_time: 0, timestamp: '' } };
}
function stableExtract(response: any) {
  return {
    ...response,
    // cached_at: when each call fetched its page.
    results: response.results.map(({ cached_at: _fetchedAt, ...result }: any) => result),
    metadata: { ...response.metadata, response_time: 0, timestamp: '' },
  };
}

/** SearXNG answering with result URLs on the fixture site, so include_content fetches real pages. */
function searxngPointingAtSite(paths: string[]): void {
  const results = paths.map((path, i) => ({
    url: `${site.origin}${path}`,
    title: `Fixture page ${i + 1}`,
    content: `Snippet of fixture page ${i + 1}`,
    engine: 'fixture',
    template: 'default.html',
  }));
  fake.setScenario('searxng', {
    body: {
      query: 'fixture pages',
      results,
      answers: [],
      suggestions: [],
      infoboxes: [],
      corrections: [],
      unresponsive_engines: [],
    },
  });
}

describe.each(TARGETS)('over $name', (target) => {
  let client: Client;
  let transport: Transport;
  let tools: Tool[];
  const toolNamed = (name: string): Tool => {
    const tool = tools.find((t) => t.name === name);
    expect(tool, name).toBeDefined();
    return tool as Tool;
  };

  beforeAll(async () => {
    if (target.name.startsWith('stdio'))
      expect(existsSync(CLI), 'dist/cli.js is built by `npm run build` (pretest)').toBe(true);
    transport = target.transport();
    client = new Client({ name: 'transport-test', version: '1.0.0' });
    await client.connect(transport);
    tools = (await client.listTools()).tools;
  });
  afterAll(async () => {
    await client?.close();
  });

  it('connects to websearch-mcp (and holds a session id only when the server uses sessions)', () => {
    expect(client.getServerVersion()?.name).toBe('websearch-mcp');
    expect(client.getServerCapabilities()?.tools).toBeDefined();
    if (target.session === true) expect((transport as StreamableHTTPClientTransport).sessionId).toMatch(/^[\w-]{8,}$/);
    if (target.session === false) expect((transport as StreamableHTTPClientTransport).sessionId).toBeUndefined();
  });

  it('lists the tools with input and output schemas and read-only, open-world annotations', () => {
    expect(tools.map((t) => t.name).sort()).toEqual([
      'crawl_site',
      'crawl_status',
      'extract_urls',
      'map_site',
      'web_search',
    ]);
    for (const tool of tools) {
      expect(tool.outputSchema?.type, tool.name).toBe('object');
      expect(tool.annotations, tool.name).toMatchObject({ readOnlyHint: true, openWorldHint: true });
      expect(tool.description, tool.name).toBeTruthy();
      compileOutputSchema(tool);
    }
    expect(toolNamed('web_search').inputSchema.properties).toHaveProperty('q');
    expect(toolNamed('web_search').inputSchema.required).toEqual(['q']);
    expect(toolNamed('extract_urls').inputSchema.properties).toHaveProperty('urls');
  });

  it('calls web_search: results from the fake engines, structuredContent valid and equal to /api/search', async () => {
    const args = { q: 'rust ownership', max_results: 5 };
    const result = await client.callTool({ name: 'web_search', arguments: args });
    expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
    const structured = result.structuredContent as any;
    expectValid(toolNamed('web_search'), structured, searchResponseSchema);
    expect(structured.engines).toEqual([...ENGINES]);
    expect(structured.results).toHaveLength(5);
    expect(structured.metadata).toMatchObject({ status: 'success', credits_used: 1, from_cache: false });
    const text = (result.content as { type: string; text: string }[])[0];
    expect(text?.type).toBe('text');
    expect(text?.text).toContain(structured.results[0].url);

    const http = await api.post('/api/search', args);
    expect(http.status).toBe(200);
    expect(stableSearch(structured)).toEqual(stableSearch(await http.json()));
  });

  it('calls extract_urls: each URL on its own, structuredContent valid and equal to /api/crawl', async () => {
    const args = { urls: [`${site.origin}/html`, `${site.origin}/csv`, `${site.origin}/doc.pdf`] };
    const result = await client.callTool({ name: 'extract_urls', arguments: args });
    expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
    const structured = result.structuredContent as any;
    expectValid(toolNamed('extract_urls'), structured, extractResponseSchema);
    expect(structured.results.map((r: { success: boolean }) => r.success)).toEqual([true, true, false]);
    expect(structured.results[2].error_type).toBe('unsupported_content_type');
    expect(structured.metadata).toMatchObject({
      total_urls: 3,
      successful_crawls: 2,
      failed_crawls: 1,
      credits_used: 2,
    });
    expect((result.content as { text: string }[])[0]?.text).toMatch(/Extracted 2 of 3/);

    const http = await api.crawl(args);
    expect(http.status).toBe(200);
    expect(stableExtract(structured)).toEqual(stableExtract(http.json));
  });

  it('reports web_search page content as progress 1..3 of 3, every notification before the response', async () => {
    searxngPointingAtSite(['/text', '/markdown', '/json']);
    const wire: any[] = [];
    const deliver = transport.onmessage;
    transport.onmessage = (message, extra) => {
      wire.push(message);
      deliver?.(message, extra);
    };
    const seen: { progress: number; total?: number; message?: string }[] = [];
    let result: Awaited<ReturnType<Client['callTool']>>;
    try {
      result = await client.callTool(
        {
          name: 'web_search',
          arguments: { q: 'fixture pages', engines: ['searxng'], include_content: true, content_results: 3 },
        },
        undefined,
        { onprogress: (p) => void seen.push(p) },
      );
    } finally {
      transport.onmessage = deliver;
    }
    expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
    const structured = result.structuredContent as any;
    expectValid(toolNamed('web_search'), structured, searchResponseSchema);
    expect(structured.metadata).toMatchObject({
      status: 'success',
      content_requested: 3,
      content_delivered: 3,
      credits_used: 2,
    });
    for (const r of structured.results) {
      expect(r.url.startsWith(site.origin), r.url).toBe(true);
      expect(r.content?.length, r.url).toBeGreaterThan(0);
      expect(r).not.toHaveProperty('content_error');
    }

    // On the wire: three progress notifications for this call's token, all before its response.
    const answerAt = wire.findIndex((m) => m.id !== undefined && m.result?.structuredContent?.id === structured.id);
    expect(answerAt).toBeGreaterThanOrEqual(0);
    const token = wire[answerAt].id;
    const progress = wire
      .map((m, at) => ({ m, at }))
      .filter(({ m }) => m.method === 'notifications/progress' && m.params?.progressToken === token);
    expect(progress.map(({ m }) => [m.params.progress, m.params.total])).toEqual([
      [1, 3],
      [2, 3],
      [3, 3],
    ]);
    expect(progress.every(({ at }) => at < answerAt)).toBe(true);
    expect(progress.every(({ m }) => String(m.params.message).includes(site.origin))).toBe(true);

    // What the SDK Client hands to onprogress: a prefix of the same. SDK 1.32 defers
    // notification dispatch to a microtask but handles the response synchronously, so
    // progress that arrives in the same chunk as the response is dropped as "unknown
    // token" (modelcontextprotocol/typescript-sdk#2580). The server's order is right.
    expect([1, 2, 3].slice(0, seen.length)).toEqual(seen.map((p) => p.progress));
  });

  it('answers bad arguments with an isError result that starts with invalid_request', async () => {
    const search = await client.callTool({ name: 'web_search', arguments: { q: '', max_results: 99 } });
    expect(search.isError).toBe(true);
    expect((search.content as { text: string }[])[0]?.text).toMatch(/^invalid_request: /);
    const extract = await client.callTool({ name: 'extract_urls', arguments: { urls: [] } });
    expect(extract.isError).toBe(true);
    expect((extract.content as { text: string }[])[0]?.text).toMatch(/^invalid_request: .*urls/s);
  });
});

// ------------------------------------------------------------------ raw wire checks

interface SseEvent {
  event: string;
  data: string;
}

/** Events of a complete text/event-stream body (events without data, e.g. priming ones, dropped). */
function parseSse(text: string): SseEvent[] {
  return text
    .split(/\r?\n\r?\n/)
    .map((block) => {
      let event = 'message';
      const data: string[] = [];
      for (const line of block.split(/\r?\n/)) {
        if (line.startsWith('event:')) event = line.slice(6).trim();
        else if (line.startsWith('data:')) data.push(line.slice(5).replace(/^ /, ''));
      }
      return { event, data: data.join('\n') };
    })
    .filter((e) => e.data !== '');
}

const MCP_HEADERS = {
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
  'mcp-protocol-version': LATEST_PROTOCOL_VERSION,
};

/** One JSON-RPC POST to /mcp, its answer read whole (JSON or an SSE stream). */
async function post(url: string, message: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(url, {
    method: 'POST',
    headers: { ...MCP_HEADERS, ...headers },
    body: JSON.stringify(message),
  });
  const text = await res.text();
  const type = res.headers.get('content-type') ?? '';
  const messages: any[] = type.includes('text/event-stream')
    ? parseSse(text).map((e) => JSON.parse(e.data))
    : text
      ? [JSON.parse(text)]
      : [];
  return {
    status: res.status,
    headers: res.headers,
    messages,
    response: (id: number) => messages.find((m) => m.id === id),
  };
}

/** Polls until `done()` holds (at most 3 s). */
async function until(done: () => boolean, what: string): Promise<void> {
  const deadline = performance.now() + 3000;
  while (!done()) {
    if (performance.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

const initialize = (id: number) => ({
  jsonrpc: '2.0',
  id,
  method: 'initialize',
  params: { protocolVersion: LATEST_PROTOCOL_VERSION, capabilities: {}, clientInfo: { name: 'raw', version: '1.0.0' } },
});

describe('Streamable HTTP stateless, request by request (what a load balancer needs)', () => {
  const mcpUrl = () => `${stateless.url}/mcp`;

  it('answers initialize without handing out an Mcp-Session-Id', async () => {
    const res = await post(mcpUrl(), initialize(1));
    expect(res.status).toBe(200);
    expect(res.headers.get('mcp-session-id')).toBeNull();
    expect(res.response(1)?.result?.serverInfo?.name).toBe('websearch-mcp');
  });

  it('serves tools/list with no initialize before it, twice, each from a fresh server', async () => {
    for (const id of [1, 2]) {
      const res = await post(mcpUrl(), { jsonrpc: '2.0', id, method: 'tools/list', params: {} });
      expect(res.status, JSON.stringify(res.messages)).toBe(200);
      expect(res.headers.get('mcp-session-id')).toBeNull();
      expect(
        res
          .response(id)
          ?.result?.tools?.map((t: { name: string }) => t.name)
          .sort(),
      ).toEqual(['crawl_site', 'crawl_status', 'extract_urls', 'map_site', 'web_search']);
    }
  });

  it('serves independent tools/call POSTs concurrently, each self-contained', async () => {
    const [extract, search] = await Promise.all([
      post(mcpUrl(), {
        jsonrpc: '2.0',
        id: 7,
        method: 'tools/call',
        params: { name: 'extract_urls', arguments: { urls: [`${site.origin}/text`] } },
      }),
      post(mcpUrl(), {
        jsonrpc: '2.0',
        id: 8,
        method: 'tools/call',
        params: { name: 'web_search', arguments: { q: 'rust', engines: ['wikipedia'] } },
      }),
    ]);
    for (const res of [extract, search]) {
      expect(res.status).toBe(200);
      expect(res.headers.get('mcp-session-id')).toBeNull();
    }
    const crawl = extract.response(7)?.result;
    expect(crawl?.isError).toBeFalsy();
    expect(extractResponseSchema.parse(crawl.structuredContent).results[0]?.success).toBe(true);
    const found = search.response(8)?.result;
    expect(found?.isError).toBeFalsy();
    expect(searchResponseSchema.parse(found.structuredContent).engines).toEqual(['wikipedia']);
  });

  it('streams progress notifications on the POST that asked for them', async () => {
    searxngPointingAtSite(['/text', '/markdown']);
    const res = await post(mcpUrl(), {
      jsonrpc: '2.0',
      id: 9,
      method: 'tools/call',
      params: {
        name: 'web_search',
        arguments: { q: 'fixture pages', engines: ['searxng'], include_content: true, content_results: 2 },
        _meta: { progressToken: 'p9' },
      },
    });
    expect(res.status).toBe(200);
    const progress = res.messages.filter((m) => m.method === 'notifications/progress').map((m) => m.params);
    expect(progress.map((p) => [p.progressToken, p.progress, p.total])).toEqual([
      ['p9', 1, 2],
      ['p9', 2, 2],
    ]);
    expect(res.response(9)?.result?.structuredContent?.metadata?.content_delivered).toBe(2);
  });

  it("aborts the page fetch when the client drops the POST (the request is the call's only lifetime)", async () => {
    const before = neverClosed;
    const hits = site.hits('/never');
    const controller = new AbortController();
    const res = await fetch(mcpUrl(), {
      method: 'POST',
      headers: MCP_HEADERS,
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 11,
        method: 'tools/call',
        params: { name: 'extract_urls', arguments: { urls: [`${site.origin}/never`], timeout_ms: 20_000 } },
      }),
      signal: controller.signal,
    });
    expect(res.status).toBe(200);
    await until(() => site.hits('/never') > hits, 'the page was requested');
    controller.abort();
    await until(() => neverClosed > before, 'the page fetch was aborted');
  });

  it('ignores a stray Mcp-Session-Id (no instance holds sessions)', async () => {
    const res = await post(
      mcpUrl(),
      { jsonrpc: '2.0', id: 3, method: 'tools/list', params: {} },
      { 'mcp-session-id': 'from-another-instance' },
    );
    expect(res.status).toBe(200);
    expect(res.response(3)?.result?.tools).toHaveLength(5);
  });

  it('refuses GET (no standalone stream) and DELETE (no session) with 405', async () => {
    for (const method of ['GET', 'DELETE']) {
      const res = await fetch(mcpUrl(), {
        method,
        headers: { accept: 'text/event-stream', 'mcp-protocol-version': LATEST_PROTOCOL_VERSION },
      });
      expect(res.status, method).toBe(405);
      expect(res.headers.get('allow'), method).toMatch(/POST/);
      await res.body?.cancel();
    }
  });

  it.each([
    ['the --mcp-stateless flag', ['--mcp-stateless'], {}, 200],
    ['WEBSEARCH_MCP_STATELESS=true', [], { WEBSEARCH_MCP_STATELESS: 'true' }, 200],
    ['neither (sessions)', [], {}, 400],
  ])('`websearch-mcp serve` with %s', async (_name, flags, env, expected) => {
    const child = spawn(process.execPath, [CLI, 'serve', '--port', '0', ...flags], {
      env: { ...process.env, WEBSEARCH_LOG_LEVEL: 'silent', ...env },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let stderr = '';
        child.stderr.on('data', (d) => {
          stderr += d;
          const found = /listening on (http:\/\/[^\s:]+:\d+)/.exec(stderr);
          if (found?.[1]) resolve(found[1]);
        });
        child.on('exit', (code) => reject(new Error(`serve exited with ${code}: ${stderr}`)));
      });
      const res = await post(`${url}/mcp`, { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} });
      expect(res.status).toBe(expected);
      expect(res.headers.get('mcp-session-id')).toBeNull();
    } finally {
      child.kill('SIGTERM');
    }
  });

  it('contrast: with sessions, the same tools/list without initialize is refused', async () => {
    const res = await post(`${api.url}/mcp`, { jsonrpc: '2.0', id: 4, method: 'tools/list', params: {} });
    expect(res.status).toBe(400);
    expect(res.response(4)?.result).toBeUndefined();
  });
});

/** An open GET /sse, read event by event. */
async function openSse(url: string, headers: Record<string, string> = {}) {
  const controller = new AbortController();
  const res = await fetch(url, { headers: { accept: 'text/event-stream', ...headers }, signal: controller.signal });
  const reader = res.body?.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  async function next(): Promise<SseEvent> {
    for (;;) {
      const end = /\r?\n\r?\n/.exec(buffer);
      if (end) {
        const block = buffer.slice(0, end.index);
        buffer = buffer.slice(end.index + end[0].length);
        const [event] = parseSse(block);
        if (event) return event;
        continue;
      }
      if (!reader) throw new Error('no body');
      const { value, done } = await reader.read();
      if (done) throw new Error('the event stream ended');
      buffer += decoder.decode(value, { stream: true });
    }
  }
  return {
    res,
    next,
    close: () => {
      controller.abort();
      reader?.cancel().catch(() => undefined);
    },
  };
}

describe('legacy HTTP+SSE on the wire', () => {
  it('opens with an endpoint event naming POST /messages?sessionId=<id>, then answers on the stream', async () => {
    const stream = await openSse(`${api.url}/sse`);
    try {
      expect(stream.res.status).toBe(200);
      expect(stream.res.headers.get('content-type')).toMatch(/^text\/event-stream/);
      const first = await stream.next();
      expect(first.event).toBe('endpoint');
      expect(first.data).toMatch(/^\/messages\?sessionId=[\w-]+$/);
      const endpoint = new URL(first.data, api.url).href;

      const accepted = await fetch(endpoint, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(initialize(1)),
      });
      expect(accepted.status).toBe(202);
      const answer = await stream.next();
      expect(answer.event).toBe('message');
      expect(JSON.parse(answer.data)).toMatchObject({ id: 1, result: { serverInfo: { name: 'websearch-mcp' } } });
    } finally {
      stream.close();
    }
  });

  it('gives each stream its own session, and forgets a session when its stream closes', async () => {
    const [a, b] = await Promise.all([openSse(`${api.url}/sse`), openSse(`${api.url}/sse`)]);
    const [ea, eb] = await Promise.all([a.next(), b.next()]);
    expect(ea.data).not.toBe(eb.data);
    b.close();
    const notify = (endpoint: string) =>
      fetch(new URL(endpoint, api.url), {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
      });
    try {
      expect((await notify(ea.data)).status).toBe(202);
      // The server notices the closed stream asynchronously.
      let status = 0;
      for (let i = 0; i < 40; i++) {
        status = (await notify(eb.data)).status;
        if (status >= 400) break;
        await new Promise((r) => setTimeout(r, 50));
      }
      expect(status).toBeGreaterThanOrEqual(400);
      expect(status).toBeLessThan(500);
    } finally {
      a.close();
    }
  });

  it('refuses a POST to an unknown or missing session', async () => {
    for (const path of ['/messages?sessionId=00000000-0000-0000-0000-000000000000', '/messages']) {
      const res = await fetch(`${api.url}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(initialize(1)),
      });
      expect(res.status, path).toBeGreaterThanOrEqual(400);
      expect(res.status, path).toBeLessThan(500);
      await res.body?.cancel();
    }
  });

  it('applies the loopback host guard to /sse and /messages (DNS rebinding)', async () => {
    const evil = { origin: 'http://evil.example' };
    const get = await fetch(`${api.url}/sse`, { headers: { accept: 'text/event-stream', ...evil } });
    expect(get.status).toBe(403);
    await get.body?.cancel();
    const stream = await openSse(`${api.url}/sse`);
    try {
      const { data } = await stream.next();
      const res = await fetch(new URL(data, api.url), {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...evil },
        body: JSON.stringify(initialize(1)),
      });
      expect(res.status).toBe(403);
    } finally {
      stream.close();
    }
  });
});
