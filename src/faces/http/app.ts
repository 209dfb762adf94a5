/**
 * The JSON API (hono): `POST|GET /api/search`, `POST /api/crawl`, the reader `GET /r/<url>`,
 * a key's own `GET /api/usage`, the MCP Streamable HTTP endpoint at `/mcp` and the legacy
 * SSE one, each behind the API-key check; `/healthz`; the operator's `/metrics`; the
 * playground at `/`; and the request-level errors of
 * docs/decisions.md, "Gaps in part 7 (request-level errors)" (400 with paths, 401, 402,
 * 404, 405, 413, 415, 429, 500 without a stack trace). Every response names its request
 * in `X-Request-Id`: the id of the request's context, its log lines and its usage record.
 */
import type { HttpBindings } from '@hono/node-server';
import { RESPONSE_ALREADY_SENT } from '@hono/node-server/utils/response';
import type { Context } from 'hono';
import { Hono } from 'hono';
import type { Config } from '../../core/config.js';
import { AppError, toAppError } from '../../core/errors.js';
import { newRequestId } from '../../core/ids.js';
import type { Logger } from '../../core/logger.js';
import { incomingRequest, type IncomingRequest } from '../../core/request-context.js';
import type { Store } from '../../core/ports/store-port.js';
import type { BrowserStatus } from '../../core/ports/render-port.js';
import type { Caller } from '../../core/caller.js';
import { withTimeout } from '../../core/with-timeout.js';
import type { Metrics } from '../../services/metrics.js';
import type { Operations } from '../../services/operations.js';
import type { LegacySseHandler } from '../mcp/legacy-sse.js';
import type { AuthVariables, Authenticator } from './auth.js';
import { requireCaller } from './auth.js';
import { boundKeyRequests, limitKeyRequests } from './key-requests.js';
import { appErrorResponse, errorResponse, REQUEST_ID_HEADER } from './error-response.js';
import { buildOpenApiDocument } from './openapi.js';
import { hostGuard } from './host-guard.js';
import { readJsonBody } from './read-json-body.js';
import { queryToBody } from './query-to-body.js';
import { creditsRemaining } from './credits-remaining.js';
import { playgroundFile } from './playground-assets.js';
import { READER_PREFIX, errorAsText, readerRequest, readerResponse, wantsJson } from './reader.js';
import { extractRequestSchema, searchRequestSchema } from '../../core/schemas.js';
import { usageQuerySchema } from '../../core/usage-schema.js';
import { siteCrawlStatusQuerySchema } from '../../core/site-schemas.js';
import { VERSION } from '../../core/config.js';

export interface HttpAppDeps {
  config: Config;
  logger: Logger;
  operations: Pick<
    Operations,
    'extract' | 'search' | 'usage' | 'map' | 'startSiteCrawl' | 'siteCrawlStatus' | 'cancelSiteCrawl'
  >;
  auth: Authenticator;
  /** Reached by `/healthz`: the store must answer. */
  store: Pick<Store, 'kind' | 'ping'>;
  /** The crawl queue's part of `/healthz`: `shared` (BullMQ on Redis) or `local` (the store's frontier). */
  crawlQueue?: { shared: boolean; ping(): Promise<void> };
  /** The browser's part of `/healthz`, when there is a renderer. */
  browser?: (timeoutMs: number) => Promise<BrowserStatus>;
  /** The word vectors loaded at start (WEBSEARCH_WORD_VECTORS), reported by `/healthz`. */
  wordVectors?: { words: number; dims: number };
  /** Prometheus metrics of this process; without them there is no `/metrics`. */
  metrics?: Metrics;
  /** Whether a request may read `/metrics` (the operator's metrics token; docs/decisions.md, "Metrics for operators only"). */
  metricsAllowed?: (headers: Headers) => Promise<boolean>;
  /** Handles `/mcp` (Streamable HTTP) for a caller, with a POST's body already read; absent when MCP over HTTP is off. */
  mcp?: (request: Request, caller: Caller, parsedBody?: unknown) => Promise<Response>;
  /** The legacy HTTP+SSE transport (`GET /sse`, `POST /messages`). */
  sse?: LegacySseHandler;
}

/** Routes and the methods each accepts, for 405 answers with an `Allow` header. */
const ROUTES: Record<string, string[]> = {
  '/': ['GET'],
  '/api/crawl': ['POST'],
  '/api/map': ['POST'],
  '/api/site-crawls': ['POST'],
  '/api/site-crawls/:id': ['GET', 'DELETE'],
  '/api/usage': ['GET'],
  '/r/*': ['GET'],
  '/api/search': ['GET', 'POST'],
  '/mcp': ['GET', 'POST', 'DELETE'],
  '/sse': ['GET'],
  '/messages': ['POST'],
  '/health': ['GET'],
  '/healthz': ['GET'],
  '/metrics': ['GET'],
  '/openapi.json': ['GET'],
};

/** How long `/healthz` waits for the store before calling it unreachable. */
const HEALTH_TIMEOUT_MS = 2_000;

/** The mark of @hono/node-server's RESPONSE_ALREADY_SENT: nothing more can be written. */
const ALREADY_SENT = 'x-hono-already-sent';

/** The metrics label of a path: its route, or `other` (a raw path would be an unbounded label). */
function routeLabel(path: string): string {
  if (path.startsWith(READER_PREFIX)) return `${READER_PREFIX}*`;
  if (path.startsWith('/api/site-crawls/')) return '/api/site-crawls/:id';
  return path in ROUTES ? path : 'other';
}

type Env = { Bindings: HttpBindings; Variables: AuthVariables & { requestId: string } };

export function createHttpApp(deps: HttpAppDeps): Hono<Env> {
  const app = new Hono<Env>();

  // First of all: the request's id, on every response (errors included: they reach here
  // through onError) and on its lines in the log. One debug line per request: who (the
  // key's id, never the key), what, how it ended; and the request metrics, labelled by
  // route (a raw path would be an unbounded label).
  app.use('*', async (c, next) => {
    const started = performance.now();
    const requestId = newRequestId();
    c.set('requestId', requestId);
    await next();
    // A stream the SDK wrote to node's response itself (GET /sse) got the header there.
    if (!c.res.headers.has(ALREADY_SENT)) c.header(REQUEST_ID_HEADER, requestId);
    const ms = performance.now() - started;
    deps.metrics?.observeHttp(routeLabel(c.req.path), c.req.method, c.res.status, ms / 1000);
    deps.logger.debug(
      {
        request_id: requestId,
        method: c.req.method,
        path: c.req.path,
        status: c.res.status,
        ms: Math.round(ms),
        key: c.get('caller')?.key?.id,
      },
      'request',
    );
  });
  app.use('*', hostGuard(deps.config.server.host, deps.config.auth.allowedHosts));

  // Liveness and readiness in one: the process answers and its store is reachable. The
  // browser is reported beside it, and fails the check only where every page needs it: a
  // remote browser that cannot be reached while WEBSEARCH_RENDER=always (searches and static
  // pages work without one; a local browser starts when a page needs it).
  const health = async (c: Context<Env>) => {
    const started = performance.now();
    const browsing = deps.browser?.(HEALTH_TIMEOUT_MS).catch((err: unknown) => {
      deps.logger.warn({ err }, 'health check: the browser status failed');
      return undefined;
    });
    const queueing = crawlQueueHealth(deps, HEALTH_TIMEOUT_MS);
    let storeMs: number | undefined;
    try {
      await withTimeout(deps.store.ping(), HEALTH_TIMEOUT_MS);
      storeMs = Math.round(performance.now() - started);
    } catch (err) {
      deps.logger.warn({ err }, 'health check: store unreachable');
    }
    const browser = await browsing;
    const queue = await queueing;
    const shown = {
      ...(queue ? { crawl_queue: queue } : {}),
      ...(browser ? { browser } : {}),
      ...(deps.wordVectors ? { word_vectors: deps.wordVectors } : {}),
    };
    if (storeMs === undefined)
      return c.json(
        { status: 'unavailable', store: deps.store.kind, error: 'the store does not answer', ...shown },
        503,
      );
    if (browser?.kind === 'remote' && browser.reachable === false && deps.config.render.mode === 'always') {
      deps.logger.warn('health check: the remote browser is unreachable and every page is rendered');
      return c.json(
        {
          status: 'unavailable',
          store: deps.store.kind,
          store_ms: storeMs,
          error: 'the remote browser does not answer, and every page needs it (WEBSEARCH_RENDER=always)',
          ...shown,
        },
        503,
      );
    }
    return c.json({ status: 'ok', store: deps.store.kind, store_ms: storeMs, ...shown });
  };
  app.get('/healthz', health);
  app.get('/health', health);

  let openapi: string | undefined;
  app.get('/openapi.json', (c) => {
    openapi ??= JSON.stringify(buildOpenApiDocument({ config: deps.config }));
    return c.body(openapi, 200, { 'content-type': 'application/json' });
  });

  if (deps.metrics) {
    const metrics = deps.metrics;
    app.get('/metrics', async (c) => {
      if (deps.metricsAllowed && !(await deps.metricsAllowed(c.req.raw.headers))) {
        throw new AppError(
          'unauthorized',
          'Metrics are for the server\'s operator: send its metrics token (WEBSEARCH_METRICS_TOKEN) as "Authorization: Bearer <token>"; API keys do not open them.',
        );
      }
      const { contentType, body } = await metrics.render();
      return c.body(body, 200, { 'content-type': contentType });
    });
  }

  // The reader answers text unless JSON was asked for: its request-level errors (401, 402,
  // 400...) too, as one line, with the status and headers of the JSON error.
  app.use(`${READER_PREFIX}*`, async (c, next) => {
    await next();
    if (c.error !== undefined && c.req.method === 'GET' && !wantsJson(c)) c.res = await errorAsText(c.res);
  });

  const authenticated = requireCaller(deps.auth, (code) => deps.metrics?.requestRefused(code));
  // A key's requests in flight, from any number of addresses, counted once it is known.
  const keyBound = boundKeyRequests(limitKeyRequests(deps.config.server.maxRequestsPerKey), (code) =>
    deps.metrics?.requestRefused(code),
  );
  for (const path of [
    '/api/crawl',
    '/api/map',
    '/api/site-crawls',
    '/api/site-crawls/*',
    '/api/search',
    '/api/usage',
    `${READER_PREFIX}*`,
    '/mcp',
    '/sse',
    '/messages',
  ])
    app.use(path, authenticated, keyBound);

  // The request as Operations takes it (which validates it and fixes its deadline): its
  // id, its caller, and the client's disconnect.
  const incoming = (c: Context<Env>): IncomingRequest =>
    incomingRequest({ id: c.get('requestId'), caller: c.get('caller'), logger: deps.logger, cancel: c.req.raw.signal });

  // One body limit for every route; only the JSON API takes `curl -d` bodies labelled as forms.
  const limit = deps.config.server.bodyLimitBytes;
  app.post('/api/crawl', async (c) => {
    const body = await readJsonBody(c, limit, { curlForms: true });
    return c.json(await deps.operations.extract(incoming(c), body, creditsRemaining(c)));
  });

  app.post('/api/search', async (c) => {
    const body = await readJsonBody(c, limit, { curlForms: true });
    return c.json(await deps.operations.search(incoming(c), body, creditsRemaining(c)));
  });

  // A HEAD is a GET without its body (RFC 9110 9.3.2): on a metered route it would run the
  // operation and charge it for nothing a link checker or `curl -I` could read, so it is refused.
  // (Hono hands a HEAD to the GET handler, so the original method is checked here.)
  for (const path of ['/api/search', `${READER_PREFIX}*`]) {
    app.use(path, async (c, next) => {
      if (c.req.raw.method !== 'HEAD') return next();
      return errorResponse(
        c,
        'method_not_allowed',
        `HEAD is not answered on ${c.req.path}: it would run and charge the operation; use GET.`,
        undefined,
        { Allow: path === '/api/search' ? 'GET, POST' : 'GET' },
      );
    });
  }

  const query = (c: Context<Env>, schema: Parameters<typeof queryToBody>[1]) =>
    queryToBody(new URL(c.req.url).searchParams, schema);
  app.get('/api/search', async (c) =>
    c.json(await deps.operations.search(incoming(c), query(c, searchRequestSchema), creditsRemaining(c))),
  );

  app.post('/api/map', async (c) => {
    const body = await readJsonBody(c, limit, { curlForms: true });
    return c.json(await deps.operations.map(incoming(c), body, creditsRemaining(c)));
  });

  // A crawl is a job: 202 while it runs (Location names it), 200 once done (a small crawl with wait_ms).
  app.post('/api/site-crawls', async (c) => {
    const body = await readJsonBody(c, limit, { curlForms: true });
    const status = await deps.operations.startSiteCrawl(incoming(c), body);
    c.header('Location', `/api/site-crawls/${encodeURIComponent(status.id)}`);
    return c.json(status, status.status === 'running' ? 202 : 200);
  });
  app.get('/api/site-crawls/:id', async (c) =>
    c.json(await deps.operations.siteCrawlStatus(incoming(c), c.req.param('id'), query(c, siteCrawlStatusQuerySchema))),
  );
  app.delete('/api/site-crawls/:id', async (c) =>
    c.json(await deps.operations.cancelSiteCrawl(incoming(c), c.req.param('id'))),
  );

  app.get('/api/usage', async (c) => c.json(await deps.operations.usage(incoming(c), query(c, usageQuerySchema))));

  const extractSchema = extractRequestSchema({
    maxUrls: deps.config.crawl.maxUrls,
    maxTimeoutMs: deps.config.fetch.maxTimeoutMs,
  });
  app.get(`${READER_PREFIX}*`, async (c) => {
    const request = readerRequest(c.req.url, extractSchema, wantsJson(c));
    return readerResponse(c, await deps.operations.extract(incoming(c), request, creditsRemaining(c)));
  });

  // The playground (a person's face of the same API) for browsers; a JSON index for API clients.
  app.get('/', (c) => {
    const accept = c.req.header('accept') ?? '';
    if (/\bapplication\/json\b/i.test(accept) && !/\btext\/html\b/i.test(accept)) {
      return c.json({
        name: 'websearch-mcp',
        version: VERSION,
        playground: '/',
        openapi: '/openapi.json',
        routes: Object.entries(ROUTES).map(([path, methods]) => `${methods.join('|')} ${path}`),
      });
    }
    return playgroundFile(c, 'index.html') as Response;
  });
  app.get('/playground/:file', (c) => {
    const file = playgroundFile(c, c.req.param('file'));
    return file ?? errorResponse(c, 'not_found', `No playground file ${c.req.param('file')}.`);
  });

  if (deps.mcp) {
    const handle = deps.mcp;
    app.on(['GET', 'POST', 'DELETE'], '/mcp', async (c) => {
      const body = c.req.method === 'POST' ? await readJsonBody(c, limit) : undefined;
      return handle(c.req.raw, c.get('caller'), body);
    });
  }

  if (deps.sse) {
    const sse = deps.sse;
    // The SDK's SSE transport writes to node's response itself.
    app.get('/sse', async (c) => {
      // HEAD reaches GET routes: answer the headers of a stream without opening one.
      if (c.req.method === 'HEAD')
        return c.body(null, 200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache, no-transform' });
      // Written by the SDK, not by hono: the header goes on node's response first.
      c.env.outgoing.setHeader(REQUEST_ID_HEADER, c.get('requestId'));
      await sse.open(c.env.incoming, c.env.outgoing, c.get('caller'));
      return RESPONSE_ALREADY_SENT;
    });
    app.post('/messages', async (c) => {
      const message = await readJsonBody(c, limit);
      const extra = { requestInfo: { headers: Object.fromEntries(c.req.raw.headers), url: new URL(c.req.url) } };
      await sse.post(c.req.query('sessionId'), c.get('caller'), message, extra);
      return c.body(null, 202);
    });
  }

  for (const [path, methods] of Object.entries(ROUTES)) {
    app.all(path, (c) =>
      errorResponse(
        c,
        'method_not_allowed',
        `${c.req.method} is not allowed on ${path}; use ${methods.join(' or ')}.`,
        undefined,
        {
          Allow: methods.join(', '),
        },
      ),
    );
  }

  // The routes as registered (middleware and the 405 answers are registered for ALL methods), so the list cannot go stale.
  let routeList: string | undefined;
  const registeredRoutes = (): string => {
    const methods = new Map<string, Set<string>>();
    for (const route of app.routes)
      if (route.method !== 'ALL' && route.path !== '*')
        methods.set(route.path, (methods.get(route.path) ?? new Set()).add(route.method));
    const order = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];
    const sorted = (m: Set<string>) => [...m].sort((a, b) => order.indexOf(a) - order.indexOf(b)).join('|');
    return [...methods].map(([path, m]) => `${sorted(m)} ${path}`).join(', ');
  };
  app.notFound((c) => {
    routeList ??= registeredRoutes();
    return errorResponse(
      c,
      'not_found',
      `No route ${c.req.method} ${new URL(c.req.url).pathname}. Routes: ${routeList}.`,
    );
  });

  app.onError((err, c) => {
    const error = toAppError(err);
    if (!(err instanceof AppError) || error.code === 'internal_error') {
      deps.logger.error({ err, path: c.req.path, request_id: c.get('requestId') }, 'request failed');
    }
    return appErrorResponse(c, error);
  });

  return app;
}

/**
 * The crawl queue beside the store: a shared one (BullMQ) answers on its own connections,
 * so it is pinged; a local one is the store's frontier. It never fails the check: searches
 * and extractions work without it, and an instance that cannot reach it leaves its crawls'
 * pages to the others.
 */
async function crawlQueueHealth(
  deps: Pick<HttpAppDeps, 'crawlQueue' | 'logger'>,
  timeoutMs: number,
): Promise<{ kind: 'shared' | 'local'; reachable: boolean; ms?: number } | undefined> {
  if (deps.crawlQueue === undefined) return undefined;
  const kind = deps.crawlQueue.shared ? 'shared' : 'local';
  const started = performance.now();
  try {
    await withTimeout(deps.crawlQueue.ping(), timeoutMs);
    return { kind, reachable: true, ms: Math.round(performance.now() - started) };
  } catch (err) {
    deps.logger.warn({ err }, 'health check: the crawl queue does not answer');
    return { kind, reachable: false };
  }
}
