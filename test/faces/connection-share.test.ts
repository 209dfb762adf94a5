/**
 * One client cannot take every connection (issue 34, item 2), against the real server: a
 * client address keeps to its share (its own idle sockets make room for its next one; with
 * all of them busy, one more is refused with 429 and the one error body), and near the
 * cap idle sockets are closed first, so another client (a second loopback address) still
 * gets in.
 */
import { request } from 'node:http';
import { connect, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { clientOf } from '../../src/faces/http/connection-share.js';
import type { TestApi } from '../helpers/test-server.js';
import { startTestApi } from '../helpers/test-server.js';

let api: TestApi | undefined;
const opened: Socket[] = [];
afterEach(async () => {
  for (const socket of opened.splice(0)) socket.destroy();
  await api?.close();
  api = undefined;
});

interface Held {
  socket: Socket;
  received: string;
  closed: boolean;
}

/** Opens `n` sockets from `localAddress` that send nothing, and waits until each is connected or closed. */
async function holdIdle(port: number, n: number, localAddress = '127.0.0.1'): Promise<Held[]> {
  const held = await Promise.all(
    Array.from(
      { length: n },
      () =>
        new Promise<Held>((resolve) => {
          const socket = connect({ port, host: '127.0.0.1', localAddress });
          opened.push(socket);
          const h: Held = { socket, received: '', closed: false };
          socket.on('data', (d) => (h.received += d));
          socket.on('error', () => undefined);
          socket.on('close', () => (h.closed = true));
          socket.once('connect', () => resolve(h));
          socket.once('close', () => resolve(h));
        }),
    ),
  );
  // Let the server answer the ones it refuses.
  await new Promise((r) => setTimeout(r, 300));
  return held;
}

/** GET /healthz from a given local address, or the error that stopped it. */
function healthz(port: number, localAddress: string): Promise<number | string> {
  return new Promise((resolve) => {
    const req = request(
      { host: '127.0.0.1', port, path: '/healthz', localAddress, agent: false, timeout: 3_000 },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', (err: NodeJS.ErrnoException) => resolve(err.code ?? err.message));
    req.end();
  });
}

describe('the per-address share of the connection cap', () => {
  it('keeps one address to its share (a tenth of the cap by default); another address gets in', async () => {
    api = await startTestApi({ server: { maxConnections: 40 } });
    const port = api.server.port;
    // 40 idle sockets from one address: each past the 4th takes the place of its oldest idle one.
    const held = await holdIdle(port, 40);
    expect(held.filter((h) => !h.closed).length).toBe(4);
    expect(await healthz(port, '127.0.0.2')).toBe(200);
    // The holder's own idle sockets make room for its real request.
    expect(await healthz(port, '127.0.0.1')).toBe(200);

    // Four connections busy with a request (a body that never comes): a fifth is refused.
    const busy = await holdIdle(port, 4, '127.0.0.3');
    for (const h of busy)
      h.socket.write(
        `POST /api/crawl HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\ncontent-type: application/json\r\ncontent-length: 100\r\n\r\n`,
      );
    await new Promise((r) => setTimeout(r, 200));
    const [fifth] = await holdIdle(port, 1, '127.0.0.3');
    expect(fifth?.closed).toBe(true);
    expect(fifth?.received).toMatch(/^HTTP\/1\.1 429 /);
    expect(fifth?.received).toMatch(/\r\nretry-after: 1\r\n/i);
    expect(JSON.parse(fifth?.received.split('\r\n\r\n')[1] ?? '{}')).toMatchObject({
      error: { code: 'rate_limited', message: expect.stringMatching(/share of the server's connections \(4\)/) },
    });
    expect(busy.every((h) => !h.closed)).toBe(true);
    expect(await healthz(port, '127.0.0.2')).toBe(200);
  });

  it('closes idle sockets first near the cap, so a newcomer gets in', async () => {
    api = await startTestApi({ server: { maxConnections: 20, maxConnectionsPerAddress: 20 } });
    const held = await holdIdle(api.server.port, 20);
    expect(held.filter((h) => !h.closed).length).toBeLessThan(20);
    for (let i = 0; i < 3; i++) expect(await healthz(api.server.port, '127.0.0.2')).toBe(200);
  });
});

describe('clientOf', () => {
  it('is the IPv4 address (mapped or not) or the IPv6 /64', () => {
    expect(clientOf('127.0.0.2')).toBe('127.0.0.2');
    expect(clientOf('::ffff:10.1.2.3')).toBe('10.1.2.3');
    expect(clientOf('2001:db8:1:2:aaaa::1')).toBe('2001:db8:1:2::/64');
    expect(clientOf('2001:db8:1:2::ffff')).toBe('2001:db8:1:2::/64');
    expect(clientOf('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
  });
});
