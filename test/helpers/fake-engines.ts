/**
 * A fake of every search engine on one node:http server (127.0.0.1, port 0). Each engine
 * lives under its own path prefix (Mojeek and SearXNG both answer on `/search`), speaks its
 * real wire format (the bodies of test/fixtures/engines, served as manifest.json says) and
 * plays a named scenario that a test can switch at any time. It records every request so
 * tests can prove that a suspended engine was not asked, or how far apart requests started.
 */
import { readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { fileURLToPath } from 'node:url';
import type { Config } from '../../src/core/config.js';
import type { EngineId } from '../../src/engines/types.js';

/** An engine endpoint: every engine, plus DuckDuckGo's lite fallback page. */
export type FakeEndpoint = EngineId | 'duckduckgo_lite';

/** A hand-written answer: a body (objects are sent as JSON) with optional status, type, headers and delay. */
export interface CustomScenario {
  body: string | object;
  status?: number;
  contentType?: string;
  headers?: Record<string, string>;
  delayMs?: number;
}

export type NamedScenario =
  | 'results'
  | 'no_results'
  | 'captcha'
  | 'rate_limited'
  | 'rate_limited_no_retry_after'
  | 'server_error'
  | 'hang'
  | 'malformed'
  | 'searxng_json_disabled'
  | `slow:${number}`;

export type FakeScenario = NamedScenario | CustomScenario;

export interface FakeRequest {
  endpoint: FakeEndpoint;
  method: string;
  /** Path and query as received. */
  path: string;
  /** performance.now() when the request arrived. */
  at: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

export interface FakeEngines {
  /** Origin of the server, e.g. http://127.0.0.1:41234 */
  baseUrl: string;
  /** `engines` config overrides pointing every engine here, with dummy keys for the keyed ones. */
  engineConfig: Partial<Config['engines']>;
  setScenario(endpoint: FakeEndpoint, scenario: FakeScenario): void;
  /** Requests received by an endpoint ('duckduckgo' counts the HTML page only). */
  hits(endpoint: FakeEndpoint): number;
  requests(endpoint?: FakeEndpoint): readonly FakeRequest[];
  close(): Promise<void>;
}

const FIXTURES = fileURLToPath(new URL('../fixtures/engines/', import.meta.url));

interface ManifestEntry {
  engine: string;
  path: string;
  status: number;
  contentType: string;
  headers?: Record<string, string>;
}
const MANIFEST = (
  JSON.parse(readFileSync(`${FIXTURES}manifest.json`, 'utf8')) as { fixtures: Record<string, ManifestEntry> }
).fixtures;

/** Path of each endpoint on the server: a per-engine prefix + the engine's real path. */
const ROUTES: Record<string, FakeEndpoint> = {
  '/duckduckgo/html/': 'duckduckgo',
  '/duckduckgo/lite/': 'duckduckgo_lite',
  '/wikipedia/w/api.php': 'wikipedia',
  '/mojeek/search': 'mojeek',
  '/brave/res/v1/web/search': 'brave',
  '/searxng/search': 'searxng',
  '/google/customsearch/v1': 'google',
};

interface Reply {
  status: number;
  contentType: string;
  headers?: Record<string, string>;
  body: string;
}

/** A fixture file served exactly as the manifest says (status, type, headers). */
function fixture(name: string, overrides: Partial<Reply> = {}): Reply {
  const entry = MANIFEST[name];
  if (!entry) throw new Error(`no fixture ${name} in manifest.json`);
  return {
    status: entry.status,
    contentType: entry.contentType,
    ...(entry.headers ? { headers: entry.headers } : {}),
    body: readFileSync(`${FIXTURES}${name}`, 'utf8'),
    ...overrides,
  };
}

const text = (status: number, body: string, headers?: Record<string, string>): Reply => ({
  status,
  contentType: 'text/plain; charset=utf-8',
  body,
  ...(headers ? { headers } : {}),
});

const FIXTURE_SETS: Record<'results' | 'no_results' | 'malformed', Record<FakeEndpoint, () => Reply>> = {
  results: {
    duckduckgo: () => fixture('duckduckgo/html_results.html'),
    duckduckgo_lite: () => fixture('duckduckgo/lite_results.html'),
    wikipedia: () => fixture('wikipedia/search_results.json'),
    mojeek: () => fixture('mojeek/results.html'),
    brave: () => fixture('brave/web_results.json'),
    searxng: () => fixture('searxng/results.json'),
    google: () => fixture('google/items.json'),
  },
  no_results: {
    duckduckgo: () => fixture('duckduckgo/html_no_results.html'),
    duckduckgo_lite: () => fixture('duckduckgo/lite_no_results.html'),
    wikipedia: () => fixture('wikipedia/search_empty.json'),
    mojeek: () => fixture('mojeek/no_results.html'),
    brave: () => fixture('brave/no_web.json'),
    searxng: () => ({
      status: 200,
      contentType: 'application/json',
      body: JSON.stringify({ query: 'q', number_of_results: 0, results: [] }),
    }),
    google: () => fixture('google/no_items.json'),
  },
  malformed: {
    duckduckgo: () => fixture('duckduckgo/unexpected_page.html'),
    duckduckgo_lite: () => fixture('duckduckgo/unexpected_page.html', { status: 200 }),
    wikipedia: () => fixture('wikipedia/truncated.json'),
    mojeek: () => fixture('mojeek/unexpected_page.html'),
    brave: () => fixture('brave/truncated.json'),
    searxng: () => fixture('searxng/truncated.json'),
    google: () => fixture('google/truncated.json'),
  },
};

function rateLimitBody(endpoint: FakeEndpoint): Reply {
  // Only the body of the engines' own 429 answers, not their X-RateLimit headers: the
  // scenario decides whether the engine says how long to wait.
  if (endpoint === 'brave') return { ...fixture('brave/rate_limited_429.json'), headers: {} };
  if (endpoint === 'google') return fixture('google/quota_429.json');
  return text(429, 'Too Many Requests');
}

function replyFor(endpoint: FakeEndpoint, scenario: NamedScenario): Reply | 'hang' {
  switch (scenario) {
    case 'results':
    case 'no_results':
    case 'malformed':
      return FIXTURE_SETS[scenario][endpoint]();
    case 'captcha':
      if (endpoint === 'duckduckgo' || endpoint === 'duckduckgo_lite')
        return fixture('duckduckgo/html_anomaly_202.html');
      if (endpoint === 'mojeek') return fixture('mojeek/captcha.html');
      return {
        status: 403,
        contentType: 'text/html; charset=utf-8',
        body: '<!doctype html><title>Forbidden</title><h1>403 Forbidden</h1>',
      };
    case 'rate_limited':
      return { ...rateLimitBody(endpoint), status: 429, headers: { 'Retry-After': '120' } };
    case 'rate_limited_no_retry_after':
      return { ...rateLimitBody(endpoint), status: 429 };
    case 'server_error':
      return endpoint === 'searxng' ? fixture('searxng/error_500.json') : text(500, 'Internal Server Error');
    case 'searxng_json_disabled':
      return fixture('searxng/forbidden_403.html');
    case 'hang':
      return 'hang';
    default:
      return FIXTURE_SETS.results[endpoint]();
  }
}

function customReply(scenario: CustomScenario): Reply {
  const json = typeof scenario.body !== 'string';
  return {
    status: scenario.status ?? 200,
    contentType: scenario.contentType ?? (json ? 'application/json' : 'text/html; charset=utf-8'),
    body: json ? JSON.stringify(scenario.body) : (scenario.body as string),
    ...(scenario.headers ? { headers: scenario.headers } : {}),
  };
}

export async function startFakeEngines(): Promise<FakeEngines> {
  const scenarios = new Map<FakeEndpoint, FakeScenario>();
  const log: FakeRequest[] = [];
  const sockets = new Set<Socket>();
  const timers = new Set<NodeJS.Timeout>();

  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://fake.invalid');
    const endpoint = ROUTES[url.pathname];
    const at = performance.now();
    const parts: Buffer[] = [];
    req.on('data', (part: Buffer) => parts.push(part));
    req.on('end', () => {
      if (endpoint === undefined) {
        res.writeHead(404, { 'content-type': 'text/plain' }).end(`no fake engine at ${url.pathname}`);
        return;
      }
      log.push({
        endpoint,
        method: req.method ?? 'GET',
        path: url.pathname + url.search,
        at,
        headers: req.headers,
        body: Buffer.concat(parts).toString('utf8'),
      });
      const scenario = scenarios.get(endpoint) ?? 'results';
      let delayMs = 0;
      let reply: Reply | 'hang';
      if (typeof scenario === 'object') {
        reply = customReply(scenario);
        delayMs = scenario.delayMs ?? 0;
      } else if (scenario.startsWith('slow:')) {
        reply = replyFor(endpoint, 'results');
        delayMs = Number(scenario.slice(5));
      } else {
        reply = replyFor(endpoint, scenario);
      }
      if (reply === 'hang') return; // never answers; close() destroys the socket
      const send = (r: Reply): void => {
        if (res.destroyed) return;
        const body = Buffer.from(r.body, 'utf8');
        res.writeHead(r.status, { 'content-type': r.contentType, 'content-length': String(body.length), ...r.headers });
        res.end(body);
      };
      if (delayMs <= 0) return send(reply);
      const timer = setTimeout(() => {
        timers.delete(timer);
        send(reply);
      }, delayMs);
      timers.add(timer);
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  server.on('clientError', (_error, socket) => socket.destroy());

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    baseUrl,
    engineConfig: {
      duckduckgoUrl: `${baseUrl}/duckduckgo`,
      duckduckgoLiteUrl: `${baseUrl}/duckduckgo`,
      wikipediaUrl: `${baseUrl}/wikipedia`,
      mojeekUrl: `${baseUrl}/mojeek`,
      braveUrl: `${baseUrl}/brave`,
      braveApiKey: 'test-brave-key',
      searxngUrl: `${baseUrl}/searxng`,
      googleUrl: `${baseUrl}/google`,
      googleApiKey: 'test-google-key',
      googleCseId: 'test-cse-id',
    },
    setScenario: (endpoint, scenario) => void scenarios.set(endpoint, scenario),
    hits: (endpoint) => log.filter((r) => r.endpoint === endpoint).length,
    requests: (endpoint) => (endpoint === undefined ? log : log.filter((r) => r.endpoint === endpoint)),
    close: async () => {
      for (const timer of timers) clearTimeout(timer);
      server.closeAllConnections();
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * The environment of a spawned server (stdio binary, CLI) whose every engine is at `fake`:
 * the inherited environment plus the engines' variables, no politeness delays, no caches,
 * private addresses allowed (the fixture site is on 127.0.0.1) and silent logs.
 */
export function spawnedServerEnv(fake: FakeEngines): Record<string, string> {
  const e = fake.engineConfig;
  const env: Record<string, string | undefined> = {
    ...process.env,
    DUCKDUCKGO_URL: e.duckduckgoUrl,
    DUCKDUCKGO_LITE_URL: e.duckduckgoLiteUrl,
    WIKIPEDIA_URL: e.wikipediaUrl,
    MOJEEK_URL: e.mojeekUrl,
    SEARXNG_URL: e.searxngUrl,
    BRAVE_URL: e.braveUrl,
    BRAVE_API_KEY: e.braveApiKey,
    GOOGLE_URL: e.googleUrl,
    GOOGLE_API_KEY: e.googleApiKey,
    GOOGLE_CSE_ID: e.googleCseId,
    BRAVE_RATE_PER_SECOND: '1000',
    WEBSEARCH_ALLOW_PRIVATE_ADDRESSES: 'true',
    WEBSEARCH_DUCKDUCKGO_INTERVAL_MS: '0',
    WEBSEARCH_SEARCH_CACHE_TTL_MS: '0',
    WEBSEARCH_CACHE_TTL_MS: '0',
    WEBSEARCH_FETCH_PER_HOST: '64',
    WEBSEARCH_LOG_LEVEL: 'silent',
  };
  return Object.fromEntries(Object.entries(env).filter((kv): kv is [string, string] => kv[1] !== undefined));
}
