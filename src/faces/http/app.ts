/**
 * The JSON API (hono): `POST|GET /api/search`, `POST /api/crawl`, the MCP Streamable HTTP
 * endpoint at `/mcp` and the legacy SSE one, each behind the API-key check; `/healthz`;
 * and the request-level errors of
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
import type { Store } from '../../core/store-port.js';
import type { Caller } from '../../core/caller.js';
import { withTimeout } from '../../core/with-timeout.js';
import type { Metrics } from '../../services/metrics.js';
import type { Operations } from '../../services/operations.js';
import type { LegacySseHandler } from '../mcp/legacy-sse.js';
import type { AuthVariables, Authenticator } from './auth.js';
import { requireCaller } from './auth.js';
import { appErrorResponse, errorResponse } from './error-response.js';
import { buildOpenApiDocument } from './openapi.js';
import { hostGuard } from './host-guard.js';
import { readJsonBody } from './read-json-body.js';
import { searchQueryToBody } from './search-query.js';

export interface HttpAppDeps {
  config: Config;
  logger: Logger;
  operations: Pick<Operations, 'extract' | 'search'>;
  auth: Authenticator;
  /** Reached by `/healthz`: the store must answer. */
  store: Pick<Store, 'kind' | 'ping'>;
  /** Prometheus metrics of this process; without them there is no `/metrics`. */
  metrics?: Metrics;
  /** Whether a request may read `/metrics` (the metrics token, or any valid API key when keys exist). */
  metricsAllowed?: (headers: Headers) => Promise<boolean>;
  /** Handles `/mcp` (Streamable HTTP) for a caller, with a POST's body already read; absent when MCP over HTTP is off. */
  mcp?: (request: Request, caller: Caller, parsedBody?: unknown) => Promise<Response>;
  /** The legacy HTTP+SSE transport (`GET /sse`, `POST /messages`). */
  sse?: LegacySseHandler;
}

/** Routes and the methods each accepts, for 405 answers with an `Allow` header. */
const ROUTES: Record<string, string[]> = {
  '/api/crawl': ['POST'],
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

/** The response header naming the request (its context's id: core/request-context.ts). */
export const REQUEST_ID_HEADER = 'X-Request-Id';

/** The mark of @hono/node-server's RESPONSE_ALREADY_SENT: nothing more can be written. */
const ALREADY_SENT = 'x-hono-already-sent';

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
    deps.metrics?.observeHttp(c.req.path in ROUTES ? c.req.path : 'other', c.req.method, c.res.status, ms / 1000);
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

  // Liveness and readiness in one: the process answers and its store is reachable.
  const health = async (c: Context<Env>) => {
    const started = performance.now();
    try {
      await withTimeout(deps.store.ping(), HEALTH_TIMEOUT_MS);
      return c.json({ status: 'ok', store: deps.store.kind, store_ms: Math.round(performance.now() - started) });
    } catch (err) {
      deps.logger.warn({ err }, 'health check: store unreachable');
      return c.json({ status: 'unavailable', store: deps.store.kind, error: 'the store does not answer' }, 503);
    }
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
          'Metrics need the metrics token or an API key as "Authorization: Bearer <token>".',
        );
      }
      const { contentType, body } = await metrics.render();
      return c.body(body, 200, { 'content-type': contentType });
    });
  }

  const authenticated = requireCaller(deps.auth, (code) => deps.metrics?.requestRefused(code));
  for (const path of ['/api/crawl', '/api/search', '/mcp', '/sse', '/messages']) app.use(path, authenticated);

  // The request as Operations takes it (which validates it and fixes its deadline): its
  // id, its caller, and the client's disconnect.
  const incoming = (c: Context<Env>): IncomingRequest =>
    incomingRequest({ id: c.get('requestId'), caller: c.get('caller'), logger: deps.logger, cancel: c.req.raw.signal });

  // One body limit for every route; only the JSON API takes `curl -d` bodies labelled as forms.
  const limit = deps.config.server.bodyLimitBytes;
  app.post('/api/crawl', async (c) => {
    const body = await readJsonBody(c, limit, { curlForms: true });
    return c.json(await deps.operations.extract(incoming(c), body));
  });

  app.post('/api/search', async (c) => {
    const body = await readJsonBody(c, limit, { curlForms: true });
    return c.json(await deps.operations.search(incoming(c), body));
  });

  app.get('/api/search', async (c) =>
    c.json(await deps.operations.search(incoming(c), searchQueryToBody(new URL(c.req.url).searchParams))),
  );

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

  app.notFound((c) =>
    errorResponse(
      c,
      'not_found',
      `No route ${c.req.method} ${new URL(c.req.url).pathname}. Routes: GET|POST /api/search, POST /api/crawl, /mcp, GET /sse.`,
    ),
  );

  app.onError((err, c) => {
    const error = toAppError(err);
    if (!(err instanceof AppError) || error.code === 'internal_error') {
      deps.logger.error({ err, path: c.req.path, request_id: c.get('requestId') }, 'request failed');
    }
    return appErrorResponse(c, error);
  });

  return app;
}
