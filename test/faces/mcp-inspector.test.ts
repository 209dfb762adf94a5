/**
 * The official MCP Inspector (CLI mode, @modelcontextprotocol/inspector 0.15) as an
 * independent client: it lists the tools and calls both over stdio (spawning
 * dist/cli.js), over Streamable HTTP (with sessions and stateless) and over the legacy
 * HTTP+SSE transport. Its JSON output is parsed and checked.
 *
 * What the 0.15 CLI can do (node_modules/@modelcontextprotocol/inspector-cli/build):
 * transports stdio | http | sse, picked from the target (a command → stdio; a URL whose
 * path ends in /mcp → http, in /sse → sse, anything else → sse) or forced with
 * --transport (the http transport appends /mcp, the sse one /sse, to a URL that lacks it);
 * methods tools/list, tools/call (--tool-name, --tool-arg key=value..., each value
 * converted by the tool's inputSchema: number/integer → Number, boolean → "true",
 * array/object → JSON.parse), resources/*, prompts/*, logging/setLevel. No request
 * headers (no auth), and --config/--server only reads command/args/env entries (an
 * `"type": "http"` entry spawns "undefined").
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { extractResponseSchema, searchResponseSchema } from '../../src/core/schemas.js';
import type { FakeEngines } from '../helpers/fake-engines.js';
import { spawnedServerEnv, startFakeEngines } from '../helpers/fake-engines.js';
import type { FixtureSite } from '../helpers/fixture-site.js';
import { startFixtureSite } from '../helpers/fixture-site.js';
import type { TestApi } from '../helpers/test-server.js';
import { startTestApi } from '../helpers/test-server.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const CLI = `${ROOT}dist/cli.js`;
const INSPECTOR = `${ROOT}node_modules/.bin/mcp-inspector`;
/** The pages the search with include_content finds: Google's only answer, no other test asks Google. */
const CONTENT_PATHS = ['/text', '/markdown'];

let fake: FakeEngines;
let site: FixtureSite;
let api: TestApi;
let stateless: TestApi;

beforeAll(async () => {
  [fake, site] = await Promise.all([startFakeEngines(), startFixtureSite()]);
  // Set once, before any test: the tests of a transport run side by side, so none of them
  // switches a scenario another one relies on.
  fake.setScenario('google', {
    body: {
      items: CONTENT_PATHS.map((path, i) => ({
        link: `${site.origin}${path}`,
        title: `Page ${i}`,
        snippet: 'snippet',
      })),
    },
  });
  const overrides = {
    engines: fake.engineConfig,
    search: { duckduckgoIntervalMs: 0, cacheTtlMs: 0, braveRatePerSecond: 1000 },
    fetch: { perHostConcurrency: 64 },
    cache: { ttlMs: 0 },
  };
  [api, stateless] = await Promise.all([
    startTestApi(overrides),
    startTestApi({ ...overrides, mcp: { stateless: true } }),
  ]);
});
afterAll(async () => {
  await Promise.all([api?.close(), stateless?.close()]);
  await Promise.all([fake?.close(), site?.close()]);
});

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** `mcp-inspector --cli <target...> <options...>`; the target comes first, --tool-arg last (it is variadic). */
function inspector(target: string[], options: string[]): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(INSPECTOR, ['--cli', ...target, ...options], {
      env: spawnedServerEnv(fake),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), 25_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** Runs the inspector and parses the JSON it prints; fails with its output otherwise. */
async function inspect(target: string[], options: string[]): Promise<any> {
  const run = await inspector(target, options);
  expect(run.code, `inspector exit code\nstdout: ${run.stdout}\nstderr: ${run.stderr}`).toBe(0);
  try {
    return JSON.parse(run.stdout);
  } catch {
    throw new Error(`inspector printed no JSON:\nstdout: ${run.stdout}\nstderr: ${run.stderr}`);
  }
}

function expectSuccess(result: any): void {
  expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
  expect(result.structuredContent ?? result.content).toBeDefined();
  expect(result.content?.[0]?.type).toBe('text');
}

interface Target {
  name: string;
  target: () => string[];
}

const TARGETS: Target[] = [
  { name: 'stdio (node dist/cli.js)', target: () => [process.execPath, CLI] },
  { name: 'Streamable HTTP with sessions', target: () => [`${api.url}/mcp`] },
  { name: 'Streamable HTTP stateless', target: () => [`${stateless.url}/mcp`] },
  { name: 'legacy HTTP+SSE', target: () => [`${api.url}/sse`] },
];

beforeAll(() => {
  expect(existsSync(CLI), 'dist/cli.js is built by `npm run build` (pretest)').toBe(true);
  expect(existsSync(INSPECTOR), 'the @modelcontextprotocol/inspector devDependency is installed').toBe(true);
});

// The targets one after another, the five calls of each side by side (each is an
// inspector process, and over stdio a server process too: five at a time).
describe.each(TARGETS)('the MCP Inspector CLI over $name', ({ target }) => {
  it.concurrent('lists the tools with output schemas and annotations', async () => {
    const listed = await inspect(target(), ['--method', 'tools/list']);
    expect(listed.tools.map((t: { name: string }) => t.name).sort()).toEqual([
      'crawl_site',
      'crawl_status',
      'extract_urls',
      'map_site',
      'web_search',
    ]);
    for (const tool of listed.tools) {
      expect(tool.outputSchema?.type, tool.name).toBe('object');
      expect(tool.annotations, tool.name).toMatchObject({ readOnlyHint: true, openWorldHint: true });
    }
  });

  it.concurrent('calls web_search (string, array and integer arguments)', async () => {
    const result = await inspect(target(), [
      '--method',
      'tools/call',
      '--tool-name',
      'web_search',
      '--tool-arg',
      'q=rust ownership',
      'engines=["wikipedia","searxng"]',
      'max_results=3',
    ]);
    expectSuccess(result);
    const response = searchResponseSchema.parse(result.structuredContent);
    expect(response.engines).toEqual(['wikipedia', 'searxng']);
    expect(response.results.length).toBeGreaterThan(0);
    expect(response.results.length).toBeLessThanOrEqual(3);
    expect(response.metadata.status).toBe('success');
  });

  it.concurrent(
    'calls web_search with include_content (boolean argument): page content from the fixture site',
    async () => {
      const result = await inspect(target(), [
        '--method',
        'tools/call',
        '--tool-name',
        'web_search',
        '--tool-arg',
        'q=pages',
        'engines=["google"]',
        'include_content=true',
        'content_results=2',
      ]);
      expectSuccess(result);
      const response = searchResponseSchema.parse(result.structuredContent);
      expect(response.metadata).toMatchObject({ content_requested: 2, content_delivered: 2 });
      expect(response.results.every((r) => (r.content ?? '').length > 0)).toBe(true);
    },
  );

  it.concurrent('calls extract_urls (an array argument): one page extracted, one refused', async () => {
    const urls = JSON.stringify([`${site.origin}/html`, `${site.origin}/doc.pdf`]);
    const result = await inspect(target(), [
      '--method',
      'tools/call',
      '--tool-name',
      'extract_urls',
      '--tool-arg',
      `urls=${urls}`,
    ]);
    expectSuccess(result);
    const response = extractResponseSchema.parse(result.structuredContent);
    expect(response.results.map((r) => r.success)).toEqual([true, false]);
    expect(response.results[1]?.error_type).toBe('unsupported_content_type');
    expect(response.results[0]?.markdown.length).toBeGreaterThan(0);
  });

  it.concurrent('shows a bad argument as an isError result (exit 0), not a protocol failure', async () => {
    const result = await inspect(target(), [
      '--method',
      'tools/call',
      '--tool-name',
      'extract_urls',
      '--tool-arg',
      'urls=[]',
    ]);
    expect(result.isError).toBe(true);
    expect(result.content[0].text).toMatch(/^invalid_request: /);
  });
});
