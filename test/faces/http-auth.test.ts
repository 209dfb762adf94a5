/**
 * API keys and credits through the real HTTP server: the auth matrix (no key, wrong key,
 * revoked key, each header form, each route), open mode only while no key exists,
 * the debit of exactly `credits_used`, 402 once a balance is spent, 429 with Retry-After,
 * and MCP over HTTP charged to the key that opened the session.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startFixtureSite } from '../helpers/fixture-site.js';
import type { TestApi } from '../helpers/test-server.js';
import { startTestApi } from '../helpers/test-server.js';

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

async function api(overrides: Parameters<typeof startTestApi>[0] = {}): Promise<TestApi> {
  const started = await startTestApi({ cache: { ttlMs: 0 }, ...overrides });
  apis.push(started);
  return started;
}

const json = { 'content-type': 'application/json' };

async function call(base: string, method: string, path: string, headers: Record<string, string> = {}, body?: unknown) {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: { ...(body !== undefined ? json : {}), ...headers },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const text = await res.text();
  let parsed: any;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = text;
  }
  return { status: res.status, headers: res.headers, body: parsed };
}

const INIT = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } },
};

/** Each route that does work, as one request that a valid key gets past authentication with. */
interface Route {
  name: string;
  method: string;
  path: string;
  body?: unknown;
  headers?: Record<string, string>;
}

function routes(site: Site): Route[] {
  return [
    { name: 'POST /api/crawl', method: 'POST', path: '/api/crawl', body: { urls: [`${site.origin}/text`] } },
    { name: 'POST /api/search', method: 'POST', path: '/api/search', body: {} },
    { name: 'GET /api/search', method: 'GET', path: '/api/search' },
    {
      name: 'POST /mcp',
      method: 'POST',
      path: '/mcp',
      body: INIT,
      headers: { accept: 'application/json, text/event-stream' },
    },
    { name: 'POST /messages', method: 'POST', path: '/messages?sessionId=none', body: INIT },
    {
      name: 'GET /mcp',
      method: 'GET',
      path: '/mcp',
      headers: { accept: 'text/event-stream', 'mcp-session-id': 'none' },
    },
    { name: 'DELETE /mcp', method: 'DELETE', path: '/mcp', headers: { 'mcp-session-id': 'none' } },
  ];
}

describe('the auth matrix', () => {
  it('is open on loopback while no key exists, and closes the moment one is created', async () => {
    const a = await api();
    const open = await call(a.url, 'POST', '/api/crawl', {}, { urls: [`${site.origin}/text`] });
    expect(open.status).toBe(200);
    expect(open.body.metadata.credits_used).toBe(1);

    await a.core.keys.create({ name: 'first' });
    const closed = await call(a.url, 'POST', '/api/crawl', {}, { urls: [`${site.origin}/text`] });
    expect(closed.status).toBe(401);
    expect(closed.headers.get('www-authenticate')).toBe('Bearer');
    expect(closed.body.error.code).toBe('unauthorized');
    expect(closed.body.error.message).toMatch(/Authorization: Bearer/);

    // Revoking every key does not reopen a metered server.
    const keys = await a.core.keys.list();
    for (const key of keys) await a.core.keys.revoke(key.id);
    expect((await call(a.url, 'POST', '/api/crawl', {}, { urls: [`${site.origin}/text`] })).status).toBe(401);
    expect((await call(a.url, 'GET', '/metrics')).status).toBe(401);
  });

  it('refuses a missing, unknown, malformed or revoked key on every route, and accepts both header forms', async () => {
    const a = await api();
    const { secret } = await a.core.keys.create({ name: 'good' });
    const revoked = await a.core.keys.create({ name: 'gone' });
    await a.core.keys.revoke(revoked.record.id);
    const refusals: Record<string, Record<string, string>> = {
      'no key': {},
      'unknown key': { authorization: `Bearer wsk_${'A'.repeat(43)}` },
      'unknown key as x-api-key': { 'x-api-key': `wsk_${'B'.repeat(43)}` },
      'not our format': { 'x-api-key': 'sk-something-else' },
      'wrong scheme': { authorization: `Basic ${secret}` },
      'revoked key': { authorization: `Bearer ${revoked.secret}` },
    };
    for (const route of routes(site)) {
      for (const [why, headers] of Object.entries(refusals)) {
        const res = await call(a.url, route.method, route.path, { ...route.headers, ...headers }, route.body);
        expect(res.status, `${route.name}, ${why}`).toBe(401);
        expect(res.headers.get('www-authenticate'), `${route.name}, ${why}`).toBe('Bearer');
        expect(res.body.error.code, `${route.name}, ${why}`).toBe('unauthorized');
      }
      const accepted: Record<string, string>[] = [
        { authorization: `Bearer ${secret}` },
        { authorization: `bearer ${secret}` },
        { 'x-api-key': secret },
      ];
      for (const headers of accepted) {
        const res = await call(a.url, route.method, route.path, { ...route.headers, ...headers }, route.body);
        expect(res.status, `${route.name} with ${Object.keys(headers)[0]}`).not.toBe(401);
      }
    }
    // GET /sse with a key opens the stream; without one, or with a bad one, it is refused.
    for (const [why, headers] of Object.entries(refusals))
      expect((await call(a.url, 'GET', '/sse', headers)).status, `GET /sse, ${why}`).toBe(401);
    const controller = new AbortController();
    const stream = await fetch(`${a.url}/sse`, { headers: { 'x-api-key': secret }, signal: controller.signal });
    expect(stream.status).toBe(200);
    controller.abort();
    // The health route and unknown routes need no key.
    expect((await call(a.url, 'GET', '/healthz')).status).toBe(200);
    expect((await call(a.url, 'GET', '/nowhere')).status).toBe(404);
  });
});

describe('credits', () => {
  it('debits exactly credits_used, records each request, and answers 402 once the balance is spent', async () => {
    const a = await api();
    const { secret, record } = await a.core.keys.create({ name: 'metered', credits: 3 });
    const auth = { authorization: `Bearer ${secret}` };
    const two = await call(a.url, 'POST', '/api/crawl', auth, {
      urls: [`${site.origin}/text`, `${site.origin}/html`, 'not a url'],
    });
    expect(two.status).toBe(200);
    expect(two.body.metadata.credits_used).toBe(2);
    expect((await a.core.store.keyById(record.id))?.balance).toBe(1);
    // Admission covers the largest cost: 1 credit left cannot run a 5-credit stealth request.
    const stealth = await call(a.url, 'POST', '/api/crawl', auth, { urls: [`${site.origin}/text`], stealth: true });
    expect(stealth.status).toBe(402);
    expect(stealth.body.error.code).toBe('insufficient_credits');
    expect(stealth.body.error.message).toMatch(/needs up to 5 credits .*the key has 1 available/);
    expect((await a.core.store.keyById(record.id))?.balance).toBe(1);
    expect((await call(a.url, 'POST', '/api/crawl', auth, { urls: [`${site.origin}/text`] })).status).toBe(200);
    const refused = await call(a.url, 'POST', '/api/crawl', auth, { urls: [`${site.origin}/text`] });
    expect(refused.status).toBe(402);
    expect(refused.body.error.code).toBe('insufficient_credits');
    expect((await a.core.store.keyById(record.id))?.balance).toBe(0);
    const usage = await a.core.keys.usage({ key: record.id });
    expect(usage.map((u) => [u.operation, u.credits])).toEqual([
      ['crawl', 2],
      ['crawl', 1],
    ]);
    await a.core.keys.topUp(record.id, 10);
    expect((await call(a.url, 'POST', '/api/crawl', auth, { urls: [`${site.origin}/text`] })).status).toBe(200);
    expect((await a.core.store.keyById(record.id))?.balance).toBe(9);
  });

  it('charges nothing for a failed request and keeps unlimited keys unlimited', async () => {
    const a = await api();
    const { secret, record } = await a.core.keys.create({ name: 'free' });
    const auth = { 'x-api-key': secret };
    expect((await call(a.url, 'POST', '/api/crawl', auth, { urls: [] })).status).toBe(400);
    const failed = await call(a.url, 'POST', '/api/crawl', auth, { urls: ['ftp://example.com/x'] });
    expect(failed.body.metadata.credits_used).toBe(0);
    expect(
      (await call(a.url, 'POST', '/api/crawl', auth, { urls: [`${site.origin}/text`] })).body.metadata.credits_used,
    ).toBe(1);
    expect((await a.core.store.keyById(record.id))?.balance).toBeNull();
    const usage = await a.core.keys.usage({ key: record.id });
    expect(usage.reduce((s, u) => s + u.credits, 0)).toBe(1);
  });

  it('a page cached for one key is free for the next', async () => {
    const a = await startTestApi({ cache: { ttlMs: 60_000 } });
    apis.push(a);
    const one = await a.core.keys.create({ name: 'one', credits: 10 });
    const two = await a.core.keys.create({ name: 'two', credits: 10 });
    const body = { urls: [`${site.origin}/html`] };
    expect(
      (await call(a.url, 'POST', '/api/crawl', { 'x-api-key': one.secret }, body)).body.metadata.credits_used,
    ).toBe(1);
    const hit = await call(a.url, 'POST', '/api/crawl', { 'x-api-key': two.secret }, body);
    expect(hit.body.metadata).toMatchObject({ credits_used: 0, cached_free: 1 });
    expect((await a.core.store.keyById(two.record.id))?.balance).toBe(10);
  });
});

describe('rate limits', () => {
  it('answer 429 with Retry-After past the per-key limit, for that key only', async () => {
    const a = await api({ auth: { rateLimitRequests: 2, rateLimitWindowMs: 60_000 } });
    const one = await a.core.keys.create({ name: 'busy' });
    const two = await a.core.keys.create({ name: 'calm' });
    const body = { urls: ['not a url'] };
    for (let i = 0; i < 2; i++)
      expect((await call(a.url, 'POST', '/api/crawl', { 'x-api-key': one.secret }, body)).status).toBe(200);
    const limited = await call(a.url, 'POST', '/api/crawl', { 'x-api-key': one.secret }, body);
    expect(limited.status).toBe(429);
    expect(limited.body.error.code).toBe('rate_limited');
    const retryAfter = Number(limited.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect((await call(a.url, 'POST', '/api/crawl', { 'x-api-key': two.secret }, body)).status).toBe(200);
  });
});

describe('MCP over HTTP', () => {
  it('charges tool calls to the key that opened the session, and hides the session from other keys', async () => {
    const a = await api();
    const owner = await a.core.keys.create({ name: 'owner', credits: 1 });
    const other = await a.core.keys.create({ name: 'other', credits: 5 });
    const transport = new StreamableHTTPClientTransport(new URL(`${a.url}/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${owner.secret}` } },
    });
    const client = new Client({ name: 'test', version: '1.0.0' });
    await client.connect(transport);
    try {
      const first = await client.callTool({ name: 'extract_urls', arguments: { urls: [`${site.origin}/text`] } });
      expect(first.isError).toBeFalsy();
      expect((first.structuredContent as any).metadata.credits_used).toBe(1);
      expect((await a.core.store.keyById(owner.record.id))?.balance).toBe(0);
      const spent = await client.callTool({ name: 'extract_urls', arguments: { urls: [`${site.origin}/text`] } });
      expect(spent.isError).toBe(true);
      expect((spent.content as { text: string }[])[0]?.text).toMatch(/^insufficient_credits: /);

      // Another key cannot use this session.
      const hijack = await call(
        a.url,
        'POST',
        '/mcp',
        {
          authorization: `Bearer ${other.secret}`,
          'mcp-session-id': transport.sessionId as string,
          accept: 'application/json, text/event-stream',
        },
        { jsonrpc: '2.0', id: 9, method: 'tools/list' },
      );
      expect(hijack.status).toBe(404);
    } finally {
      await client.close();
    }
    expect((await a.core.store.keyById(other.record.id))?.balance).toBe(5);
  });

  it('answers a rate-limited tool call as an isError result starting with rate_limited', async () => {
    const a = await api({ auth: { rateLimitRequests: 1, rateLimitWindowMs: 60_000 } });
    const key = await a.core.keys.create({ name: 'busy' });
    const transport = new StreamableHTTPClientTransport(new URL(`${a.url}/mcp`), {
      requestInit: { headers: { 'x-api-key': key.secret } },
    });
    const client = new Client({ name: 'test', version: '1.0.0' });
    await client.connect(transport);
    try {
      const args = { name: 'extract_urls', arguments: { urls: ['not a url'] } };
      expect((await client.callTool(args)).isError).toBeFalsy();
      const limited = await client.callTool(args);
      expect(limited.isError).toBe(true);
      expect((limited.content as { text: string }[])[0]?.text).toMatch(/^rate_limited: .*retry in \d+ s/);
    } finally {
      await client.close();
    }
  });

  it('hides a legacy SSE stream from any key but the one that opened it', async () => {
    const a = await api();
    const owner = await a.core.keys.create({ name: 'owner' });
    const other = await a.core.keys.create({ name: 'other' });
    const controller = new AbortController();
    const stream = await fetch(`${a.url}/sse`, {
      headers: { 'x-api-key': owner.secret, accept: 'text/event-stream' },
      signal: controller.signal,
    });
    const reader = stream.body!.getReader();
    let text = '';
    while (!/sessionId=[^\s]+/.test(text)) text += new TextDecoder().decode((await reader.read()).value);
    const endpoint = /data: (\/messages\?sessionId=\S+)/.exec(text)?.[1] as string;
    const ping = { jsonrpc: '2.0', id: 1, method: 'ping' };
    expect((await call(a.url, 'POST', endpoint, { 'x-api-key': other.secret }, ping)).status).toBe(404);
    expect((await call(a.url, 'POST', endpoint, { 'x-api-key': owner.secret }, ping)).status).toBe(202);
    controller.abort();
  });

  it('charges legacy SSE tool calls to the key that opened the stream', async () => {
    const a = await api();
    const key = await a.core.keys.create({ name: 'sse', credits: 5 });
    const headers = { 'x-api-key': key.secret };
    const transport = new SSEClientTransport(new URL(`${a.url}/sse`), {
      eventSourceInit: {
        fetch: (url, init) =>
          fetch(url, { ...init, headers: { ...(init?.headers as Record<string, string>), ...headers } }),
      },
      requestInit: { headers },
    });
    const client = new Client({ name: 'test', version: '1.0.0' });
    await client.connect(transport);
    try {
      const result = await client.callTool({ name: 'extract_urls', arguments: { urls: [`${site.origin}/text`] } });
      expect((result.structuredContent as any).metadata.credits_used).toBe(1);
    } finally {
      await client.close();
    }
    expect((await a.core.store.keyById(key.record.id))?.balance).toBe(4);
  });
});
