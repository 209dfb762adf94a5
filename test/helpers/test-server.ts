/**
 * Builds the real core with a test configuration (private addresses allowed, since every
 * fixture lives on 127.0.0.1) and starts the real HTTP face on port 0.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { Core } from '../../src/compose.js';
import { buildCore } from '../../src/compose.js';
import type { Config, ConfigSources, DeepPartial } from '../../src/core/config.js';
import { loadConfig } from '../../src/core/config.js';
import type { Logger } from '../../src/core/logger.js';
import { silentLogger } from '../../src/core/logger.js';
import { Metrics } from '../../src/services/metrics.js';
import type { RunningServer } from '../../src/http-server.js';
import { startHttpServer } from '../../src/http-server.js';
import { createMcpServer, type McpDeps } from '../../src/faces/mcp/create-mcp-server.js';

/** `sources.fileExists` stands in for the file system (e.g. a machine without Chromium). */
export function testConfig(
  overrides: DeepPartial<Config> = {},
  sources: Pick<ConfigSources, 'fileExists'> = {},
): Config {
  return loadConfig({
    ...sources,
    env: {},
    overrides: {
      ...overrides,
      server: { port: 0, shutdownGraceMs: 2000, ...overrides.server },
      fetch: { allowPrivateAddresses: true, timeoutMs: 5000, ...overrides.fetch },
      log: { level: 'silent', ...overrides.log },
      store: { path: ':memory:', ...overrides.store },
      // Tests that render say so (test/render/); the others check the static path.
      render: { mode: 'never', ...overrides.render },
    },
  });
}

export interface TestApi {
  core: Core;
  server: RunningServer;
  url: string;
  post(path: string, body: unknown, headers?: Record<string, string>): Promise<Response>;
  crawl(body: unknown): Promise<{ status: number; json: any }>;
  close(): Promise<void>;
}

export interface TestApiOptions {
  /** Runs on the built core before the server listens (keys a start needs). */
  beforeStart?: (core: Core) => Promise<unknown>;
  /** Sees what the server logs (default: silent). */
  logger?: Logger;
  /** Stands in for the file system (e.g. a machine without Chromium). */
  fileExists?: ConfigSources['fileExists'];
}

export async function startTestApi(
  overrides: DeepPartial<Config> = {},
  options: TestApiOptions = {},
): Promise<TestApi> {
  const sources = options.fileExists ? { fileExists: options.fileExists } : {};
  const core = await buildCore(testConfig(overrides, sources), options.logger ?? silentLogger, {
    metrics: new Metrics(),
  });
  let server: RunningServer;
  try {
    await options.beforeStart?.(core);
    server = await startHttpServer(core);
  } catch (err) {
    await core.close();
    throw err;
  }
  const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
    fetch(`${server.url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });
  return {
    core,
    server,
    url: server.url,
    post,
    crawl: async (body) => {
      const res = await post('/api/crawl', body);
      return { status: res.status, json: await res.json() };
    },
    close: async () => {
      await server.close();
      await core.close();
    },
  };
}

/** MCP server dependencies over an already built core. */
export function mcpDepsOf(core: Core): McpDeps {
  return {
    config: core.config,
    logger: core.logger,
    engines: core.search.settings.configured,
    services: async () => core,
  };
}

/** An SDK client connected to a fresh MCP server over `core`, through an in-memory pair. */
export async function inMemoryMcpClient(core: Core): Promise<{ client: Client; close(): Promise<void> }> {
  const handle = createMcpServer(mcpDepsOf(core));
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await handle.server.connect(serverSide);
  const client = new Client({ name: 'test', version: '1.0.0' });
  await client.connect(clientSide);
  return {
    client,
    close: async () => {
      await client.close();
      await handle.close();
    },
  };
}
