/**
 * The list form of WEBSEARCH_ALLOW_PRIVATE_ADDRESSES: the private destinations an operator
 * opens one by one (an intranet wiki, a test fixture) instead of all at once. Entries are
 * parsed here into plain data (config stays frozen JSON); net/address-policy.ts matches
 * them against the address actually connected to.
 *
 *   127.0.0.1:8080    one IP and port           [fd00::5]:443   one IPv6 address and port
 *   wiki.corp:443     one host name and port    10.2.0.0/16     a CIDR range, any port
 *   10.1.2.3          one IP, any port
 */
import net from 'node:net';
import ipaddr from 'ipaddr.js';

export type AllowedOrigin =
  /** An address range, any port (a bare IP is its /32 or /128). */
  | { kind: 'range'; address: string; prefix: number }
  /** One IP address on one port. */
  | { kind: 'address'; address: string; port: number }
  /** One host name (as written in URLs, lower case, no trailing dot) on one port. */
  | { kind: 'host'; host: string; port: number };

const HOST_NAME =
  /^(?=.{1,253}$)[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?(?:\.[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?)*$/;

/** Parses a comma-separated list; throws an Error naming the first bad entry. */
export function parseAllowedOrigins(text: string): AllowedOrigin[] {
  const entries = text
    .split(',')
    .map((e) => e.trim())
    .filter(Boolean);
  if (entries.length === 0) throw new Error('the list is empty');
  return entries.map(parseEntry);
}

function parseEntry(entry: string): AllowedOrigin {
  const bad = (why: string): Error =>
    new Error(`"${entry}" is not an allowed origin: ${why} (use host:port, ip:port, [v6]:port, an IP or a CIDR)`);
  if (entry.includes('/')) {
    try {
      const [range, prefix] = ipaddr.parseCIDR(entry);
      return { kind: 'range', address: range.toString(), prefix };
    } catch {
      throw bad('not a valid CIDR range');
    }
  }
  if (net.isIP(entry) !== 0) {
    const parsed = ipaddr.parse(entry);
    return { kind: 'range', address: parsed.toString(), prefix: parsed.kind() === 'ipv4' ? 32 : 128 };
  }
  const bracketed = /^\[([^\]]+)\]:(\d+)$/.exec(entry);
  if (bracketed) {
    if (net.isIP(bracketed[1] as string) !== 6) throw bad('not an IPv6 address in brackets');
    return {
      kind: 'address',
      address: ipaddr.parse(bracketed[1] as string).toString(),
      port: portOf(bracketed[2] as string, bad),
    };
  }
  const colon = entry.lastIndexOf(':');
  if (colon <= 0) throw bad('a host name needs a port');
  const host = entry.slice(0, colon).toLowerCase().replace(/\.$/, '');
  const port = portOf(entry.slice(colon + 1), bad);
  if (net.isIP(host) === 4) return { kind: 'address', address: ipaddr.parse(host).toString(), port };
  if (!HOST_NAME.test(host)) throw bad('not a host name');
  return { kind: 'host', host, port };
}

function portOf(text: string, bad: (why: string) => Error): number {
  const port = /^\d{1,5}$/.test(text) ? Number(text) : NaN;
  if (!(port >= 1 && port <= 65535)) throw bad(`port "${text}" is not 1-65535`);
  return port;
}
