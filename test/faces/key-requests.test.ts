/**
 * One key sending from many addresses (security issue, item 3): each address keeps its
 * share of the connections, but a key's requests in flight (bodies being read included)
 * are bounded per key too. Past the bound one more gets 429 rate_limited with Retry-After
 * (and its connection closed, nothing charged); another key still gets through; and the
 * count drops back as requests end or their clients go away.
 */
import { connect, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { limitKeyRequests } from '../../src/faces/http/key-requests.js';
import type { TestApi } from '../helpers/test-server.js';
import { startTestApi } from '../helpers/test-server.js';

let api: TestApi | undefined;
const opened: Socket[] = [];
afterEach(async () => {
  for (const socket of opened.splice(0)) socket.destroy();
  await api?.close();
  api = undefined;
});

interface Slow {
  socket: Socket;
  received: string;
  closed: boolean;
  /** Sends the rest of the body: the request then ends (a 400: no URL given). */
  finish(): void;
}

const BODY = '{"urls": []}';
const settle = (ms = 300) => new Promise((r) => setTimeout(r, ms));

/** A POST /api/crawl from `localAddress` whose body stops after its first byte (no key: open mode). */
function slowBody(port: number, secret: string | undefined, localAddress: string): Promise<Slow> {
  return new Promise((resolve) => {
    const socket = connect({ port, host: '127.0.0.1', localAddress });
    opened.push(socket);
    const slow: Slow = {
      socket,
      received: '',
      closed: false,
      finish: () => void socket.write(BODY.slice(1)),
    };
    socket.on('data', (d) => (slow.received += d));
    socket.on('error', () => undefined);
    socket.on('close', () => (slow.closed = true));
    socket.once('connect', () => {
      socket.write(
        `POST /api/crawl HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n${secret ? `Authorization: Bearer ${secret}\r\n` : ''}` +
          `Content-Type: application/json\r\nContent-Length: ${BODY.length}\r\n\r\n${BODY.slice(0, 1)}`,
      );
      resolve(slow);
    });
  });
}

async function usage(port: number, secret: string, localAddress: string): Promise<Response> {
  // fetch cannot choose its local address: node's http can.
  const { request } = await import('node:http');
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        path: '/api/usage',
        localAddress,
        agent: false,
        headers: { authorization: `Bearer ${secret}` },
      },
      (res) => {
        let text = '';
        res.on('data', (d) => (text += d));
        res.on('end', () =>
          resolve(new Response(text, { status: res.statusCode ?? 0, headers: res.headers as Record<string, string> })),
        );
      },
    );
    req.on('error', reject);
    req.end();
  });
}

describe('the per-key bound of requests in flight', () => {
  it('holds one key to its bound across addresses, lets another key through, and counts back down', async () => {
    let one = '';
    let oneId = '';
    let other = '';
    api = await startTestApi(
      { server: { maxRequestsPerKey: 4, requestTimeoutMs: 60_000 } },
      {
        beforeStart: async (core) => {
          const created = await core.keys.create({ name: 'one', credits: 10 });
          [one, oneId] = [created.secret, created.record.id];
          other = (await core.keys.create({ name: 'other', credits: 10 })).secret;
        },
      },
    );
    const port = api.server.port;
    const addresses = ['127.0.0.1', '127.0.0.2', '127.0.0.3'];
    // Six slow bodies of one key from three addresses (two each: well inside each address's share).
    const slow: Slow[] = [];
    for (const address of addresses) for (let i = 0; i < 2; i++) slow.push(await slowBody(port, one, address));
    await settle();
    const refused = slow.filter((s) => s.received !== '');
    expect(refused).toHaveLength(2);
    for (const s of refused) {
      expect(s.received).toMatch(/^HTTP\/1\.1 429 /);
      expect(s.received).toMatch(/\r\nretry-after: 1\r\n/i);
      expect(s.received).toContain('"code":"rate_limited"');
      // Its connection is closed, not kept busy by the body it will never finish.
      expect(s.closed).toBe(true);
    }
    const waiting = slow.filter((s) => s.received === '');
    expect(waiting).toHaveLength(4);

    // Another key, from one of the same addresses, gets through; the full key does not.
    expect((await usage(port, other, '127.0.0.2')).status).toBe(200);
    const full = await usage(port, one, '127.0.0.3');
    expect(full.status).toBe(429);
    expect(full.headers.get('retry-after')).toBe('1');
    // Nothing was charged for the refusals: the key has every credit.
    expect((await api.core.store.keyById(oneId))?.balance).toBe(10);

    // A client that goes away frees its place at once.
    waiting[0]?.socket.destroy();
    await settle();
    expect((await usage(port, one, '127.0.0.1')).status).toBe(200);
    // So does one whose request ends (its body completed: a 400, no URL).
    for (const s of waiting.slice(1)) s.finish();
    await settle();
    for (const s of waiting.slice(1)) expect(s.received).toMatch(/^HTTP\/1\.1 400 /);

    // Nothing is left counted: the key may have four bodies in flight again, not a fifth.
    const again: Slow[] = [];
    for (let i = 0; i < 5; i++) again.push(await slowBody(port, one, addresses[i % 3] as string));
    await settle();
    expect(again.filter((s) => s.received !== '').map((s) => s.received.slice(0, 12))).toEqual(['HTTP/1.1 429']);
  }, 30_000);

  it('without keys (open mode) leaves requests to the per-address share', async () => {
    api = await startTestApi({ server: { maxRequestsPerKey: 1, requestTimeoutMs: 60_000 } });
    const port = api.server.port;
    const slow: Slow[] = [];
    for (let i = 0; i < 3; i++) slow.push(await slowBody(port, undefined, '127.0.0.1'));
    await settle();
    expect(slow.map((s) => s.received)).toEqual(['', '', '']);
    for (const s of slow) s.finish();
    await settle();
    for (const s of slow) expect(s.received).toMatch(/^HTTP\/1\.1 400 /);
  });
});

describe('limitKeyRequests', () => {
  it('counts per key, refuses past the bound, and forgets a key whose requests all ended', () => {
    const limits = limitKeyRequests(2);
    const [r1, r2] = [limits.admit('k'), limits.admit('k')];
    expect(limits.admit('k')).toBeUndefined();
    expect(limits.admit('j')).toBeDefined();
    r1?.();
    r1?.(); // a second call of the same release counts nothing
    expect(limits.inFlight('k')).toBe(1);
    r2?.();
    expect(limits.inFlight('k')).toBe(0);
    expect(limits.admit('k')).toBeDefined();
  });
});
