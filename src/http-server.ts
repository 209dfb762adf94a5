/**
 * Starts the HTTP face: the JSON API and MCP (Streamable HTTP and legacy SSE) on one node
 * server, and stops it gracefully: no new connections, in-flight work finishes within a
 * grace period, then MCP sessions and streams are closed.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { getRequestListener } from '@hono/node-server';
import type { Core } from './compose.js';
import { ConfigError } from './core/config.js';
import { createAuthenticator, metricsGate } from './faces/http/auth.js';
import { createHttpApp } from './faces/http/app.js';
import { answerClientError, answerUnroutableRequest, rawErrorResponse } from './faces/http/client-error.js';
import { shareConnections } from './faces/http/connection-share.js';
import { isLoopbackHost } from './faces/http/host-guard.js';
import { createMcpServer } from './faces/mcp/create-mcp-server.js';
import { createLegacySseHandler } from './faces/mcp/legacy-sse.js';
import { createSessionLimits } from './faces/mcp/session-limits.js';
import type { McpServerFactory } from './faces/mcp/streamable-http.js';
import { createStatelessHttpHandler, createStreamableHttpHandler } from './faces/mcp/streamable-http.js';

export interface RunningServer {
  url: string;
  port: number;
  /** Requests doing work right now (every request but the long-lived GET streams). */
  inFlight(): number;
  /** Stops accepting, lets in-flight work finish for up to `graceMs` (default: the configured grace), then closes everything. */
  close(graceMs?: number): Promise<void>;
}

export async function startHttpServer(core: Core): Promise<RunningServer> {
  const { config, logger } = core;
  const loopback = isLoopbackHost(config.server.host);
  const proxied = config.auth.allowedHosts.length > 0;
  // docs/decisions.md, "Credits and keys": with no API keys the server only listens on
  // loopback, and a loopback server that a reverse proxy publishes
  // (WEBSEARCH_ALLOWED_HOSTS) is not a private one.
  if ((!loopback || proxied) && (await core.keys.count()) === 0) {
    throw new ConfigError([
      loopback
        ? `--allowed-hosts / WEBSEARCH_ALLOWED_HOSTS ${config.auth.allowedHosts.join(',')}: a server published through a reverse proxy needs API keys; create one with "websearch-mcp keys create".`
        : `--host / WEBSEARCH_HOST ${config.server.host}: a server on a non-loopback address needs API keys; create one with "websearch-mcp keys create" (or bind 127.0.0.1).`,
    ]);
  }
  // The holds this instance left when it was killed, released before its first request
  // rather than at it, so its keys are whole again as soon as it is back. A store that
  // does not answer now delays this to the first metered request, which tries again.
  await core.metering
    .releaseOwnHolds(logger)
    .catch((err: unknown) =>
      logger.warn({ err }, 'releasing the credit holds of an earlier run failed; the first metered request retries'),
    );
  // Open mode: a single user's loopback server, while no key has been created.
  const openMode = loopback && !proxied;
  const { metrics } = core;
  const makeServer: McpServerFactory = (caller) =>
    createMcpServer({
      config,
      logger,
      engines: core.search.settings.configured,
      services: async () => core,
      caller,
      ...(metrics ? { observer: metrics } : {}),
    });
  // One budget for both transports: a session costs about the same on either.
  const limits = createSessionLimits({
    maxSessions: config.mcp.maxSessions,
    maxSessionsPerKey: config.mcp.maxSessionsPerKey,
    idleMs: config.mcp.sessionIdleMs,
  });
  const mcp = config.mcp.stateless
    ? createStatelessHttpHandler(makeServer, logger)
    : createStreamableHttpHandler(makeServer, logger, limits);
  const sse = createLegacySseHandler(makeServer, logger, limits);
  const app = createHttpApp({
    config,
    logger,
    operations: core.operations,
    auth: createAuthenticator(core.keys, openMode),
    store: core.store,
    crawlQueue: { shared: core.siteCrawls.queueShared, ping: () => core.siteCrawls.pingQueue() },
    ...(core.browserStatus ? { browser: core.browserStatus } : {}),
    ...(core.wordVectors ? { wordVectors: { words: core.wordVectors.words.length, dims: core.wordVectors.dims } } : {}),
    ...(metrics ? { metrics, metricsAllowed: metricsGate(core.keys, config.auth.metricsToken, openMode) } : {}),
    mcp: mcp.handle,
    sse,
  });
  metrics?.setSessionGauge(() => ({ streamable: mcp.sessionCount(), sse: sse.sessionCount() }));
  metrics?.setSiteCrawlGauges({
    inHand: () => core.siteCrawls.pagesInHand(),
    queue: () => core.siteCrawls.queueDepth(),
  });
  const { headersTimeoutMs, requestTimeoutMs, keepAliveTimeoutMs } = config.server;
  // hono's node adapter, with the one error body for request targets it cannot make a URL of.
  const listener = getRequestListener(app.fetch, {
    hostname: config.server.host,
    errorHandler: answerUnroutableRequest(logger),
  });
  const server = createServer(
    {
      // The request timeout covers receiving a request (headers and body), not answering it:
      // event streams and long tool calls are not cut by it. Node checks these timeouts
      // every connectionsCheckingInterval (30 s by default, which made a silent client last
      // 90 s): a quarter of the shortest timeout, between 50 ms and 1 s, keeps them on time.
      headersTimeout: headersTimeoutMs,
      requestTimeout: requestTimeoutMs,
      keepAliveTimeout: keepAliveTimeoutMs,
      connectionsCheckingInterval: Math.max(50, Math.min(1_000, Math.floor(headersTimeoutMs / 4))),
      // Node answers an HTTP/1.1 request without Host with an empty 400: the host guard
      // refuses it instead, with the error body (RFC 9112 3.2).
      requireHostHeader: false,
    },
    listener,
  );
  // Past the cap node closes a new connection at once, before reading it; below it, each
  // client address gets its share, and idle connections make room first.
  server.maxConnections = config.server.maxConnections;
  shareConnections(server, {
    maxConnections: config.server.maxConnections,
    perAddress: config.server.maxConnectionsPerAddress,
    logger,
  });
  server.on('clientError', answerClientError(logger));
  // Without a listener node drops a CONNECT without a word: this is no proxy, and says so.
  server.on('connect', (_req: IncomingMessage, socket: Duplex) => {
    socket.end(
      rawErrorResponse('method_not_allowed', 'CONNECT is not served: this server is not a proxy.', {
        allow: 'GET, POST, DELETE',
      }),
      () => socket.destroy(),
    );
  });
  server.listen(config.server.port, config.server.host);

  // GET /mcp and GET /sse are event streams that stay open for a session's life; every
  // other request is work that a graceful stop waits for.
  let working = 0;
  let drained: (() => void) | undefined;
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    if (req.method === 'GET' && /^\/(mcp|sse)(\?|$)/.test(req.url ?? '')) return;
    working += 1;
    res.once('close', () => {
      working -= 1;
      if (working === 0) drained?.();
    });
  });

  await new Promise<void>((resolve, reject) => {
    server.once('listening', () => resolve());
    server.once('error', reject);
  });
  const { port } = server.address() as AddressInfo;
  const host = config.server.host.includes(':') ? `[${config.server.host}]` : config.server.host;
  const url = `http://${host}:${port}`;
  logger.info({ url }, 'listening');

  let closing: Promise<void> | undefined;
  const close = async (graceMs = config.server.shutdownGraceMs): Promise<void> => {
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    if (working > 0) {
      logger.info({ inFlight: working, graceMs }, 'waiting for in-flight requests');
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, graceMs);
        drained = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      if (working > 0) logger.warn({ inFlight: working }, 'grace period over: closing the remaining requests');
    }
    await mcp.close();
    await sse.close();
    (server as unknown as { closeAllConnections?: () => void }).closeAllConnections?.();
    await closed;
  };
  return {
    url,
    port,
    inFlight: () => working,
    close: (graceMs) => (closing ??= close(graceMs)),
  };
}
