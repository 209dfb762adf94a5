/**
 * One request, one id (core/request-context.ts): every HTTP response carries it in
 * `X-Request-Id` (successes and request-level errors alike), every MCP tool result in
 * `_meta.request_id`; the usage record a charge leaves is filed under that same id, and
 * the request's log lines carry it as `request_id`.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Logger } from '../../src/core/logger.js';
import { connect as connect_ } from 'node:net';
import { startFakeEngines } from '../helpers/fake-engines.js';
import { startFixtureSite } from '../helpers/fixture-site.js';
import { rawHttp } from '../helpers/raw-http.js';
import type { TestApi } from '../helpers/test-server.js';
import { inMemoryMcpClient, startTestApi } from '../helpers/test-server.js';

/** `req_` and a ULID. */
const REQUEST_ID = /^req_[0-9A-HJKMNP-TV-Z]{26}$/;

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
  await Promise.all(apis.splice(0).map((a) => a.close()));
});
async function api(
  overrides: Parameters<typeof startTestApi>[0] = {},
  options: Parameters<typeof startTestApi>[1] = {},
): Promise<TestApi> {
  const started = await startTestApi({ cache: { ttlMs: 0 }, ...overrides }, options);
  apis.push(started);
  return started;
}

const post = (a: TestApi, path: string, body: unknown, headers: Record<string, string> = {}) =>
  a.post(path, body, headers);
const idOf = (res: Response): string => res.headers.get('x-request-id') ?? '';

/** Every line logged, with the bindings of the child loggers it went through. */
function capturingLogger(): { logger: Logger; lines: Record<string, unknown>[] } {
  const lines: Record<string, unknown>[] = [];
  const make = (bindings: Record<string, unknown>): Logger => {
    const write = (obj: unknown, msg?: string) =>
      void lines.push({
        ...bindings,
        ...(typeof obj === 'object' && obj !== null ? obj : { msg: obj }),
        ...(msg ? { msg } : {}),
      });
    return {
      fatal: write,
      error: write,
      warn: write,
      info: write,
      debug: write,
      trace: write,
      child: (more) => make({ ...bindings, ...more }),
    };
  };
  return { logger: make({}), lines };
}

describe('X-Request-Id', () => {
  it('names every response, a success and the request-level errors, each with its own id', async () => {
    const a = await api();
    const ok = await post(a, '/api/crawl', { urls: [`${site.origin}/text`] });
    const invalid = await post(a, '/api/crawl', { urls: [] });
    const notJson = await post(a, '/api/crawl', 'urls=x', { 'content-type': 'text/plain' });
    const missing = await fetch(`${a.url}/no/such/route`);
    expect([ok.status, invalid.status, notJson.status, missing.status]).toEqual([200, 400, 415, 404]);
    const ids = [ok, invalid, notJson, missing].map(idOf);
    for (const id of ids) expect(id).toMatch(REQUEST_ID);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('names a 401 and a 402 as well', async () => {
    const a = await api();
    const { secret } = await a.core.keys.create({ name: 'spent', credits: 0 });
    const unauthorized = await post(a, '/api/crawl', { urls: [`${site.origin}/text`] });
    const spent = await post(a, '/api/crawl', { urls: [`${site.origin}/text`] }, { 'x-api-key': secret });
    expect([unauthorized.status, spent.status]).toEqual([401, 402]);
    expect(idOf(unauthorized)).toMatch(REQUEST_ID);
    expect(idOf(spent)).toMatch(REQUEST_ID);
    expect(idOf(spent)).not.toBe(idOf(unauthorized));
  });

  it('finds the usage record of the request it names', async () => {
    const a = await api();
    const { secret, record } = await a.core.keys.create({ name: 'paying', credits: 5 });
    const first = await post(a, '/api/crawl', { urls: [`${site.origin}/text`] }, { 'x-api-key': secret });
    const second = await post(a, '/api/crawl', { urls: ['not a url'] }, { 'x-api-key': secret });
    expect([first.status, second.status]).toEqual([200, 200]);
    const usage = await a.core.store.usage({ keyId: record.id });
    expect(usage.map((u) => [u.requestId, u.credits])).toEqual([
      [idOf(first), 1],
      [idOf(second), 0],
    ]);
  });

  it("stamps the request's log lines with it, from the face through the services", async () => {
    const fake = await startFakeEngines();
    try {
      const { logger, lines } = capturingLogger();
      const a = await api(
        { engines: fake.engineConfig, search: { duckduckgoIntervalMs: 0, cacheTtlMs: 0, engineTimeoutMs: 1500 } },
        { logger },
      );
      fake.setScenario('wikipedia', 'results');
      fake.setScenario('google', 'server_error');
      const res = await post(a, '/api/search', { q: 'harbour tides', engines: ['wikipedia', 'google'] });
      expect(res.status).toBe(200);
      const id = idOf(res);
      expect(id).toMatch(REQUEST_ID);
      const mine = lines.filter((line) => line.request_id === id).map((line) => line.msg);
      // The search service's line (an engine failed), Operations' line, the HTTP face's line.
      expect(mine).toEqual(expect.arrayContaining(['some search engines failed', 'operation done', 'request']));
      expect(lines.find((line) => line.msg === 'operation done')).toMatchObject({
        request_id: id,
        operation: 'search',
        credits_used: 1,
      });
    } finally {
      await fake.close();
    }
  });
});

describe('_meta.request_id of MCP tool results', () => {
  it('comes with every result, an error too, each its own', async () => {
    const a = await api();
    const { client, close } = await inMemoryMcpClient(a.core);
    try {
      const done = await client.callTool({ name: 'extract_urls', arguments: { urls: [`${site.origin}/text`] } });
      const refused = await client.callTool({ name: 'extract_urls', arguments: { urls: [] } });
      expect(done.isError).toBeFalsy();
      expect(refused.isError).toBe(true);
      expect(done._meta?.request_id).toMatch(REQUEST_ID);
      expect(refused._meta?.request_id).toMatch(REQUEST_ID);
      expect(refused._meta?.request_id).not.toBe(done._meta?.request_id);
    } finally {
      await close();
    }
  });

  it('finds the usage record of a tool call charged over HTTP', async () => {
    const a = await api();
    const { secret, record } = await a.core.keys.create({ name: 'agent', credits: 5 });
    const transport = new StreamableHTTPClientTransport(new URL(`${a.url}/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${secret}` } },
    });
    const client = new Client({ name: 'test', version: '1.0.0' });
    await client.connect(transport);
    try {
      const result = await client.callTool({ name: 'extract_urls', arguments: { urls: [`${site.origin}/text`] } });
      expect(result.isError).toBeFalsy();
      const usage = await a.core.store.usage({ keyId: record.id });
      expect(usage).toHaveLength(1);
      expect(usage[0]?.requestId).toBe(result._meta?.request_id);
    } finally {
      await client.close();
    }
  });
});

describe('X-Request-Id on the answers written before routing', () => {
  const idIn = (answer: string): string => /\r\nx-request-id: (\S+)\r\n/i.exec(answer)?.[1] ?? '';

  it('a malformed request, a target that is no URL, CONNECT and a client past its connection share', async () => {
    const a = await api({ server: { maxConnections: 40, maxConnectionsPerAddress: 1 } });
    const { port } = a.server;
    const malformed = await rawHttp(port, `GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: x\r\n\r\n`);
    const unroutable = await rawHttp(port, `GET * HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`);
    const connect = await rawHttp(port, `CONNECT example.test:443 HTTP/1.1\r\nHost: example.test:443\r\n\r\n`);
    // One connection busy with a request (a body that never comes) takes this address's
    // share: the next is refused at once.
    const held = connect_(port, '127.0.0.1');
    held.on('error', () => undefined);
    await new Promise((resolve) => held.once('connect', resolve));
    held.write(
      `POST /api/crawl HTTP/1.1\r\nHost: 127.0.0.1\r\ncontent-type: application/json\r\ncontent-length: 100\r\n\r\n`,
    );
    await new Promise((resolve) => setTimeout(resolve, 200));
    const refused = await rawHttp(port, `GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`);
    held.destroy();
    const answers = { malformed, unroutable, connect, refused };
    expect(Object.values(answers).map((answer) => answer.split('\r\n')[0])).toEqual([
      'HTTP/1.1 400 Bad Request',
      'HTTP/1.1 400 Bad Request',
      'HTTP/1.1 405 Method Not Allowed',
      'HTTP/1.1 429 Too Many Requests',
    ]);
    const ids = Object.values(answers).map(idIn);
    for (const id of ids) expect(id).toMatch(REQUEST_ID);
    expect(new Set(ids).size).toBe(4);
  });
});
