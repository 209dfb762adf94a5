// Ledger benchmark: what API keys and credits add to a request, and how many charges one
// key takes per second, with the SQLite store and with a local Redis.
//
//   npm run build && node bench/ledger-bench.mjs [--requests 2000] [--charges 5000] [--json out.json]
//
// 1. Added latency of auth + rate limit + hold + debit on a cached search: two real HTTP
//    servers on one store kind, one in open mode (no key exists in its store) and one
//    with a key; requests alternate between them so both see the same machine load. The
//    figure is p50(keyed) - p50(open).                  target: SQLite < 0.5 ms, Redis < 2 ms
// 2. Charges per second on one key, 16 in flight: the store's reserve + charge (1 credit
//    and its usage record each), and metered cached searches over HTTP.
// Redis runs when `redis-server` is installed (a private instance on a free port).
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildCore } from '../dist/compose.js';
import { loadConfig } from '../dist/core/config.js';
import { silentLogger } from '../dist/core/logger.js';
import { startHttpServer } from '../dist/http-server.js';

const args = process.argv.slice(2);
const option = (name, fallback) => {
  const at = args.indexOf(name);
  return at >= 0 && args[at + 1] !== undefined ? args[at + 1] : fallback;
};
const REQUESTS = Number(option('--requests', '2000'));
const CHARGES = Number(option('--charges', '5000'));
const JSON_OUT = option('--json', undefined);
const IN_FLIGHT = 16;

// ------------------------------------------------------------------ one fake engine (SearXNG JSON)

const results = Array.from({ length: 10 }, (_, i) => ({
  url: `https://example.org/r/${i}`,
  title: `Result ${i}`,
  content: `Snippet ${i}.`,
  template: 'default.html',
}));
const engine = http.createServer((_req, res) =>
  res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ query: 'q', results })),
);
await new Promise((resolve) => engine.listen(0, '127.0.0.1', resolve));
const SEARXNG_URL = `http://127.0.0.1:${engine.address().port}`;

// ------------------------------------------------------------------ helpers

const dir = mkdtempSync(join(tmpdir(), 'ledger-bench-'));

function freePort() {
  return new Promise((resolve) => {
    const s = net.createServer();
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

async function startRedis() {
  const port = await freePort();
  const child = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    { stdio: 'ignore' },
  );
  const spawned = await new Promise((resolve) => {
    child.once('error', () => resolve(false));
    child.once('spawn', () => resolve(true));
  });
  if (!spawned) return undefined;
  for (let i = 0; i < 100; i++) {
    const up = await new Promise((resolve) => {
      const socket = net.connect(port, '127.0.0.1', () => {
        socket.end('PING\r\n');
        resolve(true);
      });
      socket.on('error', () => resolve(false));
    });
    if (up) return { url: `redis://127.0.0.1:${port}/0`, stop: () => child.kill('SIGKILL') };
    await new Promise((r) => setTimeout(r, 50));
  }
  child.kill('SIGKILL');
  return undefined;
}

function config(store, extra = {}) {
  return loadConfig({
    env: {},
    overrides: {
      server: { port: 0 },
      log: { level: 'silent' },
      engines: { searxngUrl: SEARXNG_URL },
      search: { engines: 'searxng', cacheTtlMs: 3600_000 },
      auth: { rateLimitRequests: 1_000_000 },
      store,
      ...extra,
    },
  });
}

const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
const round = (n, digits = 3) => Math.round(n * 10 ** digits) / 10 ** digits;

const agent = new http.Agent({ keepAlive: true, maxSockets: IN_FLIGHT });
function get(url, headers) {
  return new Promise((resolve, reject) => {
    const req = http.get(url, { agent, headers }, (res) => {
      res.resume();
      res.on('end', () => (res.statusCode === 200 ? resolve() : reject(new Error(`HTTP ${res.statusCode}`))));
    });
    req.on('error', reject);
  });
}

/** Latency of cached searches, open and keyed, alternating; then metered throughput. */
async function measure(label, storeOf) {
  const openCore = await buildCore(config(storeOf('open')), silentLogger);
  const keyedCore = await buildCore(config(storeOf('keyed')), silentLogger);
  const { secret } = await keyedCore.keys.create({ name: 'bench' });
  const [open, keyed] = [await startHttpServer(openCore), await startHttpServer(keyedCore)];
  const path = '/api/search?q=ledger+bench';
  const auth = { authorization: `Bearer ${secret}` };
  await get(open.url + path, {});
  await get(keyed.url + path, auth);
  for (let i = 0; i < 200; i++) {
    await get(open.url + path, {});
    await get(keyed.url + path, auth);
  }
  const times = { open: [], keyed: [] };
  for (let i = 0; i < REQUESTS; i++) {
    for (const [name, url, headers] of i % 2
      ? [
          ['open', open.url, {}],
          ['keyed', keyed.url, auth],
        ]
      : [
          ['keyed', keyed.url, auth],
          ['open', open.url, {}],
        ]) {
      const t = performance.now();
      await get(url + path, headers);
      times[name].push(performance.now() - t);
    }
  }
  for (const list of Object.values(times)) list.sort((a, b) => a - b);
  const p50 = { open: percentile(times.open, 50), keyed: percentile(times.keyed, 50) };
  const p99 = { open: percentile(times.open, 99), keyed: percentile(times.keyed, 99) };

  // Metered requests per second, 16 in flight on one key.
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: IN_FLIGHT }, async () => {
      while (next++ < REQUESTS) await get(keyed.url + path, auth);
    }),
  );
  const httpPerSecond = REQUESTS / ((performance.now() - started) / 1000);

  // Raw ledger: reserve + charge of 1 credit, 16 in flight, on a limited key.
  const { record: limited } = await keyedCore.keys.create({ name: 'charges', credits: CHARGES * 2 });
  const store = keyedCore.store;
  let n = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: IN_FLIGHT }, async () => {
      while (n < CHARGES) {
        const id = `bench-${n++}`;
        const admitted = await store.reserve(limited.id, id, 1, 60_000, Date.now());
        if (!admitted.ok) throw new Error(`refused: ${admitted.reason}`);
        await store.charge({
          keyId: limited.id,
          operation: 'crawl',
          credits: 1,
          requestId: id,
          at: new Date().toISOString(),
        });
      }
    }),
  );
  const chargesPerSecond = CHARGES / ((performance.now() - t0) / 1000);
  const after = await store.keyById(limited.id);
  if (after.balance !== CHARGES) throw new Error(`balance ${after.balance}, expected ${CHARGES}`);
  // Every charge left exactly one usage record of its credits.
  const records = await store.usage({ keyId: limited.id });
  const recorded = records.reduce((sum, r) => sum + r.credits, 0);
  if (records.length !== CHARGES || recorded !== CHARGES)
    throw new Error(`${records.length} usage records of ${recorded} credits, expected ${CHARGES} of ${CHARGES}`);
  const usage = records.length;

  await Promise.all([open.close(), keyed.close()]);
  await Promise.all([openCore.close(), keyedCore.close()]);
  const row = {
    store: label,
    p50_open_ms: round(p50.open),
    p50_keyed_ms: round(p50.keyed),
    added_p50_ms: round(p50.keyed - p50.open),
    p99_open_ms: round(p99.open),
    p99_keyed_ms: round(p99.keyed),
    metered_requests_per_s: Math.round(httpPerSecond),
    ledger_charges_per_s: Math.round(chargesPerSecond),
    usage_records_checked: usage,
  };
  console.log(JSON.stringify(row));
  return row;
}

const rows = [];
try {
  rows.push(await measure('sqlite', (name) => ({ kind: 'sqlite', path: join(dir, `${name}.db`) })));
  const redis = await startRedis();
  if (redis) {
    try {
      rows.push(
        await measure('redis', (name) => ({ kind: 'redis', redisUrl: redis.url, redisPrefix: `bench-${name}:` })),
      );
    } finally {
      redis.stop();
    }
  } else {
    console.log('redis: skipped (no redis-server on PATH; apt-get install redis-server)');
  }
} finally {
  agent.destroy();
  engine.close();
  rmSync(dir, { recursive: true, force: true });
}

const targets = { sqlite: 0.5, redis: 2 };
console.log(
  `\nmachine: ${cpus().length} x ${cpus()[0]?.model}, node ${process.version}; ${REQUESTS} requests each way, ${CHARGES} charges, ${IN_FLIGHT} in flight`,
);
console.log(
  '| store | p50 open | p50 keyed | added p50 (target) | p99 open / keyed | metered req/s | ledger charges/s |',
);
console.log('|---|---|---|---|---|---|---|');
for (const r of rows) {
  const ok = r.added_p50_ms < targets[r.store] ? 'yes' : 'NO';
  console.log(
    `| ${r.store} | ${r.p50_open_ms} ms | ${r.p50_keyed_ms} ms | ${r.added_p50_ms} ms (< ${targets[r.store]}: ${ok}) | ${r.p99_open_ms} / ${r.p99_keyed_ms} ms | ${r.metered_requests_per_s} | ${r.ledger_charges_per_s} |`,
  );
}
if (JSON_OUT)
  writeFileSync(JSON_OUT, JSON.stringify({ rows, requests: REQUESTS, charges: CHARGES, inFlight: IN_FLIGHT }, null, 2));
