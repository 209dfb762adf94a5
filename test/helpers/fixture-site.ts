/**
 * A local web site for fetch and extraction tests: plain node:http on 127.0.0.1, port 0,
 * serving the named scenarios of fixture-scenarios.ts. It records what it was asked and
 * sent (hits, bytes, peak concurrency, open sockets) so tests can prove that a refused
 * request never reached it, or that an aborted one closed its socket.
 */
import http, { type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import {
  scenarios as defaultScenarios,
  type RobotsMode,
  type Scenario,
  type ScenarioContext,
} from './fixture-scenarios.js';

export type { RobotsMode, Scenario, ScenarioContext } from './fixture-scenarios.js';

export interface FixtureSiteOptions {
  /** How /robots.txt behaves (default 'ok': the DEFAULT_ROBOTS_TXT rules). */
  robots?: RobotsMode;
  /** Extra scenarios, matched before the built-in ones. */
  scenarios?: Scenario[];
}

export interface RecordedRequest {
  method: string;
  /** Path and query as received. */
  path: string;
  headers: IncomingHttpHeaders;
}

export interface FixtureSite {
  /** Base URL with a trailing slash, e.g. http://127.0.0.1:41234/ */
  url: string;
  /** Origin without a trailing slash, e.g. http://127.0.0.1:41234 */
  origin: string;
  port: number;
  /** Requests received for a path: '/html' counts any query; '/text?1' counts only that query. */
  hits(path: string): number;
  /** TCP connections currently open (keep-alive idle ones included). */
  openSockets(): number;
  /** TCP connections accepted since start (proves that a refused fetch never connected). */
  connections(): number;
  /** Response bytes handed to the socket for a path (headers excluded). */
  bytesWritten(path: string): number;
  /** Highest number of simultaneous in-flight requests seen for a path. */
  peakConcurrency(path: string): number;
  /** Every request received, in order. */
  requests(): readonly RecordedRequest[];
  close(): Promise<void>;
}

interface Route {
  segments: string[];
  scenario: Scenario;
}

function compile(list: Scenario[]): Route[] {
  return list.map((scenario) => ({ segments: scenario.path.split('/'), scenario }));
}

function match(routes: Route[], pathname: string): { scenario: Scenario; params: Record<string, string> } | undefined {
  const parts = pathname.split('/');
  for (const route of routes) {
    if (route.segments.length !== parts.length) continue;
    const params: Record<string, string> = {};
    const ok = route.segments.every((segment, i) => {
      const part = parts[i] as string;
      if (segment.startsWith(':')) {
        params[segment.slice(1)] = decodeURIComponent(part);
        return part !== '';
      }
      return segment === part;
    });
    if (ok) return { scenario: route.scenario, params };
  }
  return undefined;
}

const bump = (map: Map<string, number>, key: string, by = 1): void => {
  map.set(key, (map.get(key) ?? 0) + by);
};

export async function startFixtureSite(options: FixtureSiteOptions = {}): Promise<FixtureSite> {
  const routes = compile([...(options.scenarios ?? []), ...defaultScenarios]);
  const robots = options.robots ?? 'ok';
  const hits = new Map<string, number>();
  const bytes = new Map<string, number>();
  const active = new Map<string, number>();
  const peak = new Map<string, number>();
  const log: RecordedRequest[] = [];
  const sockets = new Set<Socket>();
  let accepted = 0;
  let origin = '';

  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', origin);
    const path = url.pathname;
    bump(hits, path);
    if (url.search) bump(hits, path + url.search);
    log.push({ method: req.method ?? 'GET', path: path + url.search, headers: req.headers });
    bump(active, path);
    peak.set(path, Math.max(peak.get(path) ?? 0, active.get(path) ?? 0));
    let finished = false;
    const done = (): void => {
      if (finished) return;
      finished = true;
      bump(active, path, -1);
    };
    res.on('close', done);

    // Count body bytes as they are handed to the socket.
    const write = res.write.bind(res) as (...args: unknown[]) => boolean;
    const end = res.end.bind(res) as (...args: unknown[]) => http.ServerResponse;
    const count = (chunk: unknown): void => {
      if (typeof chunk === 'string') bump(bytes, path, Buffer.byteLength(chunk));
      else if (chunk instanceof Uint8Array) bump(bytes, path, chunk.length);
    };
    res.write = ((...args: unknown[]) => {
      count(args[0]);
      return write(...args);
    }) as typeof res.write;
    res.end = ((...args: unknown[]) => {
      if (typeof args[0] !== 'function') count(args[0]);
      return end(...args);
    }) as typeof res.end;

    const found = match(routes, path);
    if (!found) {
      res.writeHead(404, { 'content-type': 'text/plain' });
      res.end(`no fixture scenario for ${path}`);
      return;
    }
    const ctx: ScenarioContext = {
      req,
      res,
      url,
      params: found.params,
      origin,
      robots,
      onClose: (fn) => res.on('close', fn),
    };
    Promise.resolve(found.scenario.handle(ctx)).catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' });
      res.end(`fixture error: ${String(error)}`);
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    accepted++;
    socket.on('close', () => sockets.delete(socket));
  });
  // Errors on half-closed test sockets are expected; never crash the test process.
  server.on('clientError', (_error, socket) => socket.destroy());

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  origin = `http://127.0.0.1:${port}`;

  return {
    url: `${origin}/`,
    origin,
    port,
    hits: (path) => hits.get(path) ?? 0,
    openSockets: () => sockets.size,
    connections: () => accepted,
    bytesWritten: (path) => bytes.get(path) ?? 0,
    peakConcurrency: (path) => peak.get(path) ?? 0,
    requests: () => log,
    close: async () => {
      server.closeAllConnections();
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
