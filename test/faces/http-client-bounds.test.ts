/**
 * What bounds a remote client of `websearch-mcp serve`, against the real server: MCP
 * sessions and /sse streams past the caps (per key, then overall) and closed when idle;
 * slow clients dropped at the header and request timeouts; one body limit and a JSON
 * depth bound on /mcp, /messages and the API; browser requests from any other origin
 * refused (CSRF); malformed HTTP answered with the one error body. Throughout, the server
 * keeps answering /healthz and /api/crawl.
 */
import { connect } from 'node:net';
import type { Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Logger } from '../../src/core/logger.js';
import { jsonDepthExceeds } from '../../src/faces/http/read-json-body.js';
import { silentLogger } from '../../src/core/logger.js';
import type { FixtureSite } from '../helpers/fixture-site.js';
import { startFixtureSite } from '../helpers/fixture-site.js';
import type { TestApi } from '../helpers/test-server.js';
import { startTestApi } from '../helpers/test-server.js';

const HEADERS_TIMEOUT_MS = 600;
const REQUEST_TIMEOUT_MS = 1_200;
const KEEP_ALIVE_MS = 1_000;
const IDLE_MS = 500;
const BODY_LIMIT = 16 * 1024;

let site: FixtureSite;
/** Caps of 3 sessions per key and 5 overall; slow-client timeouts of 0.6 s and 1.2 s. */
let api: TestApi;
/** Open mode (no key), sessions closed after 0.5 s without a request. */
let idle: TestApi;
const keys: Record<'a' | 'b' | 'c', string> = { a: '', b: '', c: '' };
/** Everything the bounded server logged above debug. */
const logged: { level: string; obj: unknown; msg?: string }[] = [];
const recorder: Logger = {
  ...silentLogger,
  error: (obj, msg) => void logged.push({ level: 'error', obj, msg }),
  warn: (obj, msg) => void logged.push({ level: 'warn', obj, msg }),
  fatal: (obj, msg) => void logged.push({ level: 'fatal', obj, msg }),
  child: () => recorder,
};

beforeAll(async () => {
  site = await startFixtureSite();
  api = await startTestApi(
    {
      cache: { ttlMs: 0 },
      server: {
        headersTimeoutMs: HEADERS_TIMEOUT_MS,
        requestTimeoutMs: REQUEST_TIMEOUT_MS,
        keepAliveTimeoutMs: KEEP_ALIVE_MS,
        bodyLimitBytes: BODY_LIMIT,
      },
      mcp: { maxSessions: 5, maxSessionsPerKey: 3, sessionIdleMs: 60_000 },
    },
    {
      beforeStart: async (core) => {
        for (const name of ['a', 'b', 'c'] as const) keys[name] = (await core.keys.create({ name })).secret;
      },
      logger: recorder,
    },
  );
  idle = await startTestApi({ cache: { ttlMs: 0 }, mcp: { sessionIdleMs: IDLE_MS } });
});
afterAll(async () => {
  await Promise.all([api?.close(), idle?.close()]);
  await site?.close();
});

const auth = (key: string | undefined): Record<string, string> => (key ? { authorization: `Bearer ${key}` } : {});

/** The server still does its work: the health route and a real extraction. */
async function expectServing(server: TestApi, key?: string): Promise<void> {
  const health = await fetch(`${server.url}/healthz`);
  expect(health.status).toBe(200);
  await health.body?.cancel();
  const crawl = await fetch(`${server.url}/api/crawl`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...auth(key) },
    body: JSON.stringify({ urls: [`${site.origin}/text`] }),
  });
  expect(crawl.status).toBe(200);
  expect(((await crawl.json()) as { results: { success: boolean }[] }).results[0]?.success).toBe(true);
}

async function errorOf(res: Response): Promise<{ status: number; code: string; message: string }> {
  const body = (await res.json()) as { error: { code: string; message: string } };
  return { status: res.status, code: body.error.code, message: body.error.message };
}

const MCP_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
const INIT = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'bounds', version: '1' } },
};

/** Opens a Streamable HTTP session: its id, or the refusal. */
async function openSession(server: TestApi, key?: string): Promise<{ id: string | null; res: Response }> {
  const res = await fetch(`${server.url}/mcp`, {
    method: 'POST',
    headers: { ...MCP_HEADERS, ...auth(key) },
    body: JSON.stringify(INIT),
  });
  const id = res.headers.get('mcp-session-id');
  if (id) await res.text();
  return { id, res };
}

function onSession(server: TestApi, id: string, body: unknown, key?: string): Promise<Response> {
  return fetch(`${server.url}/mcp`, {
    method: 'POST',
    headers: { ...MCP_HEADERS, ...auth(key), 'mcp-session-id': id, 'mcp-protocol-version': '2025-06-18' },
    body: JSON.stringify(body),
  });
}

async function endSession(server: TestApi, id: string, key?: string): Promise<void> {
  const res = await fetch(`${server.url}/mcp`, { method: 'DELETE', headers: { ...auth(key), 'mcp-session-id': id } });
  await res.body?.cancel();
}

/** Opens GET /sse and reads its endpoint event; `ended` settles when the server ends the stream. */
async function openSse(server: TestApi, key?: string) {
  const controller = new AbortController();
  const res = await fetch(`${server.url}/sse`, {
    headers: { accept: 'text/event-stream', ...auth(key) },
    signal: controller.signal,
  });
  if (res.status !== 200)
    return {
      res,
      endpoint: undefined,
      ended: Promise.resolve(),
      read: async () => '',
      close: () => controller.abort(),
    };
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  let done = false;
  const read = async (): Promise<string> => {
    const chunk = await reader.read();
    if (chunk.done) done = true;
    else buffer += decoder.decode(chunk.value, { stream: true });
    return buffer;
  };
  while (!/event: endpoint\ndata: (\S+)\n\n/.test(buffer)) await read();
  const endpoint = /event: endpoint\ndata: (\S+)\n\n/.exec(buffer)![1]!;
  const ended = (async () => {
    while (!done) await read().catch(() => (done = true));
  })();
  return { res, endpoint, ended, read: () => Promise.resolve(buffer), close: () => controller.abort() };
}

/** Open MCP sessions of one transport, as the server's metrics count them. */
async function sessionGauge(server: TestApi, transport: 'sse' | 'streamable_http'): Promise<number> {
  const { body } = await server.core.metrics!.render();
  return Number(new RegExp(`websearch_mcp_sessions\\{transport="${transport}"\\} (\\d+)`).exec(body)?.[1]);
}

interface RawAnswer {
  status: number;
  head: string;
  body: string;
  /** From the first byte written (or the connection) to the server closing the connection. */
  ms: number;
}

/** Talks raw HTTP on a socket: `talk` writes what it wants; resolves when the server closes. */
function raw(server: TestApi, talk: (socket: Socket) => void): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const socket = connect(server.server.port, '127.0.0.1');
    const chunks: Buffer[] = [];
    const started = performance.now();
    const guard = setTimeout(() => {
      socket.destroy();
      reject(new Error('the server kept the connection open for 10 s'));
    }, 10_000);
    socket.on('connect', () => talk(socket));
    socket.on('data', (d) => chunks.push(d));
    socket.on('error', () => undefined);
    socket.on('close', () => {
      clearTimeout(guard);
      const text = Buffer.concat(chunks).toString('utf8');
      const split = text.indexOf('\r\n\r\n');
      const head = split >= 0 ? text.slice(0, split) : text;
      resolve({
        status: Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1] ?? 0),
        head,
        body: split >= 0 ? text.slice(split + 4) : '',
        ms: performance.now() - started,
      });
    });
  });
}

describe('MCP sessions and /sse streams past the caps', () => {
  it('refuses one key past its share with 429 too_many_sessions, everyone past the total with 503 server_busy, and serves throughout', async () => {
    const opened: { id: string; key: string }[] = [];
    try {
      for (let i = 0; i < 3; i++) {
        const { id } = await openSession(api, keys.a);
        expect(id).toBeTruthy();
        opened.push({ id: id!, key: keys.a });
      }
      const fourth = await errorOf((await openSession(api, keys.a)).res);
      expect(fourth).toMatchObject({ status: 429, code: 'too_many_sessions' });
      expect(fourth.message).toMatch(/limit/);
      // Key a's streams count against the same share.
      const sse = await openSse(api, keys.a);
      expect(await errorOf(sse.res)).toMatchObject({ status: 429, code: 'too_many_sessions' });
      await expectServing(api, keys.a);

      for (let i = 0; i < 2; i++) {
        const { id } = await openSession(api, keys.b);
        opened.push({ id: id!, key: keys.b });
      }
      // Five open: key b is under its share but the server is full, for key c too.
      expect(await errorOf((await openSession(api, keys.b)).res)).toMatchObject({ status: 503, code: 'server_busy' });
      const full = await openSse(api, keys.c);
      expect(await errorOf(full.res)).toMatchObject({ status: 503, code: 'server_busy' });
      expect(full.res.status).toBe(503);
      await expectServing(api, keys.c);

      // Ending a session frees its place.
      const freed = opened.shift()!;
      await endSession(api, freed.id, freed.key);
      const stream = await openSse(api, keys.c);
      try {
        expect(stream.res.status).toBe(200);
        expect(stream.endpoint).toMatch(/^\/messages\?sessionId=/);
        expect(await errorOf((await openSession(api, keys.c)).res)).toMatchObject({ status: 503, code: 'server_busy' });
      } finally {
        stream.close();
      }
      // The closed stream's place is free again.
      await vi.waitFor(async () => {
        const { id } = await openSession(api, keys.c);
        expect(id).toBeTruthy();
        opened.push({ id: id!, key: keys.c });
      });
      await expectServing(api, keys.b);
    } finally {
      for (const s of opened) await endSession(api, s.id, s.key);
    }
  });
});

describe('idle sessions and streams', () => {
  it('closes an idle Streamable HTTP session: its id then gets the 404 of the MCP spec', async () => {
    const { id } = await openSession(idle);
    expect(id).toBeTruthy();
    const list = { jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} };
    expect((await onSession(idle, id!, list)).status).toBe(200);
    await vi.waitFor(() => expect(idle.server.inFlight()).toBe(0));
    expect(await sessionGauge(idle, 'streamable_http')).toBe(1);
    await new Promise((r) => setTimeout(r, IDLE_MS * 2));
    // Closed on the server's side (its MCP server with it), before any request came.
    expect(await sessionGauge(idle, 'streamable_http')).toBe(0);
    const late = await onSession(idle, id!, list);
    expect(late.status).toBe(404);
    expect(await late.json()).toMatchObject({ jsonrpc: '2.0', error: { code: -32001 } });
    await expectServing(idle);
  });

  it('keeps a session that is used more often than the idle time', async () => {
    const { id } = await openSession(idle);
    const list = { jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} };
    for (let i = 0; i < 6; i++) {
      await new Promise((r) => setTimeout(r, IDLE_MS / 2));
      const res = await onSession(idle, id!, { ...list, id: 10 + i });
      expect(res.status, `request ${i} after ${((i + 1) * IDLE_MS) / 2} ms`).toBe(200);
      await res.text();
    }
    await endSession(idle, id!);
  });

  it('ends an idle /sse stream; a POST to it then gets 404 not_found', async () => {
    const stream = await openSse(idle);
    expect(stream.res.status).toBe(200);
    const started = performance.now();
    await stream.ended;
    const ms = performance.now() - started;
    expect(ms).toBeGreaterThan(IDLE_MS * 0.8);
    expect(ms).toBeLessThan(IDLE_MS + 3_000);
    const res = await fetch(new URL(stream.endpoint!, idle.url), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(INIT),
    });
    expect(await errorOf(res)).toMatchObject({ status: 404, code: 'not_found' });
    await expectServing(idle);
  });
});

describe('slow clients', () => {
  it('drops a client that sends no headers with 408 after the headers timeout, and one withholding its body after the request timeout', async () => {
    const silent = raw(api, () => undefined);
    const withheld = raw(api, (socket) => {
      socket.write(
        `POST /api/crawl HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n${'Authorization: Bearer '}${keys.a}\r\nContent-Length: 100\r\n\r\n{"urls":`,
      );
    });
    await expectServing(api, keys.a);
    const [a, b] = await Promise.all([silent, withheld]);
    expect(a.status).toBe(408);
    expect(JSON.parse(a.body)).toEqual({ error: { code: 'request_timeout', message: expect.any(String) } });
    expect(a.ms).toBeGreaterThan(HEADERS_TIMEOUT_MS * 0.8);
    expect(a.ms).toBeLessThan(HEADERS_TIMEOUT_MS + 2_000);
    expect(b.status).toBe(408);
    expect(JSON.parse(b.body).error.code).toBe('request_timeout');
    expect(b.ms).toBeGreaterThan(REQUEST_TIMEOUT_MS * 0.8);
    expect(b.ms).toBeLessThan(REQUEST_TIMEOUT_MS + 2_000);
    await expectServing(api, keys.a);
  });

  it('closes an idle keep-alive connection after the keep-alive timeout', async () => {
    let answered = 0;
    const answer = await raw(api, (socket) => {
      socket.once('data', () => (answered = performance.now()));
      socket.write('GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: keep-alive\r\n\r\n');
    });
    expect(answer.status).toBe(200);
    const idleMs = performance.now() - answered;
    expect(idleMs).toBeGreaterThan(KEEP_ALIVE_MS * 0.8);
    expect(idleMs).toBeLessThan(KEEP_ALIVE_MS + 2_000);
  });

  it('does not cut an /sse stream that outlives the request timeout', async () => {
    const stream = await openSse(api, keys.b);
    try {
      await new Promise((r) => setTimeout(r, REQUEST_TIMEOUT_MS + 600));
      const res = await fetch(new URL(stream.endpoint!, api.url), {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...auth(keys.b) },
        body: JSON.stringify(INIT),
      });
      expect(res.status).toBe(202);
      await vi.waitFor(async () => expect(await stream.read()).toMatch(/event: message\ndata: .*"serverInfo"/));
    } finally {
      stream.close();
    }
  });
});

describe('one body limit, one depth bound', () => {
  const deep = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;

  it('counts nesting outside strings only, escapes included', () => {
    expect(jsonDepthExceeds('[[[]]]', 3)).toBe(false);
    expect(jsonDepthExceeds('[[[[]]]]', 3)).toBe(true);
    expect(jsonDepthExceeds(JSON.stringify({ a: '[[[[[[{{{{', b: 'quote \\" [[[[[' }), 1)).toBe(false);
    expect(jsonDepthExceeds(JSON.stringify([{ a: ['\\', [[1]]] }]), 4)).toBe(true);
    expect(jsonDepthExceeds('[]'.repeat(100_000), 1)).toBe(false);
  });

  it('refuses an oversized /mcp body with 413, declared or streamed, before parsing', async () => {
    const big = JSON.stringify({
      ...INIT,
      params: { ...INIT.params, clientInfo: { name: 'x'.repeat(BODY_LIMIT), version: '1' } },
    });
    const declared = await fetch(`${api.url}/mcp`, {
      method: 'POST',
      headers: { ...MCP_HEADERS, ...auth(keys.a) },
      body: big,
    });
    expect(await errorOf(declared)).toMatchObject({ status: 413, code: 'payload_too_large' });
    const bytes = new TextEncoder().encode(big);
    const streamed = await fetch(`${api.url}/mcp`, {
      method: 'POST',
      headers: { ...MCP_HEADERS, ...auth(keys.a) },
      body: new ReadableStream({
        start(controller) {
          for (let i = 0; i < bytes.length; i += 1024) controller.enqueue(bytes.slice(i, i + 1024));
          controller.close();
        },
      }),
      duplex: 'half',
    } as RequestInit);
    expect(await errorOf(streamed)).toMatchObject({ status: 413, code: 'payload_too_large' });
    await expectServing(api, keys.a);
  });

  it('refuses a deeply nested body with 400 invalid_request on /mcp, /messages and /api/crawl', async () => {
    const body = deep(5_000);
    const mcp = await fetch(`${api.url}/mcp`, { method: 'POST', headers: { ...MCP_HEADERS, ...auth(keys.a) }, body });
    const refused = await errorOf(mcp);
    expect(refused).toMatchObject({ status: 400, code: 'invalid_request' });
    expect(refused.message).toMatch(/deeper than 64/);
    const crawl = await fetch(`${api.url}/api/crawl`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...auth(keys.a) },
      body,
    });
    expect(await errorOf(crawl)).toMatchObject({ status: 400, code: 'invalid_request' });
    const stream = await openSse(api, keys.a);
    try {
      const messages = await fetch(new URL(stream.endpoint!, api.url), {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...auth(keys.a) },
        body,
      });
      expect(await errorOf(messages)).toMatchObject({ status: 400, code: 'invalid_request' });
    } finally {
      stream.close();
    }
    await expectServing(api, keys.a);
  });

  it('answers /messages errors with the one error body, never echoing the input', async () => {
    const stream = await openSse(api, keys.a);
    try {
      const post = (body: string, headers: Record<string, string> = { 'content-type': 'application/json' }) =>
        fetch(new URL(stream.endpoint!, api.url), { method: 'POST', headers: { ...headers, ...auth(keys.a) }, body });
      const marker = 'secret-marker-7f3a';
      const notRpc = await post(JSON.stringify({ hello: marker }));
      const notRpcText = await notRpc.text();
      expect(notRpc.status).toBe(400);
      expect(JSON.parse(notRpcText).error.code).toBe('invalid_request');
      expect(notRpcText).not.toContain(marker);
      expect(notRpcText).not.toMatch(/ZodError|Error:/);
      expect(await errorOf(await post(`{"jsonrpc": ${marker}`))).toMatchObject({
        status: 400,
        code: 'invalid_request',
      });
      expect(await errorOf(await post(JSON.stringify(INIT), { 'content-type': 'text/plain' }))).toMatchObject({
        status: 415,
        code: 'unsupported_media_type',
      });
      expect(await errorOf(await post('x'.repeat(BODY_LIMIT + 1)))).toMatchObject({
        status: 413,
        code: 'payload_too_large',
      });
    } finally {
      stream.close();
    }
  });
});

describe('browser requests from other origins (CSRF)', () => {
  const crawlBody = () => JSON.stringify({ urls: [`${site.origin}/text`] });
  const crawl = (headers: Record<string, string>, body = crawlBody()) =>
    fetch(`${api.url}/api/crawl`, { method: 'POST', headers: { ...auth(keys.a), ...headers }, body });

  it.each([
    [
      'Origin: null with a text/plain JSON body (a sandboxed frame)',
      { origin: 'null', 'content-type': 'text/plain' },
      403,
      'forbidden_origin',
    ],
    [
      'a foreign origin',
      { origin: 'https://attacker.example', 'content-type': 'application/json' },
      403,
      'forbidden_origin',
    ],
    [
      'another loopback port',
      { origin: 'http://127.0.0.1:1', 'content-type': 'application/json' },
      403,
      'forbidden_origin',
    ],
    [
      'localhost on another port',
      { origin: 'http://localhost:1', 'content-type': 'application/json' },
      403,
      'forbidden_origin',
    ],
    [
      'Sec-Fetch-Site: cross-site',
      { 'sec-fetch-site': 'cross-site', 'content-type': 'application/json' },
      403,
      'forbidden_origin',
    ],
    ['a text/plain JSON body without an Origin', { 'content-type': 'text/plain' }, 415, 'unsupported_media_type'],
    [
      'a form-labelled JSON body from a browser',
      { 'content-type': 'application/x-www-form-urlencoded', 'sec-fetch-site': 'same-site' },
      415,
      'unsupported_media_type',
    ],
  ])('refuses %s', async (_name, headers, status, code) => {
    expect(await errorOf(await crawl(headers))).toMatchObject({ status, code });
    await expectServing(api, keys.a);
  });

  it('refuses an MCP session opened from another origin, on /mcp and /sse', async () => {
    const mcp = await fetch(`${api.url}/mcp`, {
      method: 'POST',
      headers: { ...MCP_HEADERS, ...auth(keys.a), origin: 'null' },
      body: JSON.stringify(INIT),
    });
    expect(await errorOf(mcp)).toMatchObject({ status: 403, code: 'forbidden_origin' });
    const sse = await fetch(`${api.url}/sse`, {
      headers: { ...auth(keys.a), origin: `http://127.0.0.1:${api.server.port + 1}` },
    });
    expect(await errorOf(sse)).toMatchObject({ status: 403, code: 'forbidden_origin' });
  });

  it('serves a request without an Origin (curl -d, labelled as a form or as JSON) and one from its own origin', async () => {
    const cases: Record<string, string>[] = [
      { 'content-type': 'application/x-www-form-urlencoded' },
      { 'content-type': 'application/json' },
      { 'content-type': 'application/json', origin: api.url, 'sec-fetch-site': 'same-origin' },
    ];
    for (const headers of cases) {
      const res = await crawl(headers);
      expect(res.status, JSON.stringify(headers)).toBe(200);
      expect(((await res.json()) as { results: { success: boolean }[] }).results[0]?.success).toBe(true);
    }
  });
});

describe('malformed HTTP', () => {
  it.each([
    [
      'a bad Content-Length',
      'POST /api/crawl HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: zq9\r\n\r\n',
      400,
      'invalid_request',
    ],
    [
      'two different Content-Lengths',
      'POST /api/crawl HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\n{}',
      400,
      'invalid_request',
    ],
    ['a garbage request line', 'HELLO THERE\r\n\r\n', 400, 'invalid_request'],
    [
      'oversized headers',
      `GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: ${'b'.repeat(20_000)}\r\n\r\n`,
      431,
      'headers_too_large',
    ],
    [
      'an oversized URL',
      `GET /healthz?q=${'u'.repeat(20_000)} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`,
      414,
      'uri_too_long',
    ],
  ])('answers %s with the JSON error body and closes', async (_name, request, status, code) => {
    const answer = await raw(api, (socket) => socket.write(request));
    expect(answer.status).toBe(status);
    expect(answer.head).toMatch(/content-type: application\/json/i);
    expect(JSON.parse(answer.body)).toEqual({ error: { code, message: expect.any(String) } });
    expect(answer.body).not.toMatch(/HPE_|Error|zq9|bbbb|uuuu/);
    await expectServing(api, keys.a);
  });

  it('answers HEAD /sse with the stream headers, opens no session, logs no stack (nor for HEAD on the other MCP routes)', async () => {
    const consoleError = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      const before = logged.length;
      const sseSessions = () => sessionGauge(api, 'sse');
      expect(await sseSessions()).toBe(0);
      const res = await fetch(`${api.url}/sse`, { method: 'HEAD', headers: auth(keys.a) });
      expect(await sseSessions()).toBe(0);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
      expect((await fetch(`${api.url}/mcp`, { method: 'HEAD', headers: auth(keys.a) })).status).toBe(400);
      expect((await fetch(`${api.url}/messages`, { method: 'HEAD', headers: auth(keys.a) })).status).toBe(405);
      await new Promise((r) => setTimeout(r, 100));
      expect(consoleError).not.toHaveBeenCalled();
      expect(logged.slice(before)).toEqual([]);
      await expectServing(api, keys.a);
    } finally {
      consoleError.mockRestore();
    }
  });

  it('logged nothing above debug for any of the refusals above', () => {
    expect(logged).toEqual([]);
  });
});

describe('the connection cap', () => {
  it('closes connections past it at once; the server answers again when they go', async () => {
    const capped = await startTestApi({ server: { maxConnections: 2, maxConnectionsPerAddress: 2 } });
    const held: Socket[] = [];
    try {
      // Busy ones (a request whose body never comes): idle ones would make room
      // (connection-share.test.ts).
      for (let i = 0; i < 2; i++) {
        const socket = connect(capped.server.port, '127.0.0.1');
        await new Promise((r) => socket.once('connect', r));
        socket.write(
          `POST /api/crawl HTTP/1.1\r\nHost: 127.0.0.1:${capped.server.port}\r\ncontent-type: application/json\r\ncontent-length: 100\r\n\r\n`,
        );
        held.push(socket);
        await new Promise((r) => setTimeout(r, 50));
      }
      await new Promise((r) => setTimeout(r, 50));
      const refused = await raw(capped, (socket) => socket.write('GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n'));
      expect(refused.status).toBe(0);
      expect(refused.ms).toBeLessThan(1_000);
      for (const socket of held.splice(0)) socket.destroy();
      await vi.waitFor(async () => {
        const health = await fetch(`${capped.url}/healthz`);
        expect(health.status).toBe(200);
      });
    } finally {
      for (const socket of held) socket.destroy();
      await capped.close();
    }
  });
});
