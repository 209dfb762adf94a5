/**
 * What a socket without the guard proxy's credentials can hold (issue: a local process
 * opened ~20,000 of them and took the server near its file-descriptor limit): the 407
 * closes it even when the client keeps its own end open; a silent or half-sent one is
 * closed after the headers timeout, an idle keep-alive one after the idle timeout; past
 * the cap, a new socket evicts the oldest unproven one, so a flood of 2,000 leaves the
 * proxy at most its cap open, the process's descriptors bounded, the browser's proven
 * sockets untouched and its new ones let in.
 */
import net from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { parseAllowedOrigins } from '../../src/core/allowed-origins.js';
import { silentLogger } from '../../src/core/logger.js';
import { allowListPolicy } from '../../src/net/address-policy.js';
import { startGuardProxy, type GuardProxy, type GuardProxyOptions } from '../../src/render/guard-proxy.js';
import { startFixtureSite, type FixtureSite } from '../helpers/fixture-site.js';
import { flood, openFds, until, type Flood } from '../helpers/socket-flood.js';

let site: FixtureSite;
const proxies: GuardProxy[] = [];
const floods: Flood[] = [];

beforeAll(async () => {
  site = await startFixtureSite();
});
afterEach(async () => {
  for (const f of floods.splice(0)) f.stop();
  await Promise.all(proxies.splice(0).map((p) => p.close()));
});
afterAll(async () => {
  await site?.close();
});

async function proxyWith(options: Partial<GuardProxyOptions> = {}): Promise<GuardProxy> {
  const proxy = await startGuardProxy({
    policy: allowListPolicy(parseAllowedOrigins(`127.0.0.1:${site.port}`)),
    connectTimeoutMs: 2_000,
    logger: silentLogger,
    ...options,
  });
  proxies.push(proxy);
  return proxy;
}

const authOf = (proxy: GuardProxy): string =>
  `Basic ${Buffer.from(`${proxy.credentials.username}:${proxy.credentials.password}`).toString('base64')}`;
const BAD_AUTH = `Basic ${Buffer.from('browser:guess').toString('base64')}`;
const BAD_CONNECT = `CONNECT 127.0.0.1:443 HTTP/1.1\r\nhost: 127.0.0.1:443\r\nproxy-authorization: ${BAD_AUTH}\r\n\r\n`;

/**
 * A raw client socket that keeps its own end open after the server's FIN (as a hostile
 * client would), with what it received and whether the server ended its side.
 */
function rawClient(port: number): Promise<{ socket: net.Socket; text: () => string; ended: () => boolean }> {
  return new Promise((resolve, reject) => {
    let text = '';
    let ended = false;
    const socket = net.connect({ port, host: '127.0.0.1', allowHalfOpen: true }, () =>
      resolve({ socket, text: () => text, ended: () => ended }),
    );
    socket.on('data', (chunk: Buffer) => (text += chunk.toString('latin1')));
    socket.on('end', () => (ended = true));
    socket.on('error', () => undefined);
    socket.once('error', reject);
  });
}

/** An authenticated CONNECT tunnel to the site, open and ready for bytes. */
async function openTunnel(proxy: GuardProxy): Promise<{ socket: net.Socket; get: () => Promise<string> }> {
  const client = await rawClient(proxy.port);
  const authority = `127.0.0.1:${site.port}`;
  client.socket.write(
    `CONNECT ${authority} HTTP/1.1\r\nhost: ${authority}\r\nproxy-authorization: ${authOf(proxy)}\r\n\r\n`,
  );
  if (!(await until(() => client.text().includes('\r\n\r\n'), 5_000))) throw new Error('no answer to CONNECT');
  expect(client.text()).toMatch(/^HTTP\/1\.1 200/);
  const get = async (): Promise<string> => {
    const before = client.text().length;
    client.socket.write(`GET /text HTTP/1.1\r\nhost: ${authority}\r\n\r\n`);
    if (!(await until(() => client.text().slice(before).includes('\r\n\r\n'), 5_000))) return 'no answer';
    return client.text().slice(before).split('\r\n')[0] as string;
  };
  return { socket: client.socket, get };
}

/** A CONNECT through `proxy` from a fresh socket, as the browser opens one: the first line of the answer. */
async function freshTunnelStatus(proxy: GuardProxy): Promise<string> {
  try {
    const tunnel = await openTunnel(proxy);
    const status = await tunnel.get();
    tunnel.socket.destroy();
    return status;
  } catch (error) {
    return (error as Error).message;
  }
}

describe('the guard proxy under sockets without its credentials', () => {
  it('closes the socket after a 407 (CONNECT, upgrade, absolute form) though the client keeps its end open', async () => {
    const proxy = await proxyWith();
    const authority = `127.0.0.1:${site.port}`;
    for (const request of [
      `CONNECT ${authority} HTTP/1.1\r\nhost: ${authority}\r\nproxy-authorization: ${BAD_AUTH}\r\n\r\n`,
      `GET ${site.origin}/ws HTTP/1.1\r\nhost: ${authority}\r\nconnection: upgrade\r\nupgrade: websocket\r\n\r\n`,
      `GET ${site.origin}/text HTTP/1.1\r\nhost: ${authority}\r\n\r\n`,
    ]) {
      const client = await rawClient(proxy.port);
      client.socket.write(request);
      expect(await until(() => client.ended(), 5_000), request).toBe(true);
      expect(client.text()).toMatch(/^HTTP\/1\.1 407 /);
      // The proxy's side is gone, not only half-closed: nothing of it is held.
      expect(await until(() => proxy.connections() === 0, 2_000), request).toBe(true);
      client.socket.destroy();
    }
  });

  it('closes a socket that sends no request head within the headers timeout; a tunnel may idle longer', async () => {
    const proxy = await proxyWith({ headersTimeoutMs: 400 });
    const tunnel = await openTunnel(proxy);
    const started = performance.now();
    const silent = await rawClient(proxy.port);
    const halfSent = await rawClient(proxy.port);
    halfSent.socket.write(`CONNECT 127.0.0.1:${site.port} HTTP/1.1\r\nhost: 127.0.0.1\r\n`);
    expect(await until(() => silent.ended() && halfSent.ended(), 10_000)).toBe(true);
    expect(performance.now() - started).toBeGreaterThanOrEqual(300);
    expect(await until(() => proxy.connections() === 1, 2_000)).toBe(true);
    silent.socket.destroy();
    halfSent.socket.destroy();
    // The browser's tunnel is past the head: it lives as long as its bytes flow, or not.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(await tunnel.get()).toBe('HTTP/1.1 200 OK');
    tunnel.socket.destroy();
  });

  it('closes an idle keep-alive socket after the idle timeout', async () => {
    const proxy = await proxyWith({ idleTimeoutMs: 300 });
    const client = await rawClient(proxy.port);
    client.socket.write(
      `GET ${site.origin}/text HTTP/1.1\r\nhost: 127.0.0.1:${site.port}\r\nproxy-authorization: ${authOf(proxy)}\r\n\r\n`,
    );
    expect(await until(() => client.text().includes('\r\n\r\n'), 5_000)).toBe(true);
    const answered = performance.now();
    expect(client.text()).toMatch(/^HTTP\/1\.1 200/);
    expect(client.text()).not.toMatch(/\r\nconnection: close/i);
    // node:http's own default is 5 s.
    expect(await until(() => client.ended(), 4_000)).toBe(true);
    expect(performance.now() - answered).toBeGreaterThanOrEqual(200);
    client.socket.destroy();
  });

  it('holds at most its cap under a flood of 2,000 sockets; the browser keeps its own and gets new ones', async () => {
    const cap = 64;
    const proxy = await proxyWith({ maxSockets: cap });
    // The browser's tunnel, proven before the flood.
    const held = await openTunnel(proxy);
    const baseline = openFds();
    let peakConnections = 0;
    let peakFds = 0;
    const sampler = setInterval(() => {
      peakConnections = Math.max(peakConnections, proxy.connections());
      peakFds = Math.max(peakFds, openFds());
    }, 5);
    try {
      const attack = flood(proxy.port, 2_000, BAD_CONNECT);
      floods.push(attack);
      const { connected } = await attack.ready;
      expect(connected).toBeGreaterThan(1_000);
      // The flood's silent sockets fill the cap until their headers timeout (5 s): the
      // browser's new sockets get in all the same, each evicting the oldest of them.
      for (let i = 0; i < 5; i++) expect(await freshTunnelStatus(proxy)).toBe('HTTP/1.1 200 OK');
      expect(await held.get()).toBe('HTTP/1.1 200 OK');
    } finally {
      clearInterval(sampler);
    }
    console.info(
      `flood of 2,000: proxy peak ${peakConnections} sockets (cap ${cap}), ${proxy.turnedAway()} turned away, descriptors +${peakFds - baseline}`,
    );
    expect(peakConnections).toBeLessThanOrEqual(cap);
    expect(proxy.turnedAway()).toBeGreaterThan(300);
    // The proxy's client sockets, their dialled sockets and this test's own few.
    expect(peakFds - baseline).toBeLessThan(cap + 40);
    held.socket.destroy();
  });
});
