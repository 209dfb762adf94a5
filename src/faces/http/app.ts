/**
 * The JSON API (hono): `POST|GET /api/search`, `POST /api/crawl`, the MCP Streamable HTTP endpoint at `/mcp`, and
 * the request-level errors of decisions.md (400 with paths, 404, 405, 413, 415, 500
 * without a stack trace).
 */
import type { HttpBindings } from '@hono/node-server';
import { RESPONSE_ALREADY_SENT } from '@hono/node-server/utils/response';
import { Hono } from 'hono';
import type { Config } from '../../core/config.js';
import { AppError, toAppError } from '../../core/errors.js';
import type { Logger } from '../../core/logger.js';
import { crawlRequestSchema, searchRequestSchema } from '../../core/schemas.js';
import { validate } from '../../core/validate.js';
import type { CrawlService } from '../../services/crawl-service.js';
import type { SearchService } from '../../services/search-service.js';
import type { LegacySseHandler } from '../mcp/legacy-sse.js';
import { appErrorResponse, errorResponse } from './error-response.js';
import { hostGuard } from './host-guard.js';
import { readJsonBody } from './read-json-body.js';
import { searchQueryToBody } from './search-query.js';

export interface HttpAppDeps {
  config: Config;
  logger: Logger;
  crawl: CrawlService;
  search: SearchService;
  /** Handles `/mcp` (Streamable HTTP); absent when MCP over HTTP is off. */
  mcp?: (request: Request) => Promise<Response>;
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
};

export function createHttpApp(deps: HttpAppDeps): Hono<{ Bindings: HttpBindings }> {
  const app = new Hono<{ Bindings: HttpBindings }>();
  const crawlSchema = crawlRequestSchema({ maxUrls: deps.config.crawl.maxUrls, maxTimeoutMs: deps.config.fetch.maxTimeoutMs });

  app.use('*', hostGuard(deps.config.server.host));

  app.get('/health', (c) => c.json({ status: 'ok' }));

  app.post('/api/crawl', async (c) => {
    const body = await readJsonBody(c, deps.config.server.bodyLimitBytes);
    const request = validate(crawlSchema, body);
    const response = await deps.crawl.crawl(request, { signal: c.req.raw.signal });
    return c.json(response);
  });

  app.post('/api/search', async (c) => {
    const request = validate(searchRequestSchema, await readJsonBody(c, deps.config.server.bodyLimitBytes));
    return c.json(await deps.search.search(request, { signal: c.req.raw.signal }));
  });

  app.get('/api/search', async (c) => {
    const request = validate(searchRequestSchema, searchQueryToBody(new URL(c.req.url).searchParams));
    return c.json(await deps.search.search(request, { signal: c.req.raw.signal }));
  });

  if (deps.mcp) {
    const handle = deps.mcp;
    app.on(['GET', 'POST', 'DELETE'], '/mcp', (c) => handle(c.req.raw));
  }

  if (deps.sse) {
    const sse = deps.sse;
    // The SDK's SSE transport writes to node's response itself.
    app.get('/sse', async (c) => {
      await sse.open(c.env.incoming, c.env.outgoing);
      return RESPONSE_ALREADY_SENT;
    });
    app.post('/messages', async (c) => {
      await sse.post(c.env.incoming, c.env.outgoing, c.req.query('sessionId'));
      return RESPONSE_ALREADY_SENT;
    });
  }

  for (const [path, methods] of Object.entries(ROUTES)) {
    app.all(path, (c) =>
      errorResponse(c, 'method_not_allowed', `${c.req.method} is not allowed on ${path}; use ${methods.join(' or ')}.`, undefined, {
        Allow: methods.join(', '),
      }),
    );
  }

  app.notFound((c) => errorResponse(c, 'not_found', `No route ${c.req.method} ${new URL(c.req.url).pathname}. Routes: GET|POST /api/search, POST /api/crawl, /mcp, GET /sse.`));

  app.onError((err, c) => {
    const error = toAppError(err);
    if (!(err instanceof AppError) || error.code === 'internal_error') {
      deps.logger.error({ err, path: c.req.path }, 'request failed');
    }
    return appErrorResponse(c, error);
  });

  return app;
}
