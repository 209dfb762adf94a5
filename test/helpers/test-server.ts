/**
 * Builds the real core with a test configuration (private addresses allowed, since every
 * fixture lives on 127.0.0.1) and starts the real HTTP face on port 0.
 */
import type { Core } from '../../src/compose.js';
import { buildCore } from '../../src/compose.js';
import type { Config, DeepPartial } from '../../src/core/config.js';
import { loadConfig } from '../../src/core/config.js';
import type { Logger } from '../../src/core/logger.js';
import { silentLogger } from '../../src/core/logger.js';
import { Metrics } from '../../src/services/metrics.js';
import type { RunningServer } from '../../src/http-server.js';
import { startHttpServer } from '../../src/http-server.js';
import type { McpDeps } from '../../src/faces/mcp/create-mcp-server.js';

export function testConfig(overrides: DeepPartial<Config> = {}): Config {
  return loadConfig({
    env: {},
    overrides: {
      ...overrides,
      server: { port: 0, shutdownGraceMs: 2000, ...overrides.server },
      fetch: { allowPrivateAddresses: true, timeoutMs: 5000, ...overrides.fetch },
      log: { level: 'silent', ...overrides.log },
      store: { path: ':memory:', ...overrides.store },
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

/** `beforeStart` runs on the built core before the server listens (keys a start needs); `logger` sees what the server logs. */
export async function startTestApi(overrides: DeepPartial<Config> = {}, beforeStart?: (core: Core) => Promise<unknown>, logger: Logger = silentLogger): Promise<TestApi> {
  const core = await buildCore(testConfig(overrides), logger, { metrics: new Metrics() });
  let server: RunningServer;
  try {
    await beforeStart?.(core);
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
  return { config: core.config, logger: core.logger, engines: core.search.settings.configured, services: async () => core };
}
