// Search service benchmark: what the metasearch layer adds on top of the engines.
//
//   npm run build && node bench/search-bench.mjs [--runs 30] [--json out.json]
//
// Three fake engines (SearXNG, Brave, Google wire formats) on one local node:http server
// answer after 50, 100 and 200 ms. SearchService.search is called directly (the
// "server-side" time: no HTTP face, no JSON serialisation) through the real guarded HTTP
// client, so the overhead measured is queueing, requests, parsing, fusion and response
// assembly. Scenarios:
//   1. all three answer        → latency − 200 ms (slowest engine)   target ≤ 10 ms
//   2. Google hangs            → latency − engine time budget         target ≤ 10 ms
//   3. cached search           → median time of a cache hit           target < 1 ms
import http from 'node:http';
import { writeFileSync } from 'node:fs';
import { loadConfig } from '../dist/core/config.js';
import { silentLogger } from '../dist/core/logger.js';
import { withRequestContext } from '../dist/core/request-context.js';
import { GuardedFetcher } from '../dist/net/guarded-fetcher.js';
import { SearchService } from '../dist/services/search/search-service.js';

const args = process.argv.slice(2);
const option = (name, fallback) => {
  const at = args.indexOf(name);
  return at >= 0 && args[at + 1] !== undefined ? args[at + 1] : fallback;
};
const RUNS = Number(option('--runs', '30'));
const JSON_OUT = option('--json', undefined);
const DELAYS = { searxng: 50, brave: 100, google: 200 };
const BUDGET_MS = 500;
const CACHED_RUNS = 2000;

// ------------------------------------------------------------------ fake engines

/** Ten results per engine, half of them shared, so fusion has real merging to do. */
const urls = (engine) =>
  Array.from({ length: 10 }, (_, i) =>
    i % 2 === 0 ? `https://shared.example/page/${i}` : `https://${engine}.example/r/${i}`,
  );
const snippet = (i) => `Snippet number ${i}: a sentence or two of text, as engines return, about the query.`;
const BODIES = {
  searxng: JSON.stringify({
    query: 'q',
    results: urls('searxng').map((url, i) => ({
      url,
      title: `SearXNG result ${i}`,
      content: snippet(i),
      template: 'default.html',
    })),
  }),
  brave: JSON.stringify({
    type: 'search',
    web: {
      results: urls('brave').map((url, i) => ({
        url,
        title: `Brave result ${i}`,
        description: snippet(i),
        page_age: '2025-05-01T10:00:00',
      })),
    },
  }),
  google: JSON.stringify({
    kind: 'customsearch#search',
    items: urls('google').map((link, i) => ({ link, title: `Google result ${i}`, snippet: snippet(i) })),
  }),
};
const ROUTES = {
  '/searxng/search': 'searxng',
  '/brave/res/v1/web/search': 'brave',
  '/google/customsearch/v1': 'google',
};

let googleHangs = false;
const sockets = new Set();
const server = http.createServer((req, res) => {
  const engine = ROUTES[new URL(req.url ?? '/', 'http://x').pathname];
  if (!engine) return void res.writeHead(404).end();
  if (engine === 'google' && googleHangs) return; // never answers
  const timer = setTimeout(
    () => res.writeHead(200, { 'content-type': 'application/json' }).end(BODIES[engine]),
    DELAYS[engine],
  );
  res.on('close', () => clearTimeout(timer));
});
server.on('connection', (s) => {
  sockets.add(s);
  s.on('close', () => sockets.delete(s));
});
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const base = `http://127.0.0.1:${server.address().port}`;

// ------------------------------------------------------------------ service

function makeService(search) {
  const config = loadConfig({
    env: {},
    overrides: {
      engines: {
        searxngUrl: `${base}/searxng`,
        braveUrl: `${base}/brave`,
        braveApiKey: 'bench',
        googleUrl: `${base}/google`,
        googleApiKey: 'bench',
        googleCseId: 'bench',
      },
      search: { engineTimeoutMs: BUDGET_MS, braveRatePerSecond: 1000, cacheTtlMs: 0, ...search },
      fetch: { perHostConcurrency: 64 },
      log: { level: 'silent' },
    },
  });
  const client = new GuardedFetcher(config.fetch);
  const store = new Map();
  const cache = {
    get: async (key) => store.get(key),
    set: async (key, value) => void store.set(key, value),
  };
  const pages = { extract: async () => ({ ok: false, statusCode: 0, error: new Error('unused') }) };
  const service = new SearchService({ config, client, pages, cache });
  // Each search under a request's context, as Operations hands it to the service.
  const run = (request) =>
    withRequestContext({ id: 'req_bench', caller: {}, log: silentLogger }, 60_000, (ctx) =>
      service.search(ctx, request),
    );
  return { service: { search: run }, client };
}

const request = (q) => ({
  q,
  include_content: false,
  content_results: 5,
  max_results: 10,
  safesearch: 'moderate',
  engines: ['searxng', 'brave', 'google'],
});

const quantile = (values, q) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))];
};
const round = (n, digits = 2) => Math.round(n * 10 ** digits) / 10 ** digits;

async function timeSearches(service, runs, tag) {
  const times = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    const response = await service.search(request(`${tag} ${i}`));
    times.push(performance.now() - t0);
    if (response.results.length === 0) throw new Error(`${tag}: no results`);
  }
  return times;
}

// 1. Every engine answers.
const fresh = makeService({});
await timeSearches(fresh.service, 5, 'warm-up');
const allTimes = await timeSearches(fresh.service, RUNS, 'all');
const slowest = Math.max(...Object.values(DELAYS));

// 2. Google hangs: the answer waits for the time budget, then goes out as partial.
googleHangs = true;
const hangTimes = await timeSearches(fresh.service, Math.max(5, Math.round(RUNS / 2)), 'hang');
googleHangs = false;

// 3. Cache hits, measured inside the process.
const cached = makeService({ cacheTtlMs: 60_000 });
const cachedRequest = request('cached query');
const first = await cached.service.search(cachedRequest);
if (first.metadata.status !== 'success') throw new Error(`cached: first search was ${first.metadata.status}`);
const cacheTimes = [];
for (let i = 0; i < CACHED_RUNS; i++) {
  const t0 = performance.now();
  const hit = await cached.service.search(cachedRequest);
  cacheTimes.push((performance.now() - t0) * 1000);
  if (!hit.metadata.from_cache) throw new Error('cached: not served from cache');
}

await fresh.client.close();
await cached.client.close();
server.closeAllConnections();
for (const s of sockets) s.destroy();
server.close();

// ------------------------------------------------------------------ report

const rows = [
  {
    scenario: `3 engines (${DELAYS.searxng}/${DELAYS.brave}/${DELAYS.google} ms)`,
    runs: allTimes.length,
    median_ms: round(quantile(allTimes, 0.5)),
    p95_ms: round(quantile(allTimes, 0.95)),
    reference_ms: slowest,
    median_overhead_ms: round(quantile(allTimes, 0.5) - slowest),
    p95_overhead_ms: round(quantile(allTimes, 0.95) - slowest),
    target: '≤ 10 ms overhead',
  },
  {
    scenario: `google hangs (budget ${BUDGET_MS} ms)`,
    runs: hangTimes.length,
    median_ms: round(quantile(hangTimes, 0.5)),
    p95_ms: round(quantile(hangTimes, 0.95)),
    reference_ms: BUDGET_MS,
    median_overhead_ms: round(quantile(hangTimes, 0.5) - BUDGET_MS),
    p95_overhead_ms: round(quantile(hangTimes, 0.95) - BUDGET_MS),
    target: '≤ 10 ms overhead',
  },
];
const cache = {
  scenario: 'cached search (server-side)',
  runs: cacheTimes.length,
  median_us: round(quantile(cacheTimes, 0.5), 1),
  p95_us: round(quantile(cacheTimes, 0.95), 1),
  target: '< 1000 µs median',
};

console.log(`\nSearch service benchmark (node ${process.version})\n`);
console.log('scenario                          runs   median ms   p95 ms   ref ms   overhead med / p95 ms');
for (const r of rows) {
  console.log(
    `${r.scenario.padEnd(33)} ${String(r.runs).padStart(4)}   ${String(r.median_ms).padStart(9)}   ${String(r.p95_ms).padStart(6)}   ${String(r.reference_ms).padStart(6)}   ${r.median_overhead_ms} / ${r.p95_overhead_ms}  (target ${r.target})`,
  );
}
console.log(
  `${cache.scenario.padEnd(33)} ${String(cache.runs).padStart(4)}   median ${cache.median_us} µs, p95 ${cache.p95_us} µs  (target ${cache.target})\n`,
);

if (JSON_OUT) {
  writeFileSync(
    JSON_OUT,
    `${JSON.stringify({ node: process.version, date: new Date().toISOString(), engines: rows, cache }, null, 2)}\n`,
  );
  console.log(`wrote ${JSON_OUT}`);
}
