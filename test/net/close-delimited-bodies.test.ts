/**
 * Bodies delimited by the connection's close (HTTP/1.0 style) while the reader is held:
 * undici 7 pauses its parser when a body's reader falls behind, and a peer that closes
 * while it is paused tripped an uncatchable assertion that ended the process. The fetcher
 * never pushes back on the parser (net/send-request.ts), and an exception inside undici's
 * socket handlers is that connection's error, not the process's (contain-socket-faults.ts).
 */
import { connect, createServer, type Server, type Socket } from 'node:net';
import { Agent, request } from 'undici';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../../src/core/errors.js';
import { containSocketFaults, HTTP_CLIENT_FAULT } from '../../src/net/contain-socket-faults.js';
import { createConnector, systemResolver } from '../../src/net/connector.js';
import { mapFetchError } from '../../src/net/fetch-errors.js';
import { GuardedFetcher } from '../../src/net/guarded-fetcher.js';
import { fetchConfig } from '../helpers/fetch-config.js';
import { markerOf, rawPage, startRawOrigin, type RawOrigin } from '../helpers/raw-origin.js';

let origin: RawOrigin;
let client: GuardedFetcher;
const text = (bytes: Uint8Array) => Buffer.from(bytes).toString('latin1');
const hold = (ms: number) => () => new Promise<void>((resolve) => setTimeout(resolve, ms));

beforeAll(async () => {
  origin = await startRawOrigin();
  client = new GuardedFetcher(fetchConfig({ allowPrivateAddresses: true, timeoutMs: 10_000 }));
});
afterAll(async () => {
  await client?.close();
  await origin?.close();
});

describe('a body delimited by the close, read by a reader that is held', () => {
  it('arrives whole when its last piece lands while the first-bytes hook holds the reader', async () => {
    // Four pieces of 25 KB, 30 ms apart, then the close: the first wakes the hook, the
    // other three wait for it, and the last takes them past undici's 64 KiB mark, the moment
    // its parser used to pause, with nothing left to read but the close.
    const path = '/close10/four-pieces';
    const res = await client.fetch(`${origin.origin}${path}?size=100000&pieces=4&gap=30`, {
      onFirstBytes: hold(250),
    });
    expect(res.status).toBe(200);
    expect(res.body.length).toBe(rawPage(path, 100_000).length);
    expect(text(res.body).endsWith(`${markerOf(path)}</p></article></body></html>`)).toBe(true);
  });

  it('hunts the timing: many pages of many sizes, pieces and gaps, twelve at once, all whole', async () => {
    // A fixed sequence (a linear congruential generator) so a failure can be replayed.
    let seed = 7;
    const next = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
    for (let round = 0; round < 8; round++) {
      const batch = Array.from({ length: 12 }, (_, i) => {
        const scenario = next() < 0.5 ? 'close10' : 'close11';
        const path = `/${scenario}/r${round}-${i}`;
        const size = 1_000 + Math.floor(next() * 250_000);
        const pieces = 1 + Math.floor(next() * 6);
        const gap = Math.floor(next() * 8);
        const held = Math.floor(next() * 40);
        return { path, size, url: `${origin.origin}${path}?size=${size}&pieces=${pieces}&gap=${gap}`, held };
      });
      const pages = await Promise.all(batch.map((b) => client.fetch(b.url, { onFirstBytes: hold(b.held) })));
      pages.forEach((page, i) => {
        const { path, size } = batch[i]!;
        expect(page.body.length, path).toBe(rawPage(path, size).length);
        expect(text(page.body), path).toContain(markerOf(path));
      });
    }
  });

  it('still fails a body past the cap while its reader is held, as too_large', async () => {
    const error = await client
      .fetch(`${origin.origin}/close10/big?size=400000&pieces=8&gap=2`, {
        maxBytes: 100_000,
        onFirstBytes: hold(200),
      })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).code).toBe('too_large');
  });
});

describe('an exception inside the HTTP client is its connection error, not the process end', () => {
  let server: Server;
  let port = 0;
  beforeAll(async () => {
    server = createServer((socket) => {
      socket.on('error', () => undefined);
      socket.end('hello');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as { port: number }).port;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const sockets: Socket[] = [];
  afterEach(() => sockets.splice(0).forEach((s) => s.destroy()));

  it('destroys the socket with HTTP_CLIENT_FAULT when one of its listeners throws', async () => {
    const socket = containSocketFaults(connect(port, '127.0.0.1'));
    sockets.push(socket);
    socket.on('data', () => {
      throw Object.assign(new Error('The expression evaluated to a falsy value:\n\n  assert(!this.paused)\n'), {
        code: 'ERR_ASSERTION',
      });
    });
    const error = await new Promise<NodeJS.ErrnoException>((resolve) => socket.on('error', resolve));
    expect(error.code).toBe(HTTP_CLIENT_FAULT);
    expect(error.message).toBe('ERR_ASSERTION: assert(!this.paused)');
    await new Promise((resolve) => socket.once('close', resolve));
    const mapped = mapFetchError(error, { host: `127.0.0.1:${port}`, idleTimeoutMs: 1, connectTimeoutMs: 1 });
    expect(mapped.code).toBe('network');
    expect(mapped.message).toContain('assert(!this.paused)');
  });

  it("contains undici's own paused-parser assertion on the project's connector", async () => {
    // undici.request with the default highWaterMark, its body left unread: the exact trigger
    // of the assertion in undici 7. Through our connector the request fails (or, on an undici
    // without the bug, completes); either way this process goes on.
    const agent = new Agent({
      connect: createConnector({ timeoutMs: 5_000, policy: undefined, resolver: systemResolver }),
    });
    try {
      const path = '/close10/undici';
      const res = await request(`${origin.origin}${path}?size=70000&pieces=2&gap=30`, { dispatcher: agent });
      await new Promise((resolve) => setTimeout(resolve, 150));
      const outcome = await res.body.text().then(
        (body) => ({ body }),
        (error: NodeJS.ErrnoException) => ({ error }),
      );
      if ('error' in outcome) expect(outcome.error.code).toBe(HTTP_CLIENT_FAULT);
      else expect(outcome.body).toContain(markerOf(path));
    } finally {
      await agent.close();
    }
  });
});
