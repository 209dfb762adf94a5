/**
 * The list form of WEBSEARCH_ALLOW_PRIVATE_ADDRESSES: parsing (every bad entry named), the
 * policy (an entry opens exactly its origin), and the fetcher end to end (the listed
 * fixture port answers, another loopback port never sees a connection).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseAllowedOrigins } from '../../src/core/allowed-origins.js';
import { ConfigError, loadConfig } from '../../src/core/config.js';
import { addressPolicyFor, allowListPolicy, isForbiddenAddress } from '../../src/net/address-policy.js';
import { GuardedFetcher } from '../../src/net/guarded-fetcher.js';
import { fetchConfig } from '../helpers/fetch-config.js';
import { startFixtureSite, type FixtureSite } from '../helpers/fixture-site.js';

describe('parseAllowedOrigins', () => {
  it('reads every form', () => {
    expect(
      parseAllowedOrigins('127.0.0.1:8080, 10.2.0.0/16,wiki.corp:443,[::1]:9000,10.1.2.3,WIKI.example.:80,fd00::/8'),
    ).toEqual([
      { kind: 'address', address: '127.0.0.1', port: 8080 },
      { kind: 'range', address: '10.2.0.0', prefix: 16 },
      { kind: 'host', host: 'wiki.corp', port: 443 },
      { kind: 'address', address: '::1', port: 9000 },
      { kind: 'range', address: '10.1.2.3', prefix: 32 },
      { kind: 'host', host: 'wiki.example', port: 80 },
      { kind: 'range', address: 'fd00::', prefix: 8 },
    ]);
  });

  it.each([
    ['wiki.corp', /"wiki\.corp".*needs a port/],
    ['wiki.corp:0', /port "0" is not 1-65535/],
    ['wiki.corp:99999', /port "99999"/],
    ['10.0.0.0/33', /not a valid CIDR/],
    ['[wiki]:80', /not an IPv6 address/],
    ['http://wiki.corp:80', /"http:\/\/wiki\.corp:80" is not an allowed origin/],
    ['bad host:80', /not a host name/],
    [' , ', /empty/],
  ])('refuses %j', (entry, message) => {
    expect(() => parseAllowedOrigins(entry)).toThrow(message);
  });
});

describe('the setting', () => {
  it('keeps the boolean form and takes a list', () => {
    expect(loadConfig({ env: { WEBSEARCH_ALLOW_PRIVATE_ADDRESSES: 'true' } }).fetch.allowPrivateAddresses).toBe(true);
    expect(loadConfig({ env: {} }).fetch.allowPrivateAddresses).toBe(false);
    expect(loadConfig({ env: {}, argv: ['--allow-private-addresses'] }).fetch.allowPrivateAddresses).toBe(true);
    expect(
      loadConfig({ env: { WEBSEARCH_ALLOW_PRIVATE_ADDRESSES: '127.0.0.1:8080' } }).fetch.allowPrivateAddresses,
    ).toEqual([{ kind: 'address', address: '127.0.0.1', port: 8080 }]);
  });

  it('names the bad entry in one ConfigError line', () => {
    const error = (() => {
      try {
        loadConfig({ env: { WEBSEARCH_ALLOW_PRIVATE_ADDRESSES: '127.0.0.1:8080,intranet' } });
      } catch (e) {
        return e as ConfigError;
      }
      return undefined;
    })();
    expect(error).toBeInstanceOf(ConfigError);
    expect(error?.problems).toHaveLength(1);
    expect(error?.problems[0]).toMatch(/^WEBSEARCH_ALLOW_PRIVATE_ADDRESSES: .*"intranet" is not an allowed origin/);
  });
});

describe('allowListPolicy', () => {
  const policy = allowListPolicy(parseAllowedOrigins('127.0.0.1:8080,10.2.0.0/16,wiki.corp:443,[::1]:9000'));

  it('opens exactly the listed origins', () => {
    expect(policy('127.0.0.1', { host: '127.0.0.1', port: 8080 })).toBe(false);
    expect(policy('127.0.0.1', { host: '127.0.0.1', port: 8081 })).toBe(true);
    expect(policy('::ffff:127.0.0.1', { host: '127.0.0.1', port: 8080 })).toBe(false);
    expect(policy('10.2.99.1', { host: 'x.corp', port: 22 })).toBe(false);
    expect(policy('10.3.0.1', { host: 'x.corp', port: 22 })).toBe(true);
    expect(policy('10.9.9.9', { host: 'wiki.corp', port: 443 })).toBe(false);
    expect(policy('10.9.9.9', { host: 'WIKI.corp.', port: 443 })).toBe(false);
    expect(policy('10.9.9.9', { host: 'wiki.corp', port: 80 })).toBe(true);
    expect(policy('::1', { host: '[::1]', port: 9000 })).toBe(false);
    expect(policy('169.254.169.254', { host: 'wiki.corp', port: 444 })).toBe(true);
  });

  it('fails closed without a target, except for ranges', () => {
    expect(policy('127.0.0.1')).toBe(true);
    expect(policy('10.2.0.1')).toBe(false);
  });

  it('never refuses what the default allows', () => {
    expect(policy('93.184.216.34', { host: 'example.com', port: 443 })).toBe(false);
  });

  it('follows the setting', () => {
    expect(addressPolicyFor(true)).toBeUndefined();
    expect(addressPolicyFor(false)).toBe(isForbiddenAddress);
  });
});

describe('the fetcher with an allowlist', () => {
  let site: FixtureSite;
  let other: FixtureSite;
  let client: GuardedFetcher;
  beforeAll(async () => {
    [site, other] = await Promise.all([startFixtureSite(), startFixtureSite()]);
    client = new GuardedFetcher(fetchConfig({ allowPrivateAddresses: parseAllowedOrigins(`127.0.0.1:${site.port}`) }));
  });
  afterAll(async () => {
    await client?.close();
    await Promise.all([site?.close(), other?.close()]);
  });

  it('reaches the listed origin, by IP and by localhost name', async () => {
    expect((await client.fetch(`${site.origin}/text`)).status).toBe(200);
    expect(await client.fetch(`http://localhost:${site.port}/text`).catch((e: unknown) => e)).toMatchObject({
      status: 200,
    });
  });

  it('refuses another port on the same address without connecting, with the list form in the hint', async () => {
    const before = other.connections();
    for (const url of [
      `${other.origin}/text`,
      `http://localhost:${other.port}/text`,
      `${site.origin.replace(String(site.port), String(other.port))}/html`,
    ]) {
      const error = await client.fetch(url).catch((e: unknown) => e);
      expect(error, url).toMatchObject({ code: 'forbidden_address', statusCode: 0 });
      expect((error as Error).message).toMatch(/or for listed origins/);
    }
    expect(other.connections()).toBe(before);
  });

  it('re-checks a redirect to an origin off the list', async () => {
    const before = other.connections();
    const error = await client
      .fetch(`${site.origin}/redirect-to?url=${encodeURIComponent(`${other.origin}/text`)}`)
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'forbidden_address' });
    expect(other.connections()).toBe(before);
  });
});
