/**
 * The `extract_urls` tool through the SDK Client: over an in-memory pair, over Streamable
 * HTTP at /mcp, and over the spawned stdio binary. structuredContent is the HTTP JSON.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { extractResponseSchema } from '../../src/core/schemas.js';
import { PAGE_TYPES } from '../../src/core/page-types.js';
import { startFixtureSite } from '../helpers/fixture-site.js';
import type { TestApi } from '../helpers/test-server.js';
import { inMemoryMcpClient, startTestApi } from '../helpers/test-server.js';

type Site = Awaited<ReturnType<typeof startFixtureSite>>;
let site: Site;
let api: TestApi;

beforeAll(async () => {
  site = await startFixtureSite();
  api = await startTestApi({ cache: { ttlMs: 0 } });
});
afterAll(async () => {
  await api?.close();
  await site?.close();
});

/** The fields that differ between two runs of the same request. */
function stable(response: any) {
  return {
    ...response,
    // cached_at: when each run fetched its page.
    results: response.results.map(({ cached_at: _fetchedAt, ...result }: any) => result),
    metadata: { ...response.metadata, response_time: 0, timestamp: '' },
  };
}

async function exercise(client: Client) {
  const { tools } = await client.listTools();
  const tool = tools.find((t) => t.name === 'extract_urls');
  expect(tool).toBeDefined();
  expect(tool!.outputSchema).toBeDefined();
  expect(tool!.annotations).toMatchObject({ readOnlyHint: true, openWorldHint: true });
  expect(tool!.inputSchema.properties).toHaveProperty('urls');

  const args = { urls: [`${site.origin}/html`, `${site.origin}/doc.pdf`, `${site.origin}/csv`] };
  const result = await client.callTool({ name: 'extract_urls', arguments: args });
  expect(result.isError).toBeFalsy();
  const structured = result.structuredContent as any;
  expect(extractResponseSchema.parse(structured)).toEqual(structured);
  const http = await api.crawl(args);
  expect(stable(structured)).toEqual(stable(http.json));
  const text = (result.content as { type: string; text: string }[])[0]!;
  expect(text.type).toBe('text');
  expect(text.text).toMatch(/Extracted 2 of 3/);
  expect(text.text).toMatch(/unsupported_content_type/);

  const bad = await client.callTool({ name: 'extract_urls', arguments: { urls: [] } });
  expect(bad.isError).toBe(true);
  expect((bad.content as { text: string }[])[0]!.text).toMatch(/^invalid_request: /);
}

describe('extract_urls over MCP', () => {
  it('works over an in-memory pair, structuredContent identical to the HTTP JSON', async () => {
    const { client, close } = await inMemoryMcpClient(api.core);
    try {
      await exercise(client);
    } finally {
      await close();
    }
  });

  it('carries page_type for an HTML page only, and names it in the text block', async () => {
    const { client, close } = await inMemoryMcpClient(api.core);
    try {
      const call = async (args: Record<string, unknown>) => {
        const result = await client.callTool({ name: 'extract_urls', arguments: args });
        expect(result.isError).toBeFalsy();
        return { structured: result.structuredContent as any, text: (result.content as { text: string }[])[0]!.text };
      };
      const { structured, text } = await call({ urls: [`${site.origin}/html`, `${site.origin}/json`] });
      const [html, json] = structured.results;
      expect(PAGE_TYPES).toContain(html.page_type);
      expect(json.success).toBe(true);
      expect(json).not.toHaveProperty('page_type');
      expect(text).toContain(`_status 200 · text/html · page type ${html.page_type}`);
      expect(text.match(/page type/g)).toHaveLength(1);

      const raw = await call({ urls: [`${site.origin}/html`], format: 'html' });
      expect(raw.structured.results[0]).toMatchObject({ success: true, content_type: 'text/html' });
      expect(raw.structured.results[0]).not.toHaveProperty('page_type');
      expect(raw.text).not.toContain('page type');
    } finally {
      await close();
    }
  });

  it('sends a progress notification as each URL finishes', async () => {
    const { client, close } = await inMemoryMcpClient(api.core);
    try {
      const seen: { progress: number; total?: number; message?: string }[] = [];
      await client.callTool(
        {
          name: 'extract_urls',
          arguments: { urls: [`${site.origin}/text`, `${site.origin}/markdown`, `${site.origin}/json`] },
        },
        undefined,
        { onprogress: (p) => void seen.push(p) },
      );
      expect(seen.map((p) => p.progress)).toEqual([1, 2, 3]);
      expect(seen.every((p) => p.total === 3)).toBe(true);
    } finally {
      await close();
    }
  });

  it('works over Streamable HTTP at /mcp', async () => {
    const client = new Client({ name: 'test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${api.url}/mcp`)));
    try {
      await exercise(client);
    } finally {
      await client.close();
    }
  });

  it('works over the stdio binary', async () => {
    const cli = fileURLToPath(new URL('../../dist/cli.js', import.meta.url));
    expect(existsSync(cli), 'dist/cli.js is built by `npm run build` (pretest)').toBe(true);
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [cli],
      env: {
        ...process.env,
        WEBSEARCH_ALLOW_PRIVATE_ADDRESSES: 'true',
        WEBSEARCH_CACHE_TTL_MS: '0',
        WEBSEARCH_LOG_LEVEL: 'silent',
      } as Record<string, string>,
      stderr: 'pipe',
    });
    const client = new Client({ name: 'test', version: '1.0.0' });
    await client.connect(transport);
    try {
      await exercise(client);
    } finally {
      await client.close();
    }
  });
});

// Each test spawns its own binaries (each with an in-memory store): they run side by side.
describe.concurrent('the CLI', () => {
  function run(args: string[], env: Record<string, string> = {}) {
    const cli = fileURLToPath(new URL('../../dist/cli.js', import.meta.url));
    return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
      const child = spawn(process.execPath, [cli, ...args], {
        env: { ...process.env, WEBSEARCH_LOG_LEVEL: 'silent', ...env },
      });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (d) => (stdout += d));
      child.stderr.on('data', (d) => (stderr += d));
      child.on('close', (code) => resolve({ code, stdout, stderr }));
    });
  }

  it('extract --json prints the response object exactly as the API returns it', async () => {
    const url = `${site.origin}/csv`;
    const out = await run(['extract', url, '--json', '--allow-private-addresses']);
    expect(out.code).toBe(0);
    const printed = JSON.parse(out.stdout);
    const http = await api.crawl({ urls: [url] });
    expect(stable(printed)).toEqual(stable(http.json));
  });

  it('extract prints Markdown and fails with exit 1 when a URL fails', async () => {
    const ok = await run(['extract', `${site.origin}/markdown`, '--allow-private-addresses']);
    expect(ok.code).toBe(0);
    expect(ok.stdout.trim().length).toBeGreaterThan(0);
    const bad = await run(['extract', `${site.origin}/doc.pdf`, '--allow-private-addresses']);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/unsupported_content_type/);
  });

  it('reports every configuration problem at once with a non-zero exit', async () => {
    const out = await run(['serve', '--port', 'abc'], {
      WEBSEARCH_FETCH_TIMEOUT_MS: '-5',
      WEBSEARCH_LOG_LEVEL: 'loud',
    });
    expect(out.code).toBe(2);
    expect(out.stderr).toMatch(/--port/);
    expect(out.stderr).toMatch(/WEBSEARCH_FETCH_TIMEOUT_MS/);
    expect(out.stderr).toMatch(/WEBSEARCH_LOG_LEVEL/);
  });
});
