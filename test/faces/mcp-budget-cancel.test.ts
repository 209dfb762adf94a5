/**
 * MCP behaviour beyond a plain call: the output budget (cut fairly, said, and continued
 * exactly), cancellation (the fetch of a page that never finishes is aborted and its
 * socket closed), and negotiation of every supported protocol version.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { budgetExtract, fairShares } from '../../src/faces/mcp/output-budget.js';
import { createMcpServer } from '../../src/faces/mcp/create-mcp-server.js';
import { renderExtractMarkdown } from '../../src/faces/mcp/tools/render-extract-markdown.js';
import type { Scenario } from '../helpers/fixture-site.js';
import { startFixtureSite } from '../helpers/fixture-site.js';
import type { TestApi } from '../helpers/test-server.js';
import { mcpDepsOf, startTestApi } from '../helpers/test-server.js';

type Site = Awaited<ReturnType<typeof startFixtureSite>>;

/** A long plain-text page: numbered lines, so any cut or overlap shows. */
const LONG_TEXT = Array.from(
  { length: 4000 },
  (_, i) => `Line ${i + 1}: the quick brown fox jumps over the lazy dog.`,
).join('\n');
const SHORT_TEXT = 'A short page that fits easily.';
let neverClosed = 0;
const scenarios: Scenario[] = [
  {
    path: '/never',
    description: 'headers and a first chunk, then silence; counts closed connections',
    handle: (c) => {
      c.res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      c.res.write('<!doctype html><title>stalled</title>');
      c.onClose(() => (neverClosed += 1));
    },
  },
  {
    path: '/long',
    description: 'long text',
    handle: ({ res }) => void res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' }).end(LONG_TEXT),
  },
  {
    path: '/long2',
    description: 'long text',
    handle: ({ res }) => void res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' }).end(LONG_TEXT),
  },
  {
    path: '/short',
    description: 'short text',
    handle: ({ res }) => void res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' }).end(SHORT_TEXT),
  },
];

let site: Site;
let api: TestApi;
const BUDGET = 20_000;

beforeAll(async () => {
  site = await startFixtureSite({ scenarios });
  api = await startTestApi({ mcp: { outputBudgetChars: BUDGET } });
});
afterAll(async () => {
  await api?.close();
  await site?.close();
});

async function connect() {
  const handle = createMcpServer(mcpDepsOf(api.core));
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

describe('fairShares', () => {
  it('gives short items all they need and splits the rest equally', () => {
    expect(fairShares([100, 5000, 5000], 3100)).toEqual([100, 1500, 1500]);
    expect(fairShares([10, 20], 100)).toEqual([10, 20]);
    expect(fairShares([50, 50, 50], 0)).toEqual([0, 0, 0]);
  });
});

describe('budgetExtract', () => {
  it('leaves a response under budget untouched', () => {
    const response = { results: [{ url: 'u', success: true, markdown: 'abc', status_code: 200 }], metadata: {} } as any;
    expect(budgetExtract(response, 10_000, renderExtractMarkdown)).toEqual({ result: response, cut: 0 });
  });

  it('cuts structured_data to whole items within a quarter of the budget, and says so', () => {
    const item = (i: number) => ({
      type: 'Product',
      sources: ['json-ld'],
      name: `Kettle ${i}`,
      description: 'x'.repeat(400),
    });
    const data = { items: Array.from({ length: 100 }, (_, i) => item(i)), open_graph: { title: 'Kettles' } };
    const response = {
      results: [{ url: 'u', success: true, markdown: 'A short page.', status_code: 200, structured_data: data }],
      metadata: {},
    } as any;
    const budget = 20_000;
    const { result, cut } = budgetExtract(response, budget, renderExtractMarkdown);
    expect(cut).toBe(1);
    const fitted = result.results[0]!.structured_data!;
    expect(fitted.truncated).toBe(true);
    expect(fitted.notes?.at(-1)).toContain("cut to fit the tool's output budget");
    expect(fitted.open_graph).toEqual({ title: 'Kettles' });
    expect(fitted.items.length).toBeGreaterThan(0);
    expect(fitted.items).toEqual(data.items.slice(0, fitted.items.length));
    expect(JSON.stringify(fitted).length).toBeLessThanOrEqual(budget / 4);
    expect(renderExtractMarkdown(result).length).toBeLessThanOrEqual(budget);
    expect(result.results[0]!.markdown).toBe('A short page.');
  });
});

describe('the output budget over MCP', () => {
  it('cuts long pages fairly, keeps short ones, and says so in both views', async () => {
    const { client, close } = await connect();
    try {
      const urls = [`${site.origin}/long`, `${site.origin}/short`, `${site.origin}/long2`];
      const result = await client.callTool({ name: 'extract_urls', arguments: { urls } });
      const text = (result.content as { text: string }[])[0]!.text;
      expect(text.length).toBeLessThanOrEqual(BUDGET);
      expect(text).toMatch(/^\[Output budget: 2 page\(s\) were cut to fit 20000 characters/);
      const structured = result.structuredContent as any;
      const [long, short, long2] = structured.results;
      expect(short.markdown).toBe(SHORT_TEXT);
      expect(short).not.toHaveProperty('next_start_char');
      expect(long.total_chars).toBe(LONG_TEXT.length);
      expect(long.markdown).toBe(LONG_TEXT.slice(0, long.next_start_char));
      // Fair: the two long pages get the same share (integer division leaves at most one character over).
      expect(Math.abs(long.markdown.length - long2.markdown.length)).toBeLessThanOrEqual(1);
      expect(JSON.stringify(structured).length).toBeLessThan(BUDGET + 2_000);
      expect(text).toContain(
        `For the rest call extract_urls with {"urls":["${site.origin}/long"],"start_char":${long.next_start_char},"max_chars":30000}`,
      );
    } finally {
      await close();
    }
  });

  it('returns the rest exactly when the model follows the hints', async () => {
    const { client, close } = await connect();
    try {
      let start = 0;
      let whole = '';
      for (let calls = 0; calls < 50; calls++) {
        const result = await client.callTool({
          name: 'extract_urls',
          arguments: { urls: [`${site.origin}/long`], start_char: start, max_chars: 30_000 },
        });
        const page = (result.structuredContent as any).results[0];
        whole += page.markdown;
        if (page.next_start_char === undefined) break;
        expect(page.next_start_char).toBe(start + page.markdown.length);
        start = page.next_start_char;
      }
      expect(whole).toBe(LONG_TEXT);
    } finally {
      await close();
    }
  });
});

describe('cancellation', () => {
  it('aborts the fetch of a page that never finishes and closes its socket', async () => {
    const { client, close } = await connect();
    try {
      const controller = new AbortController();
      const call = client.callTool(
        { name: 'extract_urls', arguments: { urls: [`${site.origin}/never`], timeout_ms: 30_000 } },
        undefined,
        {
          signal: controller.signal,
        },
      );
      // Wait until the server has the request open.
      for (let i = 0; i < 100 && site.hits('/never') === 0; i++) await new Promise((r) => setTimeout(r, 20));
      expect(site.hits('/never')).toBe(1);
      await new Promise((r) => setTimeout(r, 100));
      expect(neverClosed).toBe(0);
      controller.abort();
      await expect(call).rejects.toThrow();
      for (let i = 0; i < 100 && neverClosed === 0; i++) await new Promise((r) => setTimeout(r, 20));
      // The server dropped the socket long before the 30 s deadline.
      expect(neverClosed).toBe(1);
    } finally {
      await close();
    }
  });
});

describe('protocol versions', () => {
  it.each(['2025-11-25', '2025-06-18', '2025-03-26'])('negotiates %s over Streamable HTTP', async (version) => {
    const res = await fetch(`${api.url}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: version, capabilities: {}, clientInfo: { name: 't', version: '1' } },
      }),
    });
    expect(res.status).toBe(200);
    const body = await res.text();
    const data = body.includes('data:')
      ? JSON.parse(
          body
            .split('\n')
            .find((l) => l.startsWith('data:'))!
            .slice(5),
        )
      : JSON.parse(body);
    expect(data.result.protocolVersion).toBe(version);
    expect(data.result.capabilities.tools).toBeDefined();
  });
});

describe('a cached answer is the fresh answer', () => {
  /** Everything but what says how this answer was served. */
  const sameContent = (r: any) => ({
    ...r,
    results: r.results.map((x: any) => ({ ...x, from_cache: true })),
    metadata: { ...r.metadata, credits_used: 0, cached_free: 0, response_time: 0, timestamp: '' },
  });

  it('over MCP: the same Markdown, the same cut and the same offsets, fresh and cached', async () => {
    const { client, close } = await connect();
    try {
      const args = { urls: [`${site.origin}/long?cached`, `${site.origin}/short?cached`] };
      const fresh = await client.callTool({ name: 'extract_urls', arguments: args });
      const cached = await client.callTool({ name: 'extract_urls', arguments: args });
      const [f, c] = [fresh.structuredContent as any, cached.structuredContent as any];
      expect(f.metadata).toMatchObject({ credits_used: 2, cached_free: 0 });
      expect(c.metadata).toMatchObject({ credits_used: 0, cached_free: 2 });
      expect(f.results[0].next_start_char).toBeDefined();
      // Only from_cache tells them apart (cached_at is the fresh fetch's time in both).
      expect(c.results).toEqual(f.results.map((r: any) => ({ ...r, from_cache: true })));
      expect(sameContent(c)).toEqual(sameContent(f));
      const text = (r: typeof fresh) => (r.content as { text: string }[])[0]?.text ?? '';
      // The text blocks differ only in their summary line.
      const body = (t: string) => t.split('\n').filter((line) => !line.startsWith('Extracted '));
      expect(text(cached)).toMatch(/^\[Output budget: 1 page\(s\) were cut/);
      expect(body(text(cached))).toEqual(body(text(fresh)));
      expect(text(cached).length).toBeLessThanOrEqual(BUDGET);
    } finally {
      await close();
    }
  });

  it('over HTTP: every field of every result, fresh and cached', async () => {
    // An article (title, description, language, date) and a product page beside the text.
    const body = {
      urls: [
        `${site.origin}/long?http`,
        `${site.origin}/short?http`,
        `${site.origin}/html?http`,
        `${site.origin}/product?http`,
      ],
      max_chars: 5000,
    };
    const fresh = await api.crawl(body);
    const cached = await api.crawl(body);
    expect(fresh.json.metadata).toMatchObject({ credits_used: 4, cached_free: 0 });
    expect(cached.json.metadata).toMatchObject({ credits_used: 0, cached_free: 4 });
    expect(fresh.json.results[2]).toMatchObject({
      title: expect.any(String),
      description: expect.any(String),
      language: 'en',
    });
    expect(cached.json.results).toEqual(fresh.json.results.map((r: any) => ({ ...r, from_cache: true })));
  });
});
