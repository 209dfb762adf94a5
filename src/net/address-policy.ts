/**
 * Which IP addresses the fetcher may connect to (SSRF defence,
 * docs/decisions.md, "Limits and politeness"). The table is CIDR-based and evaluated with
 * ipaddr.js — never with regexes on dotted quads, because alternative notations
 * (`0x7f.1`, `2130706433`, `::ffff:7f00:1`) would slip past them. The fetcher applies
 * this to the address actually connected to, after DNS resolution (see connector.ts), so
 * the notation in the URL does not matter.
 */
import net from 'node:net';
import ipaddr from 'ipaddr.js';
import type { AllowedOrigin } from '../core/allowed-origins.js';

/** Where a connection goes: the URL's host (name or IP, as written) and the port. */
export interface AddressTarget {
  host: string;
  port: number;
}

/**
 * A policy answers "must connecting to `ip` be refused?". `target` says for which host and
 * port (an allowlist of origins needs them); without it, only address-wide rules can allow.
 * The default is `isForbiddenAddress`.
 */
export type AddressPolicy = (ip: string, target?: AddressTarget) => boolean;

type Cidr = [ipaddr.IPv4 | ipaddr.IPv6, number];

interface Rule {
  cidr: string;
  reason: string;
}

/** Special-purpose IPv4 blocks (IANA registry, RFC 6890) that a public fetcher never needs. */
const IPV4_RULES: Rule[] = [
  { cidr: '0.0.0.0/8', reason: '"this network" (RFC 1122 3.2.1.3)' },
  { cidr: '10.0.0.0/8', reason: 'private network (RFC 1918)' },
  { cidr: '100.64.0.0/10', reason: 'carrier-grade NAT (RFC 6598)' },
  { cidr: '127.0.0.0/8', reason: 'loopback (RFC 1122)' },
  // Includes 169.254.169.254, the cloud instance-metadata endpoint.
  { cidr: '169.254.0.0/16', reason: 'link-local / cloud metadata (RFC 3927)' },
  { cidr: '172.16.0.0/12', reason: 'private network (RFC 1918)' },
  { cidr: '192.0.0.0/24', reason: 'IETF protocol assignments (RFC 6890)' },
  { cidr: '192.0.2.0/24', reason: 'documentation TEST-NET-1 (RFC 5737)' },
  { cidr: '192.88.99.0/24', reason: '6to4 relay anycast (RFC 7526)' },
  { cidr: '192.168.0.0/16', reason: 'private network (RFC 1918)' },
  { cidr: '198.18.0.0/15', reason: 'benchmarking (RFC 2544)' },
  { cidr: '198.51.100.0/24', reason: 'documentation TEST-NET-2 (RFC 5737)' },
  { cidr: '203.0.113.0/24', reason: 'documentation TEST-NET-3 (RFC 5737)' },
  { cidr: '224.0.0.0/4', reason: 'multicast (RFC 5771)' },
  { cidr: '240.0.0.0/4', reason: 'reserved (RFC 1112 4)' },
  { cidr: '255.255.255.255/32', reason: 'limited broadcast (RFC 919)' },
];

/**
 * IPv6 blocks refused outright. The prefixes that embed an IPv4 address (6to4, Teredo,
 * NAT64, IPv4-translated) are refused rather than unwrapped: the embedded address is
 * reached through a relay/translator we cannot see, so checking it would prove nothing.
 */
const IPV6_RULES: Rule[] = [
  { cidr: '::/128', reason: 'unspecified address (RFC 4291 2.5.2)' },
  { cidr: '::1/128', reason: 'loopback (RFC 4291 2.5.3)' },
  { cidr: '100::/64', reason: 'discard-only (RFC 6666)' },
  { cidr: '2001::/32', reason: 'Teredo tunnel, embeds IPv4 (RFC 4380)' },
  { cidr: '2001::/23', reason: 'IETF protocol assignments (RFC 2928)' },
  { cidr: '2001:db8::/32', reason: 'documentation (RFC 3849)' },
  { cidr: '3fff::/20', reason: 'documentation (RFC 9637)' },
  { cidr: '2002::/16', reason: '6to4, embeds IPv4 (RFC 3056)' },
  { cidr: '64:ff9b::/96', reason: 'NAT64, embeds IPv4 (RFC 6052)' },
  { cidr: '64:ff9b:1::/48', reason: 'local-use NAT64, embeds IPv4 (RFC 8215)' },
  { cidr: '::ffff:0:0:0/96', reason: 'IPv4-translated, embeds IPv4 (RFC 6145)' },
  { cidr: 'fc00::/7', reason: 'unique local address (RFC 4193)' },
  { cidr: 'fe80::/10', reason: 'link-local (RFC 4291 2.5.6)' },
  { cidr: 'ff00::/8', reason: 'multicast (RFC 4291 2.7)' },
];

function compile(rules: Rule[]): Array<{ range: Cidr; reason: string }> {
  return rules.map((r) => ({ range: ipaddr.parseCIDR(r.cidr), reason: r.reason }));
}

const V4 = compile(IPV4_RULES);
const V6 = compile(IPV6_RULES);
/** Everything outside 2000::/3 is unassigned or special (RFC 4291 2.4, IANA registry). */
const GLOBAL_UNICAST_V6: Cidr = ipaddr.parseCIDR('2000::/3');
const IPV4_MAPPED: Cidr = ipaddr.parseCIDR('::ffff:0:0/96');
const IPV4_COMPATIBLE: Cidr = ipaddr.parseCIDR('::/96');

/** An IPv6 host as URLs write it (`[::1]`) without its brackets; anything else as it is. */
export function stripBrackets(hostname: string): string {
  return hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
}

export type AddressClass = { forbidden: false; address: string } | { forbidden: true; address: string; reason: string };

function classifyV4(ip: ipaddr.IPv4, shown: string): AddressClass {
  for (const rule of V4) if (ip.match(rule.range)) return { forbidden: true, address: shown, reason: rule.reason };
  return { forbidden: false, address: shown };
}

/**
 * Classifies one textual IP address. Anything that is not a well-formed IPv4 dotted quad
 * or IPv6 address is refused (fail closed): the connector only ever sees resolver output
 * and URL hosts already canonicalised by WHATWG URL.
 */
export function classifyAddress(ip: string): AddressClass {
  const text = stripBrackets(ip);
  const family = net.isIP(text);
  if (family === 0) return { forbidden: true, address: ip, reason: 'not an IP address' };
  let parsed: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    parsed = ipaddr.parse(text);
  } catch {
    return { forbidden: true, address: ip, reason: 'not an IP address' };
  }
  if (parsed.kind() === 'ipv4') return classifyV4(parsed as ipaddr.IPv4, text);
  const v6 = parsed as ipaddr.IPv6;
  for (const rule of V6.slice(0, 2))
    if (v6.match(rule.range)) return { forbidden: true, address: text, reason: rule.reason };
  // IPv4-mapped (::ffff:a.b.c.d, RFC 4291 2.5.5.2) and the deprecated IPv4-compatible
  // form (::a.b.c.d, 2.5.5.1) reach the embedded IPv4 host directly: judge that host.
  if (v6.match(IPV4_MAPPED) || v6.match(IPV4_COMPATIBLE)) {
    const bytes = v6.toByteArray().slice(12);
    const inner = classifyV4(new ipaddr.IPv4(bytes), text);
    return inner.forbidden ? { ...inner, reason: `IPv4 embedded in IPv6: ${inner.reason}` } : inner;
  }
  for (const rule of V6) if (v6.match(rule.range)) return { forbidden: true, address: text, reason: rule.reason };
  if (!v6.match(GLOBAL_UNICAST_V6))
    return { forbidden: true, address: text, reason: 'not global unicast (outside 2000::/3)' };
  return { forbidden: false, address: text };
}

/** The default address policy: true when connecting to `ip` must be refused. */
export function isForbiddenAddress(ip: string): boolean {
  return classifyAddress(ip).forbidden;
}

/** Human-readable reason for an error message, e.g. "127.0.0.1 is loopback (RFC 1122)". */
export function describeAddress(ip: string): string {
  const c = classifyAddress(ip);
  return c.forbidden ? `${c.address} is ${c.reason}` : `${c.address} is a public address`;
}

/**
 * The default policy with the operator's exceptions (WEBSEARCH_ALLOW_PRIVATE_ADDRESSES as a
 * list): an address stays refused unless an entry allows it, for this host and port.
 */
export function allowListPolicy(
  origins: readonly AllowedOrigin[],
  base: AddressPolicy = isForbiddenAddress,
): AddressPolicy {
  const ranges = origins.flatMap((o) => (o.kind === 'range' ? [[ipaddr.parse(o.address), o.prefix] as Cidr] : []));
  const addresses = new Set(origins.flatMap((o) => (o.kind === 'address' ? [`${o.address}|${o.port}`] : [])));
  const hosts = new Set(origins.flatMap((o) => (o.kind === 'host' ? [`${o.host}|${o.port}`] : [])));
  return (ip, target) => {
    if (!base(ip, target)) return false;
    const parsed = canonical(ip);
    if (parsed === undefined) return true;
    if (ranges.some((range) => parsed.kind() === range[0].kind() && parsed.match(range))) return false;
    if (target === undefined) return true;
    if (addresses.has(`${parsed.toString()}|${target.port}`)) return false;
    return !hosts.has(`${hostOf(target.host)}|${target.port}`);
  };
}

/** The policy for the WEBSEARCH_ALLOW_PRIVATE_ADDRESSES setting: none (true), the default (false), or with exceptions. */
export function addressPolicyFor(
  setting: boolean | readonly AllowedOrigin[],
  base: AddressPolicy = isForbiddenAddress,
): AddressPolicy | undefined {
  if (setting === true) return undefined;
  return setting === false ? base : allowListPolicy(setting, base);
}

/** An IPv4-mapped IPv6 address (a dual-stack socket's view of IPv4) is its IPv4 address. */
function canonical(ip: string): ipaddr.IPv4 | ipaddr.IPv6 | undefined {
  const text = stripBrackets(ip);
  if (net.isIP(text) === 0) return undefined;
  try {
    return ipaddr.process(text);
  } catch {
    return undefined;
  }
}

function hostOf(host: string): string {
  const bare = stripBrackets(host);
  const ip = canonical(bare);
  return ip ? ip.toString() : bare.toLowerCase().replace(/\.$/, '');
}
