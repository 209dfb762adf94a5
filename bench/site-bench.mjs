#!/usr/bin/env node
// Exploring a site, measured on a generated site served on loopback (bench/site/generated-site.mjs:
// a sitemap index of gzipped sitemaps holding 10,000 URLs, a documentation section with
// navigation chrome, a blog with a feed, a disallowed section, traps, redirects, canonical
// duplicates, 404s and off-site links), against the built server (`websearch-mcp serve`):
//
//   1. map: the median of --map-runs maps of the whole site, every sitemap URL found, no
//      disallowed URL listed or fetched; with `search`, the page written for each of the 50
//      queries in the top 5;
//   2. crawl: --pages pages as one site crawl, pages per second, against the same URLs
//      through POST /api/crawl in batches of 10, in the same run (cache off);
//   3. best-first against breadth-first: pages fetched until the 10 pages of one topic are
//      all delivered, with and without the topic as `query` (links only, no sitemap);
//   4. durability: a --pages crawl on a SQLite store, the server killed with SIGKILL halfway
//      and started again: every page once, credits = successful pages.
//
//   npm run build && node bench/site-bench.mjs [--pages N] [--map-runs N] [--only map,crawl,order,kill] [--json FILE]
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { startGeneratedSite } from './site/generated-site.mjs';

const CLI = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'dist', 'cli.js');

const { values } = parseArgs({
  options: {
    pages: { type: 'string', default: '500' },
    'map-runs': { type: 'string', default: '5' },
    json: { type: 'string' },
    only: { type: 'string', default: 'map,crawl,order,kill' },
  },
});
const ONLY = new Set(values.only.split(','));
const PAGES = Number(values.pages);
const MAP_RUNS = Number(values['map-runs']);

function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
}

/** `websearch-mcp serve` on a free port with these settings; resolves once it listens. */
function serve(env) {
  const child = spawn(process.execPath, [CLI, 'serve', '--port', '0'], {
    env: {
      ...process.env,
      WEBSEARCH_ALLOW_PRIVATE_ADDRESSES: 'true',
      WEBSEARCH_LOG_LEVEL: 'silent',
      WEBSEARCH_CACHE_TTL_MS: '0',
      WEBSEARCH_RATE_LIMIT_REQUESTS: '0',
      WEBSEARCH_RENDER: 'never',
      WEBSEARCH_STORE_PATH: ':memory:',
      ...env,
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let log = '';
  const exited = new Promise((resolve) => child.once('exit', resolve));
  return new Promise((resolve, reject) => {
    child.stderr.on('data', (d) => {
      log += d;
      const found = /listening on (http:\/\/[^\s:]+:\d+)/.exec(log);
      if (found)
        resolve({
          url: found[1],
          stop: () => (child.kill('SIGTERM'), exited),
          kill: () => (child.kill('SIGKILL'), exited),
        });
    });
    void exited.then((code) => reject(new Error(`serve exited with ${code}: ${log}`)));
  });
}

async function call(server, method, route, body, headers = {}) {
  const res = await fetch(`${server.url}${route}`, {
    method,
    headers: { 'content-type': 'application/json', ...headers },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const json = await res.json();
  if (res.status >= 400) throw new Error(`${method} ${route}: ${res.status} ${JSON.stringify(json)}`);
  return json;
}

/**
 * Starts a crawl, waits for its end (a cursor past any result: the wait ends only when the
 * job does, so reading does not load the server meanwhile), then reads every page by cursor;
 * the pages in completion order.
 */
async function crawlAll(server, body, headers = {}) {
  const started = await call(server, 'POST', '/api/site-crawls', { ...body, wait_ms: 0 }, headers);
  let status = started;
  while (status.status !== 'done')
    status = await call(
      server,
      'GET',
      `/api/site-crawls/${started.id}?limit=1&cursor=999999&wait_ms=5000`,
      undefined,
      headers,
    );
  const pages = [];
  let cursor = '0';
  for (;;) {
    const page = await call(
      server,
      'GET',
      `/api/site-crawls/${started.id}?limit=100&cursor=${cursor}`,
      undefined,
      headers,
    );
    pages.push(...page.pages);
    if (page.next_cursor === undefined) return { id: started.id, status: page, pages };
    cursor = page.next_cursor;
  }
}

async function mapBench(site, server) {
  const times = [];
  let answer;
  for (let i = 0; i < MAP_RUNS; i++) {
    const t = performance.now();
    answer = await call(server, 'POST', '/api/map', { url: site.origin, limit: 30_000 });
    times.push((performance.now() - t) / 1000);
  }
  const listed = new Set(answer.links.map((l) => l.url));
  const missing = site.sitemapUrls.filter((u) => !listed.has(new URL(u).href));
  const disallowedListed = answer.links.filter((l) => new URL(l.url).pathname.startsWith(site.disallowedPrefix)).length;
  let top5 = 0;
  for (const { query, target } of site.queries) {
    const ranked = await call(server, 'POST', '/api/map', { url: site.origin, search: query, limit: 5 });
    if (ranked.links.some((l) => l.url === new URL(target).href)) top5 += 1;
  }
  return {
    median_s: median(times),
    runs_s: times,
    listed: answer.links.length,
    sitemap_urls: site.sitemapUrls.length,
    sitemap_urls_missing: missing.length,
    disallowed_listed: disallowedListed,
    disallowed_fetched: site.stats().disallowedHits,
    search_top5: `${top5}/${site.queries.length}`,
  };
}

/**
 * The same pages as one site crawl and as POST /api/crawl batches of 10, after a warm-up of
 * both, in ABBA order (crawl, batches, batches, crawl) so that drift falls on both alike.
 */
async function crawlBench(site, server) {
  const crawl = async (limit) => {
    const t = performance.now();
    const result = await crawlAll(server, { url: site.origin, limit, max_depth: 5, max_chars: 1 });
    return { urls: result.pages.map((p) => p.url), status: result.status, s: (performance.now() - t) / 1000 };
  };
  const batches = async (urls) => {
    const t = performance.now();
    for (let i = 0; i < urls.length; i += 10)
      await call(server, 'POST', '/api/crawl', { urls: urls.slice(i, i + 10), max_chars: 1 });
    return (performance.now() - t) / 1000;
  };
  const warm = await crawl(50);
  await batches(warm.urls);
  const first = await crawl(PAGES);
  const b1 = await batches(first.urls);
  const b2 = await batches(first.urls);
  const second = await crawl(PAGES);
  const crawlRate = (first.urls.length + second.urls.length) / (first.s + second.s);
  const batchRate = (2 * first.urls.length) / (b1 + b2);
  return {
    pages: first.urls.length,
    unique: new Set(first.urls).size,
    stop_reason: first.status.stop_reason,
    site_crawl_s: [first.s, second.s],
    batches_s: [b1, b2],
    site_crawl_pages_per_s: crawlRate,
    batches_of_10_pages_per_s: batchRate,
    ratio: crawlRate / batchRate,
  };
}

async function orderBench(site, server) {
  const targets = new Set(site.crawlTargets.targets.map((u) => new URL(u).href));
  const fetchedUntilAll = async (query) => {
    const { pages } = await crawlAll(server, {
      url: site.origin,
      limit: 1000,
      max_depth: 6,
      use_sitemap: false,
      max_chars: 1,
      ...(query ? { query } : {}),
    });
    const seen = new Set();
    for (const [i, page] of pages.entries()) {
      if (targets.has(page.url)) seen.add(page.url);
      if (seen.size === targets.size) return i + 1;
    }
    return `not all within ${pages.length} (${seen.size} of ${targets.size})`;
  };
  return {
    query: site.crawlTargets.query,
    breadth_first_pages: await fetchedUntilAll(undefined),
    best_first_pages: await fetchedUntilAll(site.crawlTargets.query),
  };
}

async function killBench(site) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'site-bench-'));
  const env = { WEBSEARCH_STORE_PATH: path.join(dir, 'store.db'), WEBSEARCH_INSTANCE_ID: 'site-bench' };
  try {
    const created = await new Promise((resolve) => {
      const child = spawn(process.execPath, [CLI, 'keys', 'create', '--name', 'bench', '--credits', '100000'], {
        env: { ...process.env, ...env, WEBSEARCH_LOG_LEVEL: 'silent' },
      });
      let out = '';
      child.stdout.on('data', (d) => (out += d));
      child.on('close', () => resolve(out.trim()));
    });
    const auth = { authorization: `Bearer ${created}` };
    let server = await serve(env);
    const started = await call(
      server,
      'POST',
      '/api/site-crawls',
      { url: site.origin, limit: PAGES, max_chars: 1 },
      auth,
    );
    let status;
    do {
      await new Promise((r) => setTimeout(r, 100));
      status = await call(server, 'GET', `/api/site-crawls/${started.id}?limit=1`, undefined, auth);
    } while (status.progress.pages < PAGES / 2 && status.status === 'running');
    const atKill = status.progress.pages;
    await server.kill();
    server = await serve(env);
    try {
      const pages = [];
      let cursor = '0';
      for (;;) {
        status = await call(
          server,
          'GET',
          `/api/site-crawls/${started.id}?limit=100&cursor=${cursor}&wait_ms=2000`,
          undefined,
          auth,
        );
        pages.push(...status.pages);
        cursor = status.next_cursor ?? cursor;
        if (status.status === 'done' && status.next_cursor === undefined) break;
      }
      const usage = await call(server, 'GET', '/api/usage?limit=1', undefined, auth);
      const succeeded = pages.filter((p) => p.success).length;
      return {
        pages_at_kill: atKill,
        pages: pages.length,
        unique: new Set(pages.map((p) => p.url)).size,
        stop_reason: status.stop_reason,
        succeeded,
        credits_used: status.progress.credits_used,
        charged: 100_000 - usage.balance,
        held: usage.held_credits,
      };
    } finally {
      await server.stop();
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

const site = await startGeneratedSite({});
const server = await serve({});
const figures = { machine: `${os.cpus()[0]?.model ?? 'cpu'} x${os.cpus().length}, node ${process.version}` };
try {
  if (ONLY.has('map')) {
    figures.map = await mapBench(site, server);
    console.log('map', figures.map);
  }
  if (ONLY.has('crawl')) {
    site.resetStats();
    figures.crawl = await crawlBench(site, server);
    figures.crawl.max_concurrent_per_host = site.stats().maxConcurrent;
    console.log('crawl', figures.crawl);
  }
  if (ONLY.has('order')) {
    figures.order = await orderBench(site, server);
    console.log('order', figures.order);
  }
} finally {
  await server.stop();
}
if (ONLY.has('kill')) {
  figures.kill = await killBench(site);
  console.log('kill -9', figures.kill);
}
await site.close();
if (values.json) fs.writeFileSync(values.json, `${JSON.stringify(figures, null, 2)}\n`);
