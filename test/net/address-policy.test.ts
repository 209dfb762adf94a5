import { describe, expect, it } from 'vitest';
import { classifyAddress, describeAddress, isForbiddenAddress } from '../../src/net/address-policy.js';

/** [range, first address, last address] — both ends of every IPv4 block are refused. */
const IPV4_BLOCKS: Array<[string, string, string]> = [
  ['0.0.0.0/8', '0.0.0.0', '0.255.255.255'],
  ['10.0.0.0/8', '10.0.0.0', '10.255.255.255'],
  ['100.64.0.0/10', '100.64.0.0', '100.127.255.255'],
  ['127.0.0.0/8', '127.0.0.1', '127.255.255.254'],
  ['169.254.0.0/16', '169.254.0.1', '169.254.169.254'],
  ['172.16.0.0/12', '172.16.0.0', '172.31.255.255'],
  ['192.0.0.0/24', '192.0.0.0', '192.0.0.255'],
  ['192.0.2.0/24', '192.0.2.0', '192.0.2.255'],
  ['192.88.99.0/24', '192.88.99.0', '192.88.99.255'],
  ['192.168.0.0/16', '192.168.0.0', '192.168.255.255'],
  ['198.18.0.0/15', '198.18.0.0', '198.19.255.255'],
  ['198.51.100.0/24', '198.51.100.0', '198.51.100.255'],
  ['203.0.113.0/24', '203.0.113.0', '203.0.113.255'],
  ['224.0.0.0/4', '224.0.0.1', '239.255.255.255'],
  ['240.0.0.0/4', '240.0.0.0', '255.255.255.254'],
  ['255.255.255.255/32', '255.255.255.255', '255.255.255.255'],
];

/** Addresses just outside the blocks above: public, allowed. */
const IPV4_NEIGHBOURS = [
  '1.0.0.0',
  '9.255.255.255',
  '11.0.0.0',
  '100.63.255.255',
  '100.128.0.0',
  '126.255.255.255',
  '128.0.0.0',
  '169.253.255.255',
  '169.255.0.0',
  '172.15.255.255',
  '172.32.0.0',
  '192.0.1.0',
  '192.0.3.0',
  '192.88.98.255',
  '192.167.255.255',
  '192.169.0.0',
  '198.17.255.255',
  '198.20.0.0',
  '203.0.112.255',
  '223.255.255.255',
  '8.8.8.8',
  '93.184.216.34',
];

const IPV6_FORBIDDEN: Array<[string, string]> = [
  ['::', 'unspecified'],
  ['::1', 'loopback'],
  ['100::1', 'discard-only'],
  ['100::ffff:ffff:ffff:ffff', 'discard-only'],
  ['2001:2::1', 'IETF protocol assignments (2001::/23)'],
  ['2001:1ff:ffff::1', 'IETF protocol assignments, end of 2001::/23'],
  ['2001:db8::1', 'documentation'],
  ['2001:db8:ffff::1', 'documentation'],
  ['2001:0:4136:e378:8000:63bf:3fff:fdd2', 'Teredo'],
  ['fc00::1', 'unique local'],
  ['fdff:ffff::1', 'unique local'],
  ['fe80::1', 'link-local'],
  ['febf:ffff::1', 'link-local'],
  ['ff02::1', 'multicast'],
  ['ff0e::1', 'multicast'],
  ['2002:7f00:1::1', '6to4 (embeds 127.0.0.1)'],
  ['2002:808:808::1', '6to4 even with a public embedded address'],
  ['64:ff9b::7f00:1', 'NAT64 of 127.0.0.1'],
  ['64:ff9b::808:808', 'NAT64 even with a public embedded address'],
  ['64:ff9b:1::a00:1', 'local-use NAT64'],
  ['::ffff:0:a00:1', 'IPv4-translated'],
  ['3fff::1', 'documentation (RFC 9637)'],
  ['fec0::1', 'deprecated site-local, outside 2000::/3'],
  ['4000::1', 'outside 2000::/3'],
];

const IPV6_ALLOWED = [
  '2606:4700:4700::1111',
  '2a00:1450:4001:80b::200e',
  '2001:4860:4860::8888',
  '2400:cb00::1',
  '3ffe:ffff::1',
];

describe('isForbiddenAddress — IPv4', () => {
  it.each(IPV4_BLOCKS)('refuses %s (%s … %s)', (_range, first, last) => {
    expect(isForbiddenAddress(first)).toBe(true);
    expect(isForbiddenAddress(last)).toBe(true);
  });

  it.each(IPV4_NEIGHBOURS)('allows the public address %s', (ip) => {
    expect(isForbiddenAddress(ip)).toBe(false);
  });
});

describe('isForbiddenAddress — IPv6', () => {
  it.each(IPV6_FORBIDDEN)('refuses %s (%s)', (ip) => {
    expect(isForbiddenAddress(ip)).toBe(true);
  });

  it.each(IPV6_ALLOWED)('allows the global unicast address %s', (ip) => {
    expect(isForbiddenAddress(ip)).toBe(false);
  });

  it('accepts bracketed and zone-scoped forms', () => {
    expect(isForbiddenAddress('[::1]')).toBe(true);
    expect(isForbiddenAddress('fe80::1%eth0')).toBe(true);
    expect(isForbiddenAddress('[2606:4700:4700::1111]')).toBe(false);
  });
});

describe('IPv4 embedded in IPv6', () => {
  it.each([
    ['::ffff:127.0.0.1', true],
    ['::ffff:7f00:1', true],
    ['::ffff:a9fe:a9fe', true], // 169.254.169.254, the metadata endpoint
    ['::ffff:10.1.2.3', true],
    ['::ffff:192.168.1.1', true],
    ['::ffff:8.8.8.8', false],
    ['::ffff:5db8:d822', false], // 93.184.216.34
    ['::127.0.0.1', true], // IPv4-compatible (deprecated) form
    ['::10.0.0.1', true],
    ['::8.8.8.8', false],
  ])('%s is unwrapped and judged as IPv4 (forbidden: %s)', (ip, forbidden) => {
    expect(isForbiddenAddress(ip)).toBe(forbidden);
  });

  it('says why in the reason', () => {
    const c = classifyAddress('::ffff:7f00:1');
    expect(c.forbidden && c.reason).toMatch(/IPv4 embedded in IPv6: loopback/);
  });
});

describe('malformed input fails closed', () => {
  it.each([
    '',
    'localhost',
    '127.1',
    '0x7f.0.0.1',
    '2130706433',
    '1.2.3.4.5',
    '::ffff:999.0.0.1',
    'example.com',
    '256.0.0.1',
  ])('refuses %j', (text) => {
    expect(isForbiddenAddress(text)).toBe(true);
    expect(describeAddress(text)).toMatch(/not an IP address/);
  });
});

describe('describeAddress', () => {
  it('names the range in words for error messages', () => {
    expect(describeAddress('169.254.169.254')).toBe('169.254.169.254 is link-local / cloud metadata (RFC 3927)');
    expect(describeAddress('10.0.0.1')).toMatch(/private network \(RFC 1918\)/);
    expect(describeAddress('100.64.1.1')).toMatch(/carrier-grade NAT/);
    expect(describeAddress('::1')).toMatch(/loopback/);
    expect(describeAddress('64:ff9b::a00:1')).toMatch(/NAT64/);
    expect(describeAddress('2002:a00:1::')).toMatch(/6to4/);
    expect(describeAddress('8.8.8.8')).toBe('8.8.8.8 is a public address');
  });
});
