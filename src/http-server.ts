/**
 * Starts the HTTP face: the JSON API and MCP Streamable HTTP on one node server.
 */
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import type { Core } from './compose.js';
import { createHttpApp } from './faces/http/app.js';
import { isLoopbackHost } from './faces/http/host-guard.js';
import { createMcpServer } from './faces/mcp/create-mcp-server.js';
import { createLegacySseHandler } from './faces/mcp/legacy-sse.js';
import { createStatelessHttpHandler, createStreamableHttpHandler } from './faces/mcp/streamable-http.js';

export interface RunningServer {
  url: string;
  port: number;
  close(): Promise<void>;
}

export async function startHttpServer(core: Core): Promise<RunningServer> {
  const { config, logger } = core;
  // decisions.md: with no API keys configured the server only listens on loopback.
  if (!isLoopbackHost(config.server.host)) {
    throw new Error(
      `Refusing to listen on ${config.server.host}: without API keys the server only binds loopback (127.0.0.1, ::1, localhost).`,
    );
  }
  const mcpDeps = { config, logger, engines: core.search.settings.configured, services: async () => core };
  const makeServer = () => createMcpServer(mcpDeps);
  const mcp = config.mcp.stateless ? createStatelessHttpHandler(makeServer, logger) : createStreamableHttpHandler(makeServer, logger);
  const sse = createLegacySseHandler(makeServer, logger);
  const app = createHttpApp({ config, logger, crawl: core.crawl, search: core.search, mcp: mcp.handle, sse });
  const server = serve({ fetch: app.fetch, hostname: config.server.host, port: config.server.port });
  await new Promise<void>((resolve, reject) => {
    server.once('listening', () => resolve());
    server.once('error', reject);
  });
  const { port } = server.address() as AddressInfo;
  const host = config.server.host.includes(':') ? `[${config.server.host}]` : config.server.host;
  const url = `http://${host}:${port}`;
  logger.info({ url }, 'listening');
  return {
    url,
    port,
    close: async () => {
      await mcp.close();
      await sse.close();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        (server as unknown as { closeAllConnections?: () => void }).closeAllConnections?.();
      });
    },
  };
}
