/**
 * The guard proxy on its own (no browser): CONNECT tunnels and absolute-form requests
 * reach only what the address policy allows; a refused target gets a 403 and never a
 * connection; with an upstream (the stealth proxy) tunnels are chained after the same check.
 */
import http from 'node:http';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseAllowedOrigins } from '../../src/core/allowed-origins.js';
import { silentLogger } from '../../src/core/logger.js';
import { allowListPolicy } from '../../src/net/address-policy.js';
import { startGuardProxy, type GuardProxy } from '../../src/render/guard-proxy.js';
import { startFixtureSite, type FixtureSite } from '../helpers/fixture-site.js';

let site: FixtureSite;
let canary: FixtureSite;
let proxy: GuardProxy;
let open: GuardProxy;
let chained: GuardProxy;

beforeAll(async () => {
  [site, canary] = await Promise.all([startFixtureSite(), startFixtureSite()]);
  const policy = allowListPolicy(parseAllowedOrigins(`127.0.0.1:${site.port}`));
  proxy = await startGuardProxy({ policy, connectTimeoutMs: 2_000, logger: silentLogger });
  // An upstream that allows everything stands in for the operator's stealth proxy.
  open = await startGuardProxy({ policy: undefined, connectTimeoutMs: 2_000, logger: silentLogger });
  chained = await startGuardProxy({ policy, connectTimeoutMs: 2_000, logger: silentLogger, upstream: open.url });
});
afterAll(async () => {
  await Promise.all([proxy?.close(), open?.close(), chained?.close()]);
  await Promise.all([site?.close(), canary?.close()]);
});

/** Opens a CONNECT tunnel through `via`, sends a GET over it and returns the first response line. */
function throughTunnel(via: GuardProxy, authority: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(via.port, '127.0.0.1', () =>
      socket.write(`CONNECT ${authority} HTTP/1.1\r\nhost: ${authority}\r\n\r\n`),
    );
    let text = '';
    let sent = false;
    socket.on('data', (chunk) => {
      text += chunk.toString('latin1');
      if (!sent && text.startsWith('HTTP/1.1 200')) {
        sent = true;
        text = '';
        socket.write(`GET /text HTTP/1.1\r\nhost: ${authority}\r\nconnection: close\r\n\r\n`);
      }
    });
    socket.on('end', () => resolve(text.split('\r\n')[0] as string));
    socket.on('error', reject);
  });
}

function proxiedGet(via: GuardProxy, url: string, host = new URL(url).host): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port: via.port, path: url, headers: { host } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('guard proxy', () => {
  it('tunnels to an allowed origin, and refuses others with 403 before any connection', async () => {
    expect(await throughTunnel(proxy, `127.0.0.1:${site.port}`)).toBe('HTTP/1.1 200 OK');
    const before = proxy.refusals();
    for (const authority of [
      `127.0.0.1:${canary.port}`,
      `localhost:${canary.port}`,
      `[::ffff:127.0.0.1]:${canary.port}`,
      '169.254.169.254:80',
      '[::1]:443',
    ]) {
      expect(await throughTunnel(proxy, authority), authority).toMatch(/^HTTP\/1\.1 403/);
    }
    expect(proxy.refusals()).toBe(before + 5);
    expect(canary.connections()).toBe(0);
  });

  it('forwards absolute-form http requests under the same policy', async () => {
    expect(await proxiedGet(proxy, `${site.origin}/text`)).toBe(200);
    expect(await proxiedGet(proxy, `${canary.origin}/text`)).toBe(403);
    expect(await proxiedGet(proxy, `http://localhost:${canary.port}/text`)).toBe(403);
    expect(canary.connections()).toBe(0);
  });

  it('refuses what is not a proxy request', async () => {
    const before = site.hits('/text');
    expect(await proxiedGet(proxy, '/text', `127.0.0.1:${site.port}`)).toBe(400);
    expect(site.hits('/text')).toBe(before);
  });

  it('chains through the upstream proxy after checking the target itself', async () => {
    expect(await throughTunnel(chained, `127.0.0.1:${site.port}`)).toBe('HTTP/1.1 200 OK');
    expect(await proxiedGet(chained, `${site.origin}/text`)).toBe(200);
    expect(await throughTunnel(chained, `127.0.0.1:${canary.port}`)).toMatch(/^HTTP\/1\.1 403/);
    expect(await proxiedGet(chained, `${canary.origin}/text`)).toBe(403);
    expect(canary.connections()).toBe(0);
  });
});
