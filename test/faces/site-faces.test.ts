/**
 * Exploring a site through every face but HTTP's own tests: the MCP tools map_site,
 * crawl_site and crawl_status (listed with their schemas, a crawl read on by cursor with
 * every page seen once, under a small output budget too), the command line's `map` and
 * `crawl-site`, and the library's `map` and `crawlSite`; against a tiny site on 127.0.0.1
 * (robots.txt, a sitemap of five pages, a home page linking them).
 */
import { spawn } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MapResponse, SiteCrawlPage, SiteCrawlStatus } from '../../src/core/site-schemas.js';
import { mapResponseSchema, siteCrawlStatusSchema } from '../../src/core/site-schemas.js';
import { budgetSiteCrawl } from '../../src/faces/mcp/budget-site-crawl.js';
import { createMcpServer } from '../../src/faces/mcp/create-mcp-server.js';
import { renderSiteCrawlMarkdown } from '../../src/faces/mcp/tools/render-site-crawl-markdown.js';
import { createWebSearch } from '../../src/index.js';
import { budgetMap, renderMapMarkdown } from '../../src/faces/mcp/tools/map-site.js';
import { CLI, runCli } from '../helpers/spawn-cli.js';
import type { TestApi } from '../helpers/test-server.js';
import { inMemoryMcpClient, mcpDepsOf, startTestApi } from '../helpers/test-server.js';

/** Five pages, each on its own subject (distinct words: no two are near-duplicates). */
const PAGES: Record<string, { title: string; words: string[] }> = {
  '/guide/harbours': {
    title: 'Harbours',
    words: ['harbour', 'quay', 'mooring', 'breakwater', 'pilot', 'tugboat', 'berth', 'dredging'],
  },
  '/guide/lighthouses': {
    title: 'Lighthouses',
    words: ['lantern', 'keeper', 'fresnel', 'beacon', 'granite', 'tower', 'signal', 'lamp'],
  },
  '/guide/tides': {
    title: 'Tides',
    words: ['lunar', 'spring', 'neap', 'ebb', 'flood', 'gravity', 'almanac', 'range'],
  },
  '/guide/ferries': {
    title: 'Ferries',
    words: ['timetable', 'vehicle', 'deck', 'crossing', 'ticket', 'ramp', 'passenger', 'route'],
  },
  '/guide/estuaries': {
    title: 'Estuaries',
    words: ['brackish', 'saltmarsh', 'heron', 'sediment', 'mudflat', 'reed', 'delta', 'oyster'],
  },
};
const PATHS = Object.keys(PAGES);

function paragraphs(words: string[]): string {
  return Array.from(
    { length: 6 },
    (_, i) =>
      `<p>${Array.from({ length: 40 }, (_, j) => words[(i * 5 + j * 3) % words.length]).join(' ')} (${words[i % words.length]} note ${i + 1}).</p>`,
  ).join('');
}

function html(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title></head><body><main><article><h1>${title}</h1>${body}</article></main></body></html>`;
}

async function startSite(): Promise<{ origin: string; close(): Promise<void> }> {
  let origin = '';
  const server = http.createServer((req, res) => {
    const path = new URL(req.url ?? '/', origin).pathname;
    const send = (type: string, body: string) => {
      res.writeHead(200, { 'content-type': type });
      res.end(body);
    };
    if (path === '/robots.txt')
      return send('text/plain', `User-agent: *\nAllow: /\n\nSitemap: ${origin}/sitemap.xml\n`);
    if (path === '/sitemap.xml')
      return send(
        'application/xml',
        `<?xml version="1.0" encoding="UTF-8"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${PATHS.map((p) => `<url><loc>${origin}${p}</loc><lastmod>2026-01-15</lastmod></url>`).join('')}</urlset>`,
      );
    if (path === '/') {
      const links = PATHS.map((p) => `<li><a href="${p}">${PAGES[p]?.title}</a></li>`).join('');
      return send(
        'text/html; charset=utf-8',
        html(
          'The coast guide',
          `<p>${'A guide to the coast, its works and its waters. '.repeat(8)}</p><ul>${links}</ul>`,
        ),
      );
    }
    // A slow corner of the site: a crawl of it is still running when it is interrupted.
    if (path === '/slow/')
      return send(
        'text/html; charset=utf-8',
        html(
          'Slow pages',
          `<p>${'Pages that take their time. '.repeat(10)}</p>${[1, 2, 3, 4].map((n) => `<a href="/slow/${n}">Slow ${n}</a>`).join(' ')}`,
        ),
      );
    if (path.startsWith('/slow/')) {
      // Each on its own subject too (the words of one of the five pages).
      const words = PAGES[PATHS[Number(path.slice('/slow/'.length)) % PATHS.length] as string]?.words ?? ['slow'];
      const timer = setTimeout(() => send('text/html; charset=utf-8', html('Slow', paragraphs(words))), 3_000);
      res.on('close', () => clearTimeout(timer));
      return;
    }
    const page = PAGES[path];
    if (page !== undefined)
      return send(
        'text/html; charset=utf-8',
        html(page.title, `${paragraphs(page.words)}<p><a href="/">Back to the guide</a></p>`),
      );
    res.writeHead(404, { 'content-type': 'text/plain' });
    res.end('not found');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { origin, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

let site: Awaited<ReturnType<typeof startSite>>;
let api: TestApi;
let mcp: Awaited<ReturnType<typeof inMemoryMcpClient>>;
beforeAll(async () => {
  site = await startSite();
  api = await startTestApi();
  mcp = await inMemoryMcpClient(api.core);
});
afterAll(async () => {
  await mcp?.close();
  await api?.close();
  await site?.close();
});

const u = (path: string) => `${site.origin}${path}`;
const textOf = (result: unknown) => (result as { content: { text?: string }[] }).content[0]?.text ?? '';

/** A crawl_status call's answer, checked against the output schema. */
async function crawlStatus(client: Client, args: Record<string, unknown>): Promise<SiteCrawlStatus> {
  const result = await client.callTool({ name: 'crawl_status', arguments: args });
  expect(result.isError, textOf(result)).toBeFalsy();
  return siteCrawlStatusSchema.parse(result.structuredContent);
}

/** Reads a crawl to its end by cursor, `limit` pages an answer; every answer's pages in order. */
async function readAll(client: Client, first: SiteCrawlStatus, limit: number): Promise<SiteCrawlPage[][]> {
  const answers = [first.pages];
  let status = first;
  let cursor = first.next_cursor;
  for (let calls = 0; status.status === 'running' || status.next_cursor !== undefined; calls++) {
    expect(calls, 'the crawl ends').toBeLessThan(60);
    status = await crawlStatus(client, {
      id: first.id,
      ...(cursor !== undefined ? { cursor } : {}),
      limit,
      wait_ms: 5_000,
    });
    answers.push(status.pages);
    if (status.next_cursor !== undefined) cursor = status.next_cursor;
  }
  return answers;
}

describe('the MCP tools', () => {
  it('lists map_site, crawl_site and crawl_status with their input schemas', async () => {
    const { tools } = await mcp.client.listTools();
    const named = (name: string) => tools.find((t) => t.name === name);
    const map = named('map_site');
    expect(map?.title).toBe('Map a website');
    expect(Object.keys(map?.inputSchema.properties ?? {})).toEqual(
      expect.arrayContaining(['url', 'search', 'limit', 'include_paths', 'exclude_paths', 'sitemap']),
    );
    expect(map?.inputSchema.required).toEqual(['url']);
    const crawl = named('crawl_site');
    expect(crawl?.title).toBe('Crawl a website');
    const crawlProperties = crawl?.inputSchema.properties as Record<string, { default?: unknown }>;
    expect(Object.keys(crawlProperties)).toEqual(
      expect.arrayContaining(['url', 'limit', 'max_depth', 'use_sitemap', 'query', 'wait_ms']),
    );
    // The tool waits within a client's call timeout unless told (the API's default is 0).
    expect(crawlProperties.wait_ms?.default).toBe(45_000);
    expect(crawlProperties).not.toHaveProperty('screenshot');
    const status = named('crawl_status');
    expect(Object.keys(status?.inputSchema.properties ?? {})).toEqual(['id', 'cursor', 'limit', 'wait_ms']);
    expect(status?.inputSchema.required).toEqual(['id']);
    expect(status?.annotations).toMatchObject({ readOnlyHint: true });
    for (const tool of [map, crawl, status]) expect(tool?.outputSchema?.type).toBe('object');
  });

  it('map_site lists the sitemap URLs', async () => {
    const result = await mcp.client.callTool({ name: 'map_site', arguments: { url: site.origin } });
    expect(result.isError, textOf(result)).toBeFalsy();
    const map = mapResponseSchema.parse(result.structuredContent);
    const fromSitemap = map.links.filter((l) => l.source === 'sitemap').map((l) => l.url);
    expect(fromSitemap.sort()).toEqual(PATHS.map(u).sort());
    expect(map.links.find((l) => l.url === u('/guide/tides'))?.lastmod).toMatch(/^2026-01-15/);
    expect(map.metadata).toMatchObject({ robots_disallowed: 0, credits_used: 1 });
    const text = textOf(result);
    for (const path of PATHS) expect(text).toContain(u(path));
    expect(text).toMatch(/^- /m);
  });

  it('map_site with search scores the URLs, best first', async () => {
    const result = await mcp.client.callTool({
      name: 'map_site',
      arguments: { url: site.origin, search: 'ferries', limit: 3 },
    });
    const map = mapResponseSchema.parse(result.structuredContent);
    expect(map.links).toHaveLength(3);
    expect(map.links[0]?.url).toBe(u('/guide/ferries'));
    expect(map.links.every((l) => typeof l.score === 'number')).toBe(true);
    expect(textOf(result)).toMatch(/\(score \d/);
  });

  it('crawl_site with limit 5 completes within its wait: 5 pages with depth and parent, the text naming the id', async () => {
    const result = await mcp.client.callTool({ name: 'crawl_site', arguments: { url: site.origin, limit: 5 } });
    expect(result.isError, textOf(result)).toBeFalsy();
    const status = siteCrawlStatusSchema.parse(result.structuredContent);
    expect(status.status).toBe('done');
    expect(status.pages).toHaveLength(5);
    expect(new Set(status.pages.map((p) => p.url)).size).toBe(5);
    const start = status.pages.find((p) => p.depth === 0);
    expect(start?.url).toBe(`${site.origin}/`);
    expect(start?.parent).toBeUndefined();
    for (const page of status.pages) {
      expect(page.success, page.url).toBe(true);
      if (page.depth > 0) expect(page.depth, page.url).toBe(1);
    }
    expect(status.progress.pages).toBe(5);
    expect(status.next_cursor).toBeUndefined();
    const text = textOf(result);
    expect(text).toContain(`"${status.id}"`);
    expect(text).toMatch(/depth 1/);
    expect(text).toContain('Every page of this crawl has been delivered.');
  });

  it('crawl_status reads on by cursor, two pages an answer: every page once', async () => {
    const started = await mcp.client.callTool({
      name: 'crawl_site',
      arguments: { url: site.origin, limit: 10, use_sitemap: false, wait_ms: 0 },
    });
    expect(started.isError, textOf(started)).toBeFalsy();
    const first = siteCrawlStatusSchema.parse(started.structuredContent);
    expect(textOf(started)).toContain(`call crawl_status with {"id":"${first.id}"`);
    const answers = await readAll(mcp.client, first, 2);
    expect(answers.slice(1).every((pages) => pages.length <= 2)).toBe(true);
    const urls = answers.flat().map((p) => p.url);
    expect(urls.sort()).toEqual([`${site.origin}/`, ...PATHS.map(u)].sort());
    // The job, read from the start, agrees.
    const whole = await crawlStatus(mcp.client, { id: first.id, limit: 100 });
    expect(whole).toMatchObject({ status: 'done', stop_reason: 'completed' });
    expect(whole.pages.map((p) => p.url).sort()).toEqual(urls);
  });

  it('names the page each page was found on (parent)', async () => {
    const result = await mcp.client.callTool({
      name: 'crawl_site',
      arguments: { url: site.origin, limit: 3, use_sitemap: false },
    });
    const status = siteCrawlStatusSchema.parse(result.structuredContent);
    const linked = status.pages.filter((p) => p.depth > 0);
    expect(linked.length).toBeGreaterThan(0);
    // Every one of them is a link of the home page.
    for (const page of linked) expect(page.parent, page.url).toBe(`${site.origin}/`);
    expect(textOf(result)).toContain(`found on ${site.origin}/`);
  });

  it('under a small output budget, drops whole pages and moves the cursor back: nothing lost, nothing twice', async () => {
    const deps = mcpDepsOf(api.core);
    const handle = createMcpServer({
      ...deps,
      config: { ...deps.config, mcp: { ...deps.config.mcp, outputBudgetChars: 4_000 } },
    });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await handle.server.connect(serverSide);
    const client = new Client({ name: 'small-budget', version: '1.0.0' });
    await client.connect(clientSide);
    try {
      const started = await client.callTool({ name: 'crawl_site', arguments: { url: site.origin, limit: 10 } });
      const first = siteCrawlStatusSchema.parse(started.structuredContent);
      expect(first.status).toBe('done');
      expect(first.progress.pages).toBe(6);
      expect(first.pages.length).toBeLessThan(6);
      expect(first.next_cursor).toBe(String(first.pages.length));
      expect(textOf(started).length).toBeLessThanOrEqual(4_000);
      const answers = await readAll(client, first, 100);
      const urls = answers.flat().map((p) => p.url);
      expect(urls).toHaveLength(6);
      expect(new Set(urls).size).toBe(6);
    } finally {
      await client.close();
      await handle.close();
    }
  });

  it('crawl_site reports progress while it waits, as pages arrive', async () => {
    const messages: string[] = [];
    const result = await mcp.client.callTool(
      { name: 'crawl_site', arguments: { url: `${site.origin}/slow/`, include_paths: ['/slow/**'], limit: 3 } },
      undefined,
      { onprogress: (p) => messages.push(`${p.progress}/${p.total}: ${p.message}`) },
    );
    const status = siteCrawlStatusSchema.parse(result.structuredContent);
    expect(status).toMatchObject({ status: 'done', progress: { pages: 3 } });
    expect(messages.length).toBeGreaterThan(0);
    for (const message of messages) expect(message).toMatch(/^\d+\/3: \d+ pages, \d+ queued$/);
  });

  it('crawl_status for an unknown id is a not_found error', async () => {
    const result = await mcp.client.callTool({ name: 'crawl_status', arguments: { id: 'no-such-job' } });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/^not_found: /);
    const bad = await mcp.client.callTool({ name: 'crawl_status', arguments: { id: 'x', cursor: 'abc' } });
    expect(textOf(bad)).toMatch(/^invalid_request: [\s\S]*cursor/);
  });
});

describe('the output budget of a crawl answer', () => {
  const page = (n: number, chars: number): SiteCrawlPage => ({
    url: `https://example.com/p${n}`,
    success: true,
    status_code: 200,
    markdown: `# Page ${n}\n\n${'word '.repeat(chars / 5)}`,
    depth: 1,
  });
  const status = (pages: SiteCrawlPage[], extra: Partial<SiteCrawlStatus>): SiteCrawlStatus => ({
    id: 'job-1',
    url: 'https://example.com/',
    status: 'done',
    stop_reason: 'completed',
    progress: {
      discovered: 20,
      queued: 0,
      in_flight: 0,
      pages: 15,
      succeeded: 15,
      failed: 0,
      duplicates: 0,
      robots_disallowed: 0,
      credits_used: 15,
    },
    pages,
    created_at: '2026-01-01T00:00:00.000Z',
    ...extra,
  });
  const render = (r: SiteCrawlStatus) => renderSiteCrawlMarkdown(r, {});

  it('keeps the first pages that fit whole and sets next_cursor to the last one kept', () => {
    // Pages 11-15 after cursor 10, the job done: no next_cursor until the budget cuts.
    const pages = [11, 12, 13, 14, 15].map((n) => page(n, 1_000));
    for (const extra of [
      {},
      { next_cursor: '15' },
      { status: 'running' as const, stop_reason: undefined, next_cursor: '15' },
    ]) {
      const whole = status(pages, extra);
      const { result, cut } = budgetSiteCrawl(whole, 3_000, render);
      expect(cut).toBe(0);
      expect(result.pages.length).toBeGreaterThan(0);
      expect(result.pages.length).toBeLessThan(5);
      expect(result.pages).toEqual(pages.slice(0, result.pages.length));
      expect(result.next_cursor).toBe(String(10 + result.pages.length));
      expect(render(result).length).toBeLessThanOrEqual(3_000);
      expect(render(result)).toContain(`"cursor":"${10 + result.pages.length}"`);
      expect(render(result)).toContain(`**Page 11: https://example.com/p11**`);
    }
  });

  it('leaves an answer that fits as it is', () => {
    const whole = status(
      [11, 12].map((n) => page(n, 200)),
      { next_cursor: '12' },
    );
    expect(budgetSiteCrawl(whole, 40_000, render)).toEqual({ result: whole, cut: 0 });
  });

  it('cuts a first page too large alone, as extract_urls cuts one, and reads on after it', () => {
    const pages = [11, 12].map((n) => page(n, 20_000));
    const { result, cut } = budgetSiteCrawl(status(pages, { next_cursor: '12' }), 5_000, render);
    expect(cut).toBe(1);
    expect(result.pages).toHaveLength(1);
    expect(result.pages[0]).toMatchObject({ url: 'https://example.com/p11', depth: 1 });
    expect(result.pages[0]?.next_start_char).toBeGreaterThan(0);
    expect(result.next_cursor).toBe('11');
    expect(render(result).length).toBeLessThanOrEqual(5_000);
  });
});

describe('the output budget of a map', () => {
  it('keeps the first URLs that fit and says how many did not', () => {
    const links = Array.from({ length: 1_000 }, (_, i) => ({
      url: `https://example.com/docs/page-${i}`,
      source: 'sitemap' as const,
      title: `Page ${i}`,
    }));
    const map: MapResponse = {
      url: 'https://example.com/',
      links,
      metadata: {
        total: 1_000,
        truncated: false,
        robots_disallowed: 0,
        sources: { sitemap: 1_000, feed: 0, links: 0 },
        sitemaps_read: 1,
        credits_used: 1,
        response_time: 0.1,
        timestamp: '2026-01-01T00:00:00.000Z',
      },
    };
    const args = { url: 'https://example.com/' };
    const render = (r: MapResponse) => renderMapMarkdown(r, args);
    const { result } = budgetMap(map, 5_000, render);
    expect(result.links.length).toBeGreaterThan(10);
    expect(result.links).toEqual(links.slice(0, result.links.length));
    const text = render(result);
    expect(text.length).toBeLessThanOrEqual(5_000);
    expect(text).toContain(`${1_000 - result.links.length} more URL(s) did not fit`);
    expect(render(map)).not.toContain('did not fit');
  });
});

describe('the command line', () => {
  const run = (args: string[]) =>
    runCli(args, { ...(process.env as Record<string, string>), WEBSEARCH_ALLOW_PRIVATE_ADDRESSES: 'true' });

  it('map prints the URLs, one a line, and a summary on stderr', async () => {
    const out = await run(['map', site.origin]);
    expect(out.code, out.stderr).toBe(0);
    const urls = out.stdout
      .trim()
      .split('\n')
      .map((line) => line.split('\t')[0]);
    expect(urls).toEqual(expect.arrayContaining(PATHS.map(u)));
    expect(out.stderr).toMatch(/of \d+ URL\(s\) of /);
    expect(out.stderr).toMatch(/0 disallowed by robots\.txt/);
  });

  it('map --json prints the response object', async () => {
    const out = await run(['map', site.origin, '--sitemap', 'only', '--json']);
    expect(out.code, out.stderr).toBe(0);
    const map = mapResponseSchema.parse(JSON.parse(out.stdout));
    expect(map.links.map((l) => l.url).sort()).toEqual(PATHS.map(u).sort());
  });

  it('map with a bad flag value exits 2 with one line', async () => {
    const out = await run(['map', site.origin, '--limit', 'lots']);
    expect(out.code).toBe(2);
    expect(out.stdout).toBe('');
    expect(out.stderr.trim().split('\n')).toHaveLength(1);
    expect(out.stderr).toMatch(/--limit/);
    const sitemap = await run(['map', site.origin, '--sitemap', 'everything']);
    expect(sitemap.code).toBe(2);
    expect(sitemap.stderr.trim().split('\n')).toHaveLength(1);
    expect(sitemap.stderr).toMatch(/--sitemap/);
  });

  it('crawl-site --jsonl prints a line a page, then the status', async () => {
    const out = await run(['crawl-site', site.origin, '--limit', '5', '--jsonl']);
    expect(out.code, out.stderr).toBe(0);
    const lines = out.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines).toHaveLength(6);
    const pages = lines.slice(0, 5) as SiteCrawlPage[];
    expect(new Set(pages.map((p) => p.url)).size).toBe(5);
    for (const p of pages) expect(p).toMatchObject({ success: true, depth: expect.any(Number) });
    const last = lines[5] as Record<string, unknown>;
    expect(Object.keys(last)[0]).toBe('status');
    expect(last).toMatchObject({ status: 'done', progress: { pages: 5 } });
    expect(last).not.toHaveProperty('pages');
  });

  it('crawl-site prints each page as Markdown with its depth', async () => {
    const out = await run(['crawl-site', site.origin, '--limit', '2', '--no-use-sitemap']);
    expect(out.code, out.stderr).toBe(0);
    expect(out.stdout).toContain('Depth: 0');
    expect(out.stdout).toMatch(/\n---\n\nDepth: 1\n/);
    expect(out.stderr).toMatch(/crawl \S+ done \(limit\)/);
  });
});

describe('crawl-site interrupted', () => {
  it('cancels the crawl on Ctrl-C and exits 130', async () => {
    const child = spawn(process.execPath, [CLI, 'crawl-site', `${site.origin}/slow/`, '--include-paths', '/slow/**'], {
      env: { ...(process.env as Record<string, string>), WEBSEARCH_ALLOW_PRIVATE_ADDRESSES: 'true' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
    // The start page prints at once; its slow links are in flight.
    await expect.poll(() => stdout, { timeout: 10_000 }).toContain('Slow pages');
    child.kill('SIGINT');
    expect(await exited, stderr).toBe(130);
    expect(stderr).toMatch(/crawl \S+ done \(cancelled\)/);
  });
});

describe('the library', () => {
  it('map lists the URLs, and crawlSite().pages yields each page once while done resolves completed', async () => {
    const web = createWebSearch({
      env: {},
      config: { store: { path: ':memory:' }, fetch: { allowPrivateAddresses: true } },
    });
    try {
      const map = await web.map({ url: site.origin, sitemap: 'only' });
      expect(map.links.map((l) => l.url).sort()).toEqual(PATHS.map(u).sort());
      const crawl = await web.crawlSite({ url: site.origin, limit: 10 });
      expect(crawl.id).toBeTruthy();
      const seen: string[] = [];
      for await (const page of crawl.pages) seen.push(page.url);
      expect(seen.sort()).toEqual([`${site.origin}/`, ...PATHS.map(u)].sort());
      const done = await crawl.done;
      expect(done).toMatchObject({ id: crawl.id, status: 'done', stop_reason: 'completed', progress: { pages: 6 } });
      expect((await crawl.status()).status).toBe('done');
    } finally {
      await web.close();
    }
  });

  it('cancel stops a crawl', async () => {
    const web = createWebSearch({
      env: {},
      config: { store: { path: ':memory:' }, fetch: { allowPrivateAddresses: true } },
    });
    try {
      const crawl = await web.crawlSite({ url: site.origin, limit: 10 });
      await crawl.cancel();
      const done = await crawl.done;
      expect(done.status).toBe('done');
      expect(['cancelled', 'completed']).toContain(done.stop_reason);
    } finally {
      await web.close();
    }
  });
});
