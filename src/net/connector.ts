/**
 * The undici connector that enforces the address policy on the address ACTUALLY
 * connected to. Checking the URL alone is not enough: a public-looking name may resolve to
 * 127.0.0.1 (or re-resolve differently between a check and the connect — DNS rebinding).
 * So the check lives where the socket is opened:
 *  - names: a `lookup` that resolves every address and refuses when ANY is forbidden; the
 *    socket then dials one of exactly those addresses, so there is no check/use gap;
 *  - IP literals: net.connect skips `lookup` for them, so they are checked explicitly
 *    before connecting;
 *  - finally the socket's remoteAddress is checked once more after connecting (cheap,
 *    and it catches anything the two checks above might miss).
 * The URL host is never rewritten to an IP: that would break TLS SNI and certificates.
 */
import dns from 'node:dns';
import net from 'node:net';
import { buildConnector } from 'undici';
import { AppError } from '../core/errors.js';
import { containSocketFaults } from './contain-socket-faults.js';
import { describeAddress, stripBrackets, type AddressPolicy, type AddressTarget } from './address-policy.js';

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** Resolves a host name to every address (a seam for tests and DNS-rebinding checks). */
export type Resolver = (hostname: string) => Promise<ResolvedAddress[]>;

/** The OS resolver (getaddrinfo: honours /etc/hosts), all addresses in resolver order. */
export const systemResolver: Resolver = async (hostname) => {
  const found = await dns.promises.lookup(hostname, { all: true, verbatim: true });
  return found.map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));
};

/** The error for a refused destination; statusCode 0 = no HTTP response was obtained. */
export function forbiddenAddressError(host: string, ip: string): AppError {
  const shown = host === ip ? '' : ` (${host} resolves to it)`;
  return new AppError('forbidden_address', `refused to connect: ${describeAddress(ip)}${shown}. ${PRIVATE_HINT}`, {
    statusCode: 0,
  });
}

/** How to get past the refusal, where that is the user's call (an intranet, a test). */
export const PRIVATE_HINT =
  'Private addresses are allowed only with WEBSEARCH_ALLOW_PRIVATE_ADDRESSES=true, or for listed origins (e.g. WEBSEARCH_ALLOW_PRIVATE_ADDRESSES=wiki.corp:443,10.2.0.0/16)';

/**
 * `localhost`, `localhost.` and every `*.localhost` name are loopback by definition (RFC
 * 6761 6.3): refused by name, before any DNS query a resolver might answer otherwise.
 */
export function isLocalhostName(hostname: string): boolean {
  const name = hostname.toLowerCase().replace(/\.+$/, '');
  return name === 'localhost' || name.endsWith('.localhost');
}

function notFound(hostname: string): NodeJS.ErrnoException {
  const error: NodeJS.ErrnoException = new Error(`getaddrinfo ENOTFOUND ${hostname}`);
  error.code = 'ENOTFOUND';
  error.syscall = 'getaddrinfo';
  (error as NodeJS.ErrnoException & { hostname: string }).hostname = hostname;
  return error;
}

/**
 * Resolves `hostname` and applies `policy` to every address, for a connection to `port`.
 * Refuses when ANY address is forbidden, not just the first: with Happy Eyeballs
 * (autoSelectFamily) net.connect may try every address it is handed.
 */
export async function resolveGuarded(
  resolver: Resolver,
  policy: AddressPolicy | undefined,
  hostname: string,
  port?: number,
): Promise<ResolvedAddress[]> {
  const all = await resolver(hostname);
  const target = port === undefined ? undefined : { host: hostname, port };
  const bad = policy ? all.find((a) => policy(a.address, target)) : undefined;
  if (bad) throw forbiddenAddressError(hostname, bad.address);
  return all;
}

/**
 * A net.connect `lookup` that resolves through `resolver` and applies `policy` to all
 * results; `port` is the port about to be dialled (an allowlist of origins needs it).
 */
export function guardedLookup(
  resolver: Resolver,
  policy: AddressPolicy | undefined,
  port?: number,
): net.LookupFunction {
  return (hostname, options, callback) => {
    resolveGuarded(resolver, policy, hostname, port).then(
      (all) => {
        const family = options.family === 4 || options.family === 6 ? options.family : 0;
        const usable = family === 0 ? all : all.filter((a) => a.family === family);
        const first = usable[0];
        if (!first) return callback(notFound(hostname), '');
        if (options.all) return callback(null, usable);
        return callback(null, first.address, first.family);
      },
      (error: NodeJS.ErrnoException) => callback(error, ''),
    );
  };
}

export interface ConnectorOptions {
  /** TCP + TLS connect timeout (undici's ConnectTimeoutError when exceeded). */
  timeoutMs: number;
  /** Undefined = no address policy (the "allow private" connector). */
  policy: AddressPolicy | undefined;
  resolver: Resolver;
}

/** The port a connection goes to: the URL's, else the scheme's default. */
export function portOf(port: string | number | undefined | null, protocol: string): number {
  const n = Number(port);
  return Number.isInteger(n) && n > 0 ? n : protocol === 'https:' || protocol === 'wss:' ? 443 : 80;
}

export function createConnector(options: ConnectorOptions): buildConnector.connector {
  const { policy } = options;
  // The lookup must know the port it resolves for, and undici fixes the lookup per
  // connector: one inner connector per port dialled (a handful in practice).
  const inners = new Map<number, buildConnector.connector>();
  const innerFor = (port: number): buildConnector.connector => {
    let inner = inners.get(port);
    if (!inner) {
      inner = buildConnector({ timeout: options.timeoutMs, lookup: guardedLookup(options.resolver, policy, port) });
      inners.set(port, inner);
    }
    return inner;
  };
  return (connectOptions, callback) => {
    const host = stripBrackets(connectOptions.hostname);
    const port = portOf(connectOptions.port, connectOptions.protocol);
    const target = { host, port };
    if (policy && net.isIP(host) !== 0 && policy(host, target)) {
      callback(forbiddenAddressError(host, host), null);
      return;
    }
    innerFor(port)(connectOptions, (...args) => {
      const [error, socket] = args;
      if (error) {
        callback(...args);
        return;
      }
      const refused = policy ? checkConnected(socket, target, policy) : undefined;
      if (refused) callback(refused, null);
      else callback(null, containSocketFaults(socket));
    });
  };
}

/** The last check: the address the socket really connected to. Destroys the socket if refused. */
function checkConnected(socket: net.Socket, target: AddressTarget, policy: AddressPolicy): AppError | undefined {
  const remote = socket.remoteAddress;
  if (remote !== undefined && !policy(remote, target)) return undefined;
  socket.destroy();
  return forbiddenAddressError(target.host, remote ?? 'unknown address');
}

export interface GuardedSocketOptions {
  host: string;
  port: number;
  policy: AddressPolicy | undefined;
  resolver: Resolver;
  timeoutMs: number;
}

/**
 * A plain TCP socket to host:port under the same three checks as the undici connector
 * (literal IP, every resolved address, the connected address): for the browser's guard
 * proxy, which pipes bytes rather than speaking HTTP through undici.
 */
export function openGuardedSocket(options: GuardedSocketOptions): Promise<net.Socket> {
  const { policy, port } = options;
  const host = stripBrackets(options.host);
  const target = { host, port };
  return new Promise((resolve, reject) => {
    if (policy && net.isIP(host) !== 0 && policy(host, target)) return reject(forbiddenAddressError(host, host));
    const socket = net.connect({
      host,
      port,
      lookup: guardedLookup(options.resolver, policy, port),
      timeout: options.timeoutMs,
    });
    const fail = (error: Error): void => {
      socket.destroy();
      reject(error);
    };
    socket.once('error', fail);
    socket.once('timeout', () =>
      fail(
        Object.assign(new Error(`connect to ${host}:${port} timed out after ${options.timeoutMs} ms`), {
          code: 'ETIMEDOUT',
        }),
      ),
    );
    socket.once('connect', () => {
      socket.removeListener('error', fail);
      socket.removeAllListeners('timeout');
      socket.setTimeout(0);
      const refused = policy ? checkConnected(socket, target, policy) : undefined;
      if (refused) reject(refused);
      else resolve(socket);
    });
  });
}
