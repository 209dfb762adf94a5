/**
 * The guard proxy on its own (no browser): CONNECT tunnels and absolute-form requests
 * reach only what the address policy allows; a refused target gets a 403 and never a
 * connection; with an upstream (the stealth proxy) tunnels are chained after the same check;
 * without the launch's credentials nothing is proxied at all (407, nothing dialled).
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
  chained = await startGuardProxy({
    policy,
    connectTimeoutMs: 2_000,
    logger: silentLogger,
    upstream: withCredentials(open),
  });
});
afterAll(async () => {
  await Promise.all([proxy?.close(), open?.close(), chained?.close()]);
  await Promise.all([site?.close(), canary?.close()]);
});

/** The proxy's URL with its per-launch credentials, as the browser (or a chained guard) is given them. */
function withCredentials(proxy: GuardProxy): string {
  const { username, password } = proxy.credentials;
  return `http://${username}:${password}@127.0.0.1:${proxy.port}`;
}

function basic(username: string, password: string): string {
  return `Basic ${Buffer.from(`${username}:${password}`).toString('base64')}`;
}

/** The Proxy-Authorization header of `via`'s own credentials. */
function authOf(via: GuardProxy): string {
  return basic(via.credentials.username, via.credentials.password);
}

/** Opens a CONNECT tunnel through `via`, sends a GET over it and returns the first response line. */
/** `auth`: the Proxy-Authorization header (default: the proxy's own credentials; null: none). */
function throughTunnel(via: GuardProxy, authority: string, auth: string | null = authOf(via)): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(via.port, '127.0.0.1', () =>
      socket.write(
        `CONNECT ${authority} HTTP/1.1\r\nhost: ${authority}\r\n${auth ? `proxy-authorization: ${auth}\r\n` : ''}\r\n`,
      ),
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
    socket.on('close', () => resolve(text.split('\r\n')[0] as string));
    socket.on('error', reject);
  });
}

function proxiedGet(
  via: GuardProxy,
  url: string,
  host = new URL(url).host,
  auth: string | null = authOf(via),
): Promise<number> {
  return proxiedRequest(via, url, { host, ...(auth ? { 'proxy-authorization': auth } : {}) }).then((r) => r.status);
}

function proxiedRequest(
  via: GuardProxy,
  path: string,
  headers: Record<string, string>,
): Promise<{ status: number; challenge: string | undefined }> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port: via.port, path, headers }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode ?? 0, challenge: res.headers['proxy-authenticate'] }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('guard proxy', () => {
  it('proxies nothing without its per-launch credentials: 407 with a Basic challenge, nothing dialled', async () => {
    // The target is an allowed origin: only the missing credentials stop the request.
    const connections = site.connections();
    const target = `127.0.0.1:${site.port}`;
    const wrong = [null, basic(proxy.credentials.username, 'guess'), authOf(open), 'Bearer x', basic('', '')];
    for (const auth of wrong) {
      expect(await throughTunnel(proxy, target, auth), String(auth)).toBe('HTTP/1.1 407 Proxy Authentication Required');
      const get = await proxiedRequest(proxy, `${site.origin}/text`, {
        host: target,
        ...(auth ? { 'proxy-authorization': auth } : {}),
      });
      expect(get).toEqual({ status: 407, challenge: 'Basic realm="websearch-mcp browser guard", charset="UTF-8"' });
      const upgrade = await proxiedRequest(proxy, `${site.origin}/ws`, {
        host: target,
        connection: 'upgrade',
        upgrade: 'websocket',
        ...(auth ? { 'proxy-authorization': auth } : {}),
      });
      expect(upgrade.status).toBe(407);
    }
    expect(site.connections()).toBe(connections);
    // Each launch has its own secret.
    expect(proxy.credentials.password).not.toBe(open.credentials.password);
    expect(proxy.credentials.password.length).toBeGreaterThanOrEqual(32);
    // With them, the same requests go through.
    expect(await throughTunnel(proxy, target)).toBe('HTTP/1.1 200 OK');
    expect(site.connections()).toBeGreaterThan(connections);
  });

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
