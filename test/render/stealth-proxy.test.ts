/**
 * WEBSEARCH_STEALTH_PROXY: stealth requests — the static fetch and the browser's, a local
 * browser's or a remote one's (fetched here) — go through the operator's proxy, after the
 * address policy was applied to the target here; requests without stealth never touch it.
 */
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseAllowedOrigins } from '../../src/core/allowed-origins.js';
import { silentLogger } from '../../src/core/logger.js';
import { browserProfile } from '../../src/net/browser-profile.js';
import { GuardedFetcher } from '../../src/net/guarded-fetcher.js';
import { startGuardProxy, type GuardProxy } from '../../src/render/guard-proxy.js';
import { describeOnBrowsers, renderingApi } from '../helpers/browser-targets.js';
import { fetchConfig } from '../helpers/fetch-config.js';
import { startFixtureSite, type FixtureSite } from '../helpers/fixture-site.js';
import { renderScenarios } from '../helpers/render-scenarios.js';

let site: FixtureSite;
let canary: FixtureSite;
let upstream: GuardProxy;
/** A TCP front of the upstream proxy that counts the connections it gets, and the requests for /wall it carries. */
let front: net.Server;
let frontConnections = 0;
let wallRequests = 0;
let proxyUrl = '';

beforeAll(async () => {
  [site, canary] = await Promise.all([startFixtureSite({ scenarios: renderScenarios(() => 1) }), startFixtureSite()]);
  upstream = await startGuardProxy({ policy: undefined, connectTimeoutMs: 2_000, logger: silentLogger });
  front = net.createServer((socket) => {
    frontConnections++;
    // The site is plain http: its requests cross the tunnels in clear.
    socket.on(
      'data',
      (chunk: Buffer) => (wallRequests += chunk.toString('latin1').match(/^GET \S*\/wall HTTP/gm)?.length ?? 0),
    );
    const out = net.connect(upstream.port, '127.0.0.1');
    socket.pipe(out).pipe(socket);
    socket.on('error', () => out.destroy());
    out.on('error', () => socket.destroy());
  });
  await new Promise<void>((resolve) => front.listen(0, '127.0.0.1', resolve));
  // The upstream stands in for the operator's proxy; it is a guard proxy, so it wants its credentials.
  const { username, password } = upstream.credentials;
  proxyUrl = `http://${username}:${password}@127.0.0.1:${(front.address() as net.AddressInfo).port}`;
});
afterAll(async () => {
  front?.close();
  await upstream?.close();
  await Promise.all([site?.close(), canary?.close()]);
});

describe('the static fetch with a stealth proxy', () => {
  it('sends stealth requests through it, after the address policy; others directly', async () => {
    const client = new GuardedFetcher(
      fetchConfig({ allowPrivateAddresses: parseAllowedOrigins(`127.0.0.1:${site.port}`), stealthProxy: proxyUrl }),
    );
    try {
      const before = frontConnections;
      expect((await client.fetch(`${site.origin}/text`)).status).toBe(200);
      expect(frontConnections).toBe(before);
      const stealthy = await client.fetch(`${site.origin}/echo`, { profile: browserProfile() });
      expect(JSON.parse(Buffer.from(stealthy.body).toString('utf8')).headers['user-agent']).toBe(
        browserProfile().userAgent,
      );
      expect(frontConnections).toBeGreaterThan(before);
      const used = frontConnections;
      await expect(client.fetch(`${canary.origin}/text`, { profile: browserProfile() })).rejects.toMatchObject({
        code: 'forbidden_address',
      });
      await expect(
        client.fetch(`http://localhost:${canary.port}/text`, { profile: browserProfile() }),
      ).rejects.toMatchObject({ code: 'forbidden_address' });
      expect(frontConnections).toBe(used);
      expect(canary.connections()).toBe(0);
    } finally {
      await client.close();
    }
  });
});

describeOnBrowsers(['local', 'playwright'], 'the browser with a stealth proxy', (target) => {
  it('the stealth retry of a bot wall goes through it', async () => {
    const api = await renderingApi(target.render(), `127.0.0.1:${site.port}`, { fetch: { stealthProxy: proxyUrl } });
    try {
      const before = { connections: frontConnections, walls: wallRequests };
      const { json } = await api.crawl({ urls: [`${site.origin}/wall`], stealth: true });
      expect(json.results[0]).toMatchObject({ success: true, rendered: true });
      expect(json.metadata.credits_used).toBe(5);
      expect(frontConnections).toBeGreaterThan(before.connections);
      // The static fetch, then the browser's challenge and content: all through the proxy.
      expect(wallRequests - before.walls).toBeGreaterThanOrEqual(3);
      const plain = frontConnections;
      await api.crawl({ urls: [`${site.origin}/spa`] });
      expect(frontConnections).toBe(plain);
    } finally {
      await api.close();
    }
  });
});
