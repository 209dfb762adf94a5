/**
 * The hard boundary around the headless browser: an HTTP proxy on 127.0.0.1 that Chromium
 * must use for every request (loopback included: `--proxy-bypass-list=<-loopback>`).
 * Whatever a page asks for — documents, scripts, frames, images, fetch/XHR, WebSockets,
 * preconnects, redirects — reaches the network only as a CONNECT tunnel (https, wss) or
 * an absolute-form request (http, ws) through here, and each is dialled with the fetcher's
 * own checks (net/connector.ts: literal IP, every resolved address, the connected
 * address) under the same address policy. A refused target gets a 403 and never a
 * connection. With a stealth proxy, every target (http ones too) is reached through a
 * CONNECT tunnel chained to it, after the same policy check on the target as resolved here.
 * The proxy listens on loopback, where any local process could reach it: it serves only
 * the browser it was started for, which proves itself with a random secret per launch
 * (Basic proxy authorization, RFC 9110 11.7; a 407 otherwise, before any dialling).
 * Any local process can still connect, so what a socket without those credentials may
 * hold is bounded: the 407 closes it, a silent one is closed after HEADERS_TIMEOUT_MS, an
 * idle keep-alive one after IDLE_TIMEOUT_MS, and past `maxSockets` open at once a new
 * socket evicts the oldest one that has not proved itself (the browser's never are).
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import net from 'node:net';
import tls from 'node:tls';
import type { Duplex } from 'node:stream';
import { AppError, isAppError } from '../core/errors.js';
import type { Logger } from '../core/logger.js';
import { stripBrackets, type AddressPolicy } from '../net/address-policy.js';
import { openGuardedSocket, portOf, resolveGuarded, systemResolver, type Resolver } from '../net/connector.js';
import { precheckLiteralHost } from '../net/request-url.js';

export interface GuardProxyOptions {
  /** Undefined = every address allowed (WEBSEARCH_ALLOW_PRIVATE_ADDRESSES=true). */
  policy: AddressPolicy | undefined;
  resolver?: Resolver;
  connectTimeoutMs: number;
  /** An http(s) proxy every connection is chained through (WEBSEARCH_STEALTH_PROXY). */
  upstream?: string;
  /** Client sockets open at once (default DEFAULT_MAX_SOCKETS; the renderer sizes it by its pages). */
  maxSockets?: number;
  /** How long a socket may take to send a request's head (tests shorten it). */
  headersTimeoutMs?: number;
  /** How long a keep-alive socket may wait for its next request (tests shorten it). */
  idleTimeoutMs?: number;
  logger: Logger;
}

export interface GuardProxy {
  /** http://127.0.0.1:<port> (without the credentials) */
  url: string;
  port: number;
  /** The per-launch credentials every request must carry (Proxy-Authorization: Basic). */
  credentials: { username: string; password: string };
  /** Targets refused by the address policy since start (tests, logs). */
  refusals(): number;
  /** Client sockets open now: the browser's, and those not yet past the 407 (tests, logs). */
  connections(): number;
  /** Client sockets closed for the cap since start: turned away, or evicted unauthenticated. */
  turnedAway(): number;
  close(): Promise<void>;
}

/** Request headers that concern only the hop to this proxy (RFC 9110 7.6.1). */
const HOP_HEADERS = new Set([
  'proxy-connection',
  'proxy-authorization',
  'connection',
  'keep-alive',
  'te',
  'trailer',
  'upgrade',
]);

/**
 * Sockets one browser context (every render has its own) may open to the proxy. Chromium's
 * socket pools are per context; the source sets 32 per proxy (client_socket_pool_manager.cc,
 * g_max_sockets_per_proxy_chain), but Chromium 156 went past it: a page of 600 slow fetch()es
 * held 236 sockets to this proxy at once, under the pool's soft cap of 256
 * (g_socket_soft_cap_per_pool). So 256: a page that also opens hundreds of WebSockets (their
 * own pool) is past what a page to read needs, and only its own render suffers.
 */
export const SOCKETS_PER_CONTEXT = 256;
/** The cap for WEBSEARCH_RENDER_PAGES' default of 4 contexts, and one more closing meanwhile. */
export const DEFAULT_MAX_SOCKETS = 5 * SOCKETS_PER_CONTEXT;
/**
 * A request's head arrives in one write from the browser: a socket silent this long is
 * someone else's (node:http counts it from the connection, and for each later request
 * from its first byte).
 */
const HEADERS_TIMEOUT_MS = 5_000;
/** Between two requests on a keep-alive socket; Chromium opens another when it needs one. */
const IDLE_TIMEOUT_MS = 5_000;
/** A closed socket whose answer could not be written in this time is destroyed anyway. */
const CLOSE_WRITE_MS = 1_000;

/** The realm of the 407 challenge (RFC 9110 11.7.1). */
const REALM = 'websearch-mcp browser guard';
const CHALLENGE = `Basic realm="${REALM}", charset="UTF-8"`;
/** The answer to a request without the launch's credentials: nothing is dialled. */
const AUTH_REQUIRED = `HTTP/1.1 407 Proxy Authentication Required\r\nproxy-authenticate: ${CHALLENGE}\r\ncontent-length: 0\r\nconnection: close\r\n\r\n`;

export async function startGuardProxy(options: GuardProxyOptions): Promise<GuardProxy> {
  const credentials = { username: 'browser', password: randomBytes(24).toString('base64url') };
  const expected = Buffer.from(
    `Basic ${Buffer.from(`${credentials.username}:${credentials.password}`).toString('base64')}`,
  );
  /** Whether a request carries this launch's credentials (compared in constant time). */
  const authorized = (req: http.IncomingMessage): boolean => {
    const given = Buffer.from(req.headers['proxy-authorization'] ?? '');
    return given.length === expected.length && timingSafeEqual(given, expected);
  };
  const resolver = options.resolver ?? systemResolver;
  const upstream = options.upstream ? new URL(options.upstream) : undefined;
  const maxSockets = options.maxSockets ?? DEFAULT_MAX_SOCKETS;
  const headersTimeoutMs = options.headersTimeoutMs ?? HEADERS_TIMEOUT_MS;
  const open = new Set<Duplex>();
  /** Client sockets that sent no valid credentials yet, oldest first (a Set keeps insertion order). */
  const unproven = new Set<net.Socket>();
  /** Client sockets that did: the browser's. */
  const proven = new Set<net.Socket>();
  let refused = 0;
  let turnedAway = 0;

  /** Whether the request carries the credentials; its socket counts as the browser's from then on. */
  const admit = (req: http.IncomingMessage): boolean => {
    if (!authorized(req)) return false;
    if (unproven.delete(req.socket)) proven.add(req.socket);
    return true;
  };

  const track = (socket: Duplex): void => {
    open.add(socket);
    socket.once('close', () => open.delete(socket));
  };

  /** A socket to host:port for the browser, or the reason it may not have one. */
  const dial = async (host: string, port: number, protocol: 'http:' | 'https:'): Promise<net.Socket> => {
    const target = new URL(`${protocol}//${host.includes(':') && !host.startsWith('[') ? `[${host}]` : host}:${port}/`);
    precheckLiteralHost(target, options.policy);
    if (!upstream)
      return openGuardedSocket({ host, port, policy: options.policy, resolver, timeoutMs: options.connectTimeoutMs });
    if (options.policy && net.isIP(stripBrackets(host)) === 0)
      await resolveGuarded(resolver, options.policy, stripBrackets(host), port);
    return tunnelThrough(upstream, `${target.hostname}:${port}`, options.connectTimeoutMs);
  };

  const failure = (error: unknown): { status: number; message: string } => {
    if (isAppError(error) && error.code === 'forbidden_address') {
      refused++;
      options.logger.debug({ err: error.message }, 'guard proxy refused a browser request');
      return { status: 403, message: error.message };
    }
    const code = (error as NodeJS.ErrnoException).code;
    return { status: code === 'ETIMEDOUT' ? 504 : 502, message: (error as Error).message };
  };

  const server = http.createServer(
    {
      headersTimeout: headersTimeoutMs,
      // node:http checks the headers timeout on this period (30 s by default).
      connectionsCheckingInterval: Math.min(1_000, Math.max(50, Math.round(headersTimeoutMs / 5))),
    },
    (req, res) => handle(req, res),
  );
  server.keepAliveTimeout = options.idleTimeoutMs ?? IDLE_TIMEOUT_MS;
  // Before node:http sees the socket: the cap. Only the browser's sockets are legitimate, and
  // they prove themselves with their first request; an unproven one past the cap gives way
  // (oldest first), so sockets held open by others cannot keep the browser out.
  server.prependListener('connection', (socket: net.Socket) => {
    if (unproven.size + proven.size >= maxSockets) {
      const oldest = unproven.values().next().value;
      turnedAway++;
      if (oldest) {
        unproven.delete(oldest);
        oldest.destroy();
      } else {
        socket.destroy();
        return;
      }
    }
    unproven.add(socket);
    socket.once('close', () => {
      unproven.delete(socket);
      proven.delete(socket);
    });
  });

  const handle = (req: http.IncomingMessage, res: http.ServerResponse): void => {
    if (!admit(req)) {
      res.writeHead(407, { 'proxy-authenticate': CHALLENGE, 'content-length': '0', connection: 'close' }).end();
      return;
    }
    let url: URL;
    try {
      url = new URL(req.url ?? '');
    } catch {
      url = new URL('invalid:');
    }
    if (url.protocol !== 'http:') {
      res
        .writeHead(400, { 'content-type': 'text/plain', connection: 'close' })
        .end('only absolute http:// requests and CONNECT are proxied');
      return;
    }
    const port = portOf(url.port, url.protocol);
    dial(url.hostname, port, 'http:').then(
      (socket) => {
        track(socket);
        // Origin form: the socket is the origin itself, or a CONNECT tunnel to it.
        const outgoing = http.request({
          method: req.method,
          path: `${url.pathname}${url.search}`,
          headers: forwardHeaders(req.rawHeaders),
          createConnection: () => socket,
        });
        outgoing.on('response', (incoming) => {
          res.writeHead(incoming.statusCode ?? 502, forwardHeaders(incoming.rawHeaders));
          incoming.pipe(res);
        });
        outgoing.on('error', () => res.destroy());
        res.on('close', () => socket.destroy());
        req.pipe(outgoing);
      },
      (error: unknown) => {
        const { status, message } = failure(error);
        if (!res.headersSent) res.writeHead(status, { 'content-type': 'text/plain', connection: 'close' });
        res.end(message);
      },
    );
  };

  const tunnel = (
    client: Duplex,
    head: Buffer,
    dialling: Promise<net.Socket>,
    prelude: (socket: net.Socket) => void,
  ): void => {
    track(client);
    client.on('error', () => client.destroy());
    dialling.then(
      (socket) => {
        track(socket);
        socket.on('error', () => client.destroy());
        client.on('close', () => socket.destroy());
        socket.on('close', () => client.destroy());
        prelude(socket);
        if (head.length > 0) socket.write(head);
        socket.pipe(client);
        client.pipe(socket);
      },
      (error: unknown) => {
        const { status, message } = failure(error);
        answerAndClose(
          client,
          `HTTP/1.1 ${status} ${http.STATUS_CODES[status]}\r\ncontent-type: text/plain\r\ncontent-length: ${Buffer.byteLength(message)}\r\nconnection: close\r\n\r\n${message}`,
        );
      },
    );
  };

  // https and wss: a byte tunnel to host:port.
  server.on('connect', (req: http.IncomingMessage, client: Duplex, head: Buffer) => {
    if (!admit(req)) return answerAndClose(client, AUTH_REQUIRED);
    const authority = parseAuthority(req.url ?? '');
    const dialling = authority
      ? dial(authority.host, authority.port, 'https:')
      : Promise.reject(new Error(`bad CONNECT target ${JSON.stringify(req.url)}`));
    tunnel(client, head, dialling, () => client.write('HTTP/1.1 200 Connection Established\r\n\r\n'));
  });

  // ws:// sent in absolute form with Upgrade: the request is replayed on the tunnel.
  server.on('upgrade', (req: http.IncomingMessage, client: Duplex, head: Buffer) => {
    if (!admit(req)) return answerAndClose(client, AUTH_REQUIRED);
    let url: URL | undefined;
    try {
      url = new URL(req.url ?? '');
    } catch {
      url = undefined;
    }
    const dialling =
      url?.protocol === 'http:'
        ? dial(url.hostname, portOf(url.port, url.protocol), 'http:')
        : Promise.reject(new Error('only absolute http:// upgrades are proxied'));
    tunnel(client, head, dialling, (socket) => {
      const target = url as URL;
      const lines = [`${req.method} ${target.pathname}${target.search} HTTP/1.1`];
      const raw = req.rawHeaders;
      for (let i = 0; i < raw.length; i += 2) {
        if (!/^proxy-/i.test(raw[i] as string)) lines.push(`${raw[i]}: ${raw[i + 1]}`);
      }
      socket.write(`${lines.join('\r\n')}\r\n\r\n`);
    });
  });
  server.on('clientError', (_error, socket) => socket.destroy());

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const port = (server.address() as net.AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    credentials,
    refusals: () => refused,
    connections: () => unproven.size + proven.size,
    turnedAway: () => turnedAway,
    close: async () => {
      for (const socket of [...open, ...unproven, ...proven]) socket.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * A final answer on a raw socket (the 407 or a failed tunnel), then the socket destroyed
 * once it is written: `end()` alone only half-closes it (node:http allows half-open
 * sockets), and a client that never closes its side would keep it open for good.
 */
function answerAndClose(client: Duplex, answer: string): void {
  client.on('error', () => client.destroy());
  client.end(answer, () => client.destroy());
  // A client that reads nothing may never let the answer be written.
  const timer = setTimeout(() => client.destroy(), CLOSE_WRITE_MS).unref();
  client.once('close', () => clearTimeout(timer));
}

/** host:port of a CONNECT request ("example.com:443", "[::1]:8080"), or undefined. */
function parseAuthority(text: string): { host: string; port: number } | undefined {
  const match = /^(\[[^\]]+\]|[^:[\]]+):(\d{1,5})$/.exec(text);
  if (!match) return undefined;
  const port = Number(match[2]);
  return port >= 1 && port <= 65535 ? { host: stripBrackets(match[1] as string), port } : undefined;
}

/** Raw headers (name, value, name, value...) without the hop-by-hop ones. */
function forwardHeaders(raw: string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < raw.length; i += 2) {
    if (!HOP_HEADERS.has((raw[i] as string).toLowerCase())) out.push(raw[i] as string, raw[i + 1] as string);
  }
  return out;
}

function basicAuth(proxy: URL): string {
  return `Basic ${Buffer.from(`${decodeURIComponent(proxy.username)}:${decodeURIComponent(proxy.password)}`).toString('base64')}`;
}

/**
 * A tunnel to `authority` through an http(s) proxy (CONNECT). The operator configured that
 * proxy, so it is dialled without the address policy; the target was checked before.
 */
function tunnelThrough(proxy: URL, authority: string, timeoutMs: number): Promise<net.Socket> {
  return new Promise((resolve, reject) => {
    const port = portOf(proxy.port, proxy.protocol);
    const host = stripBrackets(proxy.hostname);
    const socket: net.Socket =
      proxy.protocol === 'https:'
        ? tls.connect({ host, port, servername: net.isIP(host) ? undefined : host })
        : net.connect({ host, port });
    socket.setTimeout(timeoutMs);
    const fail = (error: Error): void => {
      socket.destroy();
      reject(error);
    };
    socket.once('error', fail);
    socket.once('timeout', () =>
      fail(Object.assign(new Error(`the stealth proxy did not answer within ${timeoutMs} ms`), { code: 'ETIMEDOUT' })),
    );
    const auth = proxy.username ? `proxy-authorization: ${basicAuth(proxy)}\r\n` : '';
    socket.write(`CONNECT ${authority} HTTP/1.1\r\nhost: ${authority}\r\n${auth}\r\n`);
    let buffered = Buffer.alloc(0);
    const onData = (chunk: Buffer): void => {
      buffered = Buffer.concat([buffered, chunk]);
      const end = buffered.indexOf('\r\n\r\n');
      if (end === -1) {
        if (buffered.length > 16 * 1024) fail(new Error('the stealth proxy sent an oversized CONNECT answer'));
        return;
      }
      socket.removeListener('data', onData);
      const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(buffered.subarray(0, end).toString('latin1'))?.[1]);
      if (status !== 200)
        return fail(
          new AppError(
            'network',
            `the stealth proxy refused the tunnel to ${authority} (${Number.isNaN(status) ? 'no HTTP answer' : `HTTP ${status}`})`,
          ),
        );
      socket.removeListener('error', fail);
      socket.removeAllListeners('timeout');
      socket.setTimeout(0);
      const rest = buffered.subarray(end + 4);
      if (rest.length > 0) socket.unshift(rest);
      resolve(socket);
    };
    socket.on('data', onData);
  });
}
