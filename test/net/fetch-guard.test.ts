/**
 * The SSRF guard end to end: with the default configuration the fixture site (on
 * 127.0.0.1) is unreachable under every spelling of its address, and the site proves it
 * never even saw a connection.
 */
import net from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { AppError } from '../../src/core/errors.js';
import { isForbiddenAddress } from '../../src/net/address-policy.js';
import { createConnector, guardedLookup, type Resolver } from '../../src/net/connector.js';
import { GuardedFetcher } from '../../src/net/guarded-fetcher.js';
import { fetchConfig } from '../helpers/fetch-config.js';
import { startFixtureSite, type FixtureSite } from '../helpers/fixture-site.js';

let site: FixtureSite;
const clients: GuardedFetcher[] = [];

function fetcher(...args: ConstructorParameters<typeof GuardedFetcher>): GuardedFetcher {
  const client = new GuardedFetcher(...args);
  clients.push(client);
  return client;
}

/** Fake DNS: good.test → the fixture; rebind.test → the fixture AND a private address. */
const resolver: Resolver = async (hostname) => {
  if (hostname === 'good.test') return [{ address: '127.0.0.1', family: 4 }];
  if (hostname === 'rebind.test')
    return [
      { address: '127.0.0.1', family: 4 },
      { address: '10.0.0.5', family: 4 },
    ];
  if (hostname === 'meta.test') return [{ address: '169.254.169.254', family: 4 }];
  throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
};
/** Everything the default policy forbids, except the fixture's own address. */
const fixtureOnly = (ip: string) => ip !== '127.0.0.1' && isForbiddenAddress(ip);

beforeAll(async () => {
  site = await startFixtureSite();
});
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
});
afterAll(async () => {
  await site?.close();
});

describe('default configuration (allowPrivateAddresses: false)', () => {
  it.each([
    ['http://127.0.0.1:PORT/html', /127\.0\.0\.1 is loopback/],
    ['http://0x7f.1:PORT/html', /127\.0\.0\.1 is loopback/],
    ['http://2130706433:PORT/html', /127\.0\.0\.1 is loopback/],
    ['http://[::ffff:127.0.0.1]:PORT/html', /IPv4 embedded in IPv6: loopback/],
    ['http://[::1]:PORT/html', /::1 is loopback/],
    // By name, before any DNS query (RFC 6761 6.3), trailing dot or not.
    ['http://localhost:PORT/html', /localhost is a loopback name \(RFC 6761\)/],
    ['http://localhost.:PORT/html', /localhost\. is a loopback name \(RFC 6761\)/],
    ['http://app.localhost:PORT/html', /app\.localhost is a loopback name/],
    ['http://0.0.0.0:PORT/html', /"this network"/],
    ['http://169.254.169.254/latest/meta-data/', /cloud metadata/],
    ['http://[fd00::1]/', /unique local/],
  ])('refuses %s without connecting', async (pattern, message) => {
    const client = fetcher(fetchConfig());
    const connectionsBefore = site.connections();
    const hitsBefore = site.hits('/html');
    const error = (await client.fetch(pattern.replace('PORT', String(site.port))).catch((e: unknown) => e)) as AppError;
    expect(error).toMatchObject({ code: 'forbidden_address', statusCode: 0 });
    expect(error.message).toMatch(message);
    expect(site.connections()).toBe(connectionsBefore);
    expect(site.hits('/html')).toBe(hitsBefore);
  });

  it.each(['localhost', 'localhost.', 'api.localhost'])('refuses %s before asking any resolver', async (host) => {
    const asked: string[] = [];
    const spy: Resolver = async (hostname) => {
      asked.push(hostname);
      return [{ address: '93.184.215.14', family: 4 }];
    };
    const client = fetcher(fetchConfig(), { resolver: spy });
    await expect(client.fetch(`http://${host}:${site.port}/html`)).rejects.toMatchObject({ code: 'forbidden_address' });
    expect(asked).toEqual([]);
  });

  it('allowPrivate opens one request only; the next one is refused again', async () => {
    const client = fetcher(fetchConfig());
    const ok = await client.fetch(`${site.origin}/html`, { allowPrivate: true });
    expect(ok.status).toBe(200);
    // The allowed request left a keep-alive socket behind; it must not be reused.
    await expect(client.fetch(`${site.origin}/html`)).rejects.toMatchObject({ code: 'forbidden_address' });
  });

  it('config.fetch.allowPrivateAddresses turns the policy off', async () => {
    const client = fetcher(fetchConfig({ allowPrivateAddresses: true }));
    expect((await client.fetch(`${site.origin}/html`)).status).toBe(200);
    expect((await client.fetch(`http://localhost:${site.port}/text`)).status).toBe(200);
  });
});

describe('every resolved address is checked (DNS rebinding)', () => {
  it('connects when all addresses are allowed', async () => {
    const client = fetcher(fetchConfig(), { addressPolicy: fixtureOnly, resolver });
    const res = await client.fetch(`http://good.test:${site.port}/html`);
    expect(res.status).toBe(200);
  });

  it('refuses when any address is forbidden, even if another one is fine', async () => {
    const client = fetcher(fetchConfig(), { addressPolicy: fixtureOnly, resolver });
    const before = site.connections();
    const error = (await client.fetch(`http://rebind.test:${site.port}/html`).catch((e: unknown) => e)) as AppError;
    expect(error).toMatchObject({ code: 'forbidden_address', statusCode: 0 });
    expect(error.message).toMatch(/10\.0\.0\.5 is private network.*rebind\.test resolves to it/);
    expect(site.connections()).toBe(before);
  });

  it('reports a name that does not resolve as a network error', async () => {
    const client = fetcher(fetchConfig(), { addressPolicy: fixtureOnly, resolver });
    await expect(client.fetch('http://nowhere.test/')).rejects.toMatchObject({
      code: 'network',
      message: /could not resolve host nowhere\.test/,
    });
  });
});

describe('redirects are re-validated on every hop', () => {
  it.each([
    ['http://169.254.169.254/latest/meta-data/', /cloud metadata/],
    ['http://10.0.0.1/', /private network/],
    ['http://meta.test/', /meta\.test resolves to it/],
    ['http://rebind.test:PORT/html', /rebind\.test resolves to it/],
    ['http://[::ffff:7f00:1]:PORT/html', /IPv4 embedded in IPv6/],
  ])('a redirect from an allowed host to %s is refused', async (target, message) => {
    const client = fetcher(fetchConfig(), { addressPolicy: fixtureOnly, resolver });
    const hitsBefore = site.hits('/html');
    const location = encodeURIComponent(target.replace('PORT', String(site.port)));
    const started = Date.now();
    const error = (await client
      .fetch(`${site.origin}/redirect-to?url=${location}`)
      .catch((e: unknown) => e)) as AppError;
    expect(error).toMatchObject({ code: 'forbidden_address', statusCode: 0 });
    expect(error.message).toMatch(message);
    expect(site.hits('/html')).toBe(hitsBefore);
    expect(Date.now() - started).toBeLessThan(1_000); // refused, not a connect timeout
  });

  it('a redirect to another scheme is refused as invalid_url', async () => {
    const client = fetcher(fetchConfig({ allowPrivateAddresses: true }));
    for (const target of ['file:///etc/passwd', 'ftp://example.com/x', 'gopher://127.0.0.1:25/']) {
      const error = await client
        .fetch(`${site.origin}/redirect-to?url=${encodeURIComponent(target)}`)
        .catch((e: unknown) => e);
      expect(error, target).toMatchObject({ code: 'invalid_url', statusCode: 302 });
    }
  });
});

describe('the connector itself (defence in depth below the URL pre-check)', () => {
  const connect = (hostname: string, port: number) =>
    new Promise<Error | null>((resolve) => {
      const connector = createConnector({ timeoutMs: 1_000, policy: fixtureOnly, resolver });
      connector({ hostname, protocol: 'http:', port: String(port) }, (error, socket) => {
        socket?.destroy();
        resolve(error);
      });
    });

  it('refuses literal IPs that net.connect would dial without a lookup', async () => {
    const before = site.connections();
    expect(await connect('10.1.2.3', 80)).toMatchObject({ code: 'forbidden_address' });
    expect(await connect('[::1]', site.port)).toMatchObject({ code: 'forbidden_address' });
    expect(await connect('::ffff:7f00:1', site.port)).toMatchObject({ code: 'forbidden_address' });
    expect(site.connections()).toBe(before);
  });

  it('connects to an allowed literal and an allowed name', async () => {
    expect(await connect('127.0.0.1', site.port)).toBeNull();
    expect(await connect('good.test', site.port)).toBeNull();
    expect(await connect('rebind.test', site.port)).toMatchObject({ code: 'forbidden_address' });
  });

  it('re-checks the remote address of the connected socket and closes it if forbidden', async () => {
    // A policy that passes the lookup check and fails the post-connect one simulates a
    // connection that bypassed the lookup (the last line of defence must still hold).
    let calls = 0;
    const connector = createConnector({ timeoutMs: 1_000, policy: () => calls++ > 0, resolver });
    const before = site.connections();
    const error = await new Promise<Error | null>((resolve) =>
      connector({ hostname: 'good.test', protocol: 'http:', port: String(site.port) }, (e, socket) => {
        socket?.destroy();
        resolve(e);
      }),
    );
    expect(error).toMatchObject({ code: 'forbidden_address' });
    expect(site.connections()).toBe(before + 1);
    const closed = await new Promise<boolean>((resolve) => {
      const end = Date.now() + 1_000;
      const poll = () =>
        site.openSockets() === 0 ? resolve(true) : Date.now() > end ? resolve(false) : setTimeout(poll, 10);
      poll();
    });
    expect(closed).toBe(true);
  });

  it('the lookup answers in both callback shapes and honours the family hint', async () => {
    const lookup = guardedLookup(
      async () => [
        { address: '2606:4700::1', family: 6 },
        { address: '93.184.216.34', family: 4 },
      ],
      isForbiddenAddress,
    );
    const call = (options: object) =>
      new Promise<unknown[]>((resolve) => lookup('x.test', options as never, (...args: unknown[]) => resolve(args)));
    expect(await call({ all: true })).toEqual([
      null,
      [
        { address: '2606:4700::1', family: 6 },
        { address: '93.184.216.34', family: 4 },
      ],
    ]);
    expect(await call({})).toEqual([null, '2606:4700::1', 6]);
    expect(await call({ family: 4 })).toEqual([null, '93.184.216.34', 4]);
    expect(net.isIP((await call({ family: 6 }))[1] as string)).toBe(6);
  });
});
