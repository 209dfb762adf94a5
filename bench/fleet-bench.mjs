#!/usr/bin/env node
// A site crawl spread over a fleet: pages per second of one crawl on
//
//   (a) one `serve` instance on the SQLite store (WEBSEARCH_STORE_PATH=:memory:, the local
//       crawl queue: one process takes the frontier's entries itself): the baseline;
//   (b) one instance on Redis (WEBSEARCH_STORE=redis: the shared BullMQ crawl queue and the
//       fleet-wide host gate, with a single worker);
//   (c) --instances instances (default 3) on the same Redis: the crawl is started on the
//       first, every instance works on its pages.
//
// The site (bench/site/tree-site.mjs, on loopback) is a tree of --site-pages pages (default
// 2,000, --fanout children each) whose every answer waits --latency-ms (default 200): the
// crawl is bound by I/O, so a page holds its slot for the latency plus what the crawler adds.
// Every configuration has the same settings: WEBSEARCH_FETCH_PER_HOST=24 (so that the
// fleet's per-host limit does not bound three instances of 8), WEBSEARCH_SITE_PAGES_IN_FLIGHT=8,
// cache off, rendering off, rate limit off, its own WEBSEARCH_INSTANCE_ID per instance and a
// Redis key prefix of its own per run. Each run starts fresh servers, crawls --warmup pages
// (untimed), then times one crawl of --pages pages (`use_sitemap` false: links only, unless
// --sitemap) from the POST to the job's `status: done` (every instance polled with wait_ms;
// the first to see it ends the wait); pages/s = pages delivered / seconds. Every run is
// checked: exactly --pages distinct URLs delivered, stop_reason "limit". The configurations
// alternate over --runs rounds (their order rotates each round) and the medians are reported,
// with the ratio many/one on Redis and the queue's overhead per page against the SQLite
// baseline:
//
//   overhead_ms = (1 / pps_redis_one - 1 / pps_sqlite_one) * pagesInFlight * 1000
//
// With pagesInFlight slots kept busy, a slot finishes one page every pagesInFlight / pps
// seconds: that is how long a page holds its slot (the site's latency, extraction, the store's
// writes, the hand-off to the next page). The difference between the two is the time the
// shared queue (with the Redis store and host gate) adds to every page.
//
// Where the time goes, per run: the site's own timeline (it runs in this process: the first
// page requested, the requests open on it on average, the steady rate between the 10th and
// 90th percentile of its answers, the tail from the last page answered to done); every
// --probe-ms (default 250) each instance's page counter (/metrics, so when each one joined)
// and, on Redis, the crawl's BullMQ queue (entries waiting, delayed, active) and the fleet's
// host-gate slots of the site; the CPU time of each server, redis-server and this process
// (/proc), and of the whole machine (/proc/stat).
//
// Needs redis-server (on PATH or /usr/bin/redis-server); started on a free port without
// persistence and killed at the end. Servers get SIGTERM, then SIGKILL; everything is cleaned
// up on error and on Ctrl-C too.
//
//   npm run bench:fleet -- [--pages 600] [--runs 3] [--instances 3] [--json FILE]
//     [--site-pages 2000] [--fanout 10] [--latency-ms 200] [--warmup 50] [--sitemap]
//     [--metered] [--configs sqlite-one,redis-one,redis-many] [--timeout-s 300] [--probe-ms 250]
//     [--wait-idle PCT] [--max-others PCT] [--dist DIR]
//
// On a shared machine: --wait-idle PCT waits (up to 10 minutes) before each run until the CPU
// was under PCT % busy for 3 s; --max-others PCT runs a configuration again (twice at most) when
// other processes took more than PCT % of the CPU during its crawl (/proc/stat against the
// bench's own processes). Every run prints that share; the table flags figures above 10 %.
//
// --dist DIR: the build to run (default: this checkout's dist/). While others rebuild dist/, a
// frozen copy keeps every run on one version: `mkdir -p .scratch/fleet && cp -r dist package.json
// .scratch/fleet/` (package.json for "type": "module"), then --dist .scratch/fleet/dist. The
// bench says so when the build it runs changed during the bench.
//
// --metered: every run with an API key (created with `keys create`) instead of open mode, so
// credits are held and charged per page; the SQLite store is then a temporary file (an
// in-memory store cannot be shared with the `keys create` process).
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { Redis } from 'ioredis';
import { startTreeSite } from './site/tree-site.mjs';

const { values } = parseArgs({
  options: {
    pages: { type: 'string', default: '600' },
    runs: { type: 'string', default: '3' },
    instances: { type: 'string', default: '3' },
    json: { type: 'string' },
    'site-pages': { type: 'string', default: '2000' },
    fanout: { type: 'string', default: '10' },
    'latency-ms': { type: 'string', default: '200' },
    warmup: { type: 'string', default: '50' },
    sitemap: { type: 'boolean', default: false },
    metered: { type: 'boolean', default: false },
    configs: { type: 'string', default: 'sqlite-one,redis-one,redis-many' },
    'timeout-s': { type: 'string', default: '300' },
    'probe-ms': { type: 'string', default: '250' },
    'wait-idle': { type: 'string', default: '0' },
    'max-others': { type: 'string', default: '100' },
    dist: { type: 'string' },
  },
});
const CLI = path.resolve(
  values.dist ?? path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'dist'),
  'cli.js',
);
const PAGES = Number(values.pages);
const RUNS = Number(values.runs);
const INSTANCES = Number(values.instances);
const SITE_PAGES = Number(values['site-pages']);
const FANOUT = Number(values.fanout);
const LATENCY_MS = Number(values['latency-ms']);
const WARMUP = Number(values.warmup);
const TIMEOUT_MS = Number(values['timeout-s']) * 1000;
const PROBE_MS = Number(values['probe-ms']);
const WAIT_IDLE = Number(values['wait-idle']);
const MAX_OTHERS = Number(values['max-others']);
const PER_HOST = 24;
const IN_FLIGHT = 8;
const METRICS_TOKEN = 'fleet-bench-metrics-token';
for (const [name, n, min] of [
  ['--pages', PAGES, 1],
  ['--runs', RUNS, 1],
  ['--instances', INSTANCES, 2],
  ['--site-pages', SITE_PAGES, 2],
  ['--fanout', FANOUT, 1],
  ['--latency-ms', LATENCY_MS, 0],
  ['--warmup', WARMUP, 0],
  ['--timeout-s', TIMEOUT_MS, 1000],
  ['--probe-ms', PROBE_MS, 0],
  ['--wait-idle', WAIT_IDLE, 0],
  ['--max-others', MAX_OTHERS, 0],
])
  if (!Number.isInteger(n) || n < min) throw new Error(`${name} must be an integer >= ${min}, got ${n}`);
if (PAGES > 1000) throw new Error('--pages is at most 1000 (a site crawl delivers 1,000 pages at most)');
if (PAGES > SITE_PAGES) throw new Error('--pages is at most --site-pages');

const CONFIGS = [
  { key: 'sqlite-one', label: 'SQLite, one instance (baseline)', store: 'sqlite', instances: 1 },
  { key: 'redis-one', label: 'Redis, one instance', store: 'redis', instances: 1 },
  { key: 'redis-many', label: `Redis, ${INSTANCES} instances`, store: 'redis', instances: INSTANCES },
].filter((c) => values.configs.split(',').includes(c.key));
if (CONFIGS.length === 0) throw new Error('--configs: none of sqlite-one, redis-one, redis-many');

// ---------------------------------------------------------------------------------------------
// Child processes: every one tracked, so that an error or Ctrl-C leaves none behind.

/** @type {Set<import('node:child_process').ChildProcess>} */
const children = new Set();
/** @type {(() => Promise<void>)[]} */
const cleanups = [];

/** @param {import('node:child_process').ChildProcess} child */
function track(child) {
  children.add(child);
  child.once('exit', () => children.delete(child));
  return child;
}

/** Ends a child: SIGTERM, then SIGKILL after `graceMs`; resolves once it exited. @param {import('node:child_process').ChildProcess} child */
function terminate(child, graceMs = 10_000) {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve(undefined);
    });
    child.kill('SIGTERM');
  });
}

async function cleanup() {
  for (const fn of cleanups.splice(0).reverse()) await fn().catch(() => undefined);
  await Promise.all([...children].map((c) => terminate(c, 5_000)));
}

// A last resort: whatever is still running when this process exits is killed.
process.once('exit', () => {
  for (const child of children) child.kill('SIGKILL');
});
for (const signal of /** @type {const} */ (['SIGINT', 'SIGTERM']))
  process.once(signal, () => {
    console.error(`\n${signal}: stopping the servers, redis-server and the site`);
    void cleanup().finally(() => process.exit(130));
  });

// ---------------------------------------------------------------------------------------------
// redis-server

function findRedisServer() {
  const dirs = (process.env.PATH ?? '').split(':').filter(Boolean).concat('/usr/bin', '/usr/local/bin', '/usr/sbin');
  for (const dir of dirs) {
    const candidate = path.join(dir, 'redis-server');
    if (fs.existsSync(candidate)) return candidate;
  }
  return undefined;
}

/** A free port on loopback: bound on port 0, read, closed (redis-server has no `--port 0`). */
function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = /** @type {net.AddressInfo} */ (server.address());
      server.close(() => resolve(port));
    });
  });
}

/** @param {number} port */
function answersPing(port) {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.setTimeout(500);
    socket.once('connect', () => socket.write('PING\r\n'));
    socket.once('data', (d) => {
      socket.destroy();
      resolve(d.toString().startsWith('+PONG'));
    });
    socket.once('error', () => resolve(false));
    socket.once('timeout', () => {
      socket.destroy();
      resolve(false);
    });
  });
}

async function startRedis() {
  const binary = findRedisServer();
  if (!binary) throw new Error('redis-server not found on PATH nor in /usr/bin (apt-get install redis-server)');
  const version = /v=(\S+)/.exec(execFileSync(binary, ['--version']).toString())?.[1] ?? 'unknown';
  let lastError = '';
  // The port may be taken between reading it and redis-server binding it: a few tries.
  for (let attempt = 0; attempt < 3; attempt++) {
    const port = await freePort();
    const child = track(
      spawn(
        binary,
        ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--protected-mode', 'yes'],
        { stdio: ['ignore', 'pipe', 'pipe'] },
      ),
    );
    let log = '';
    child.stdout.on('data', (d) => (log = (log + d).slice(-4000)));
    child.stderr.on('data', (d) => (log = (log + d).slice(-4000)));
    for (let i = 0; i < 100 && child.exitCode === null; i++) {
      if (await answersPing(port))
        return {
          url: `redis://127.0.0.1:${port}/0`,
          port,
          version,
          binary,
          pid: child.pid,
          stop: () => terminate(child, 3_000),
        };
      await new Promise((r) => setTimeout(r, 50));
    }
    lastError = `redis-server on port ${port} did not answer (exit ${child.exitCode}): ${log}`;
    await terminate(child, 1_000);
  }
  throw new Error(lastError);
}

// ---------------------------------------------------------------------------------------------
// The servers

/** This process's environment without any websearch setting of the caller's. */
const BASE_ENV = Object.fromEntries(
  Object.entries(process.env).filter(([k]) => !k.startsWith('WEBSEARCH_') && k !== 'REDIS_URL'),
);

/** The settings every configuration shares. */
const COMMON_ENV = {
  WEBSEARCH_FETCH_PER_HOST: String(PER_HOST),
  WEBSEARCH_SITE_PAGES_IN_FLIGHT: String(IN_FLIGHT),
  WEBSEARCH_CACHE_TTL_MS: '0',
  WEBSEARCH_RENDER: 'never',
  WEBSEARCH_ALLOW_PRIVATE_ADDRESSES: 'true',
  WEBSEARCH_RATE_LIMIT_REQUESTS: '0',
  WEBSEARCH_LOG_LEVEL: 'silent',
  WEBSEARCH_METRICS_TOKEN: METRICS_TOKEN,
};

/**
 * `websearch-mcp serve` on a free port; resolves once it listens.
 * @param {Record<string, string>} env @param {string} name
 */
function serve(env, name) {
  const child = track(
    spawn(process.execPath, [CLI, 'serve', '--port', '0'], {
      env: { ...BASE_ENV, ...env },
      stdio: ['ignore', 'ignore', 'pipe'],
    }),
  );
  const log = { text: '' };
  const exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve(signal ?? code)));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      void terminate(child);
      reject(new Error(`${name} did not listen within 60 s: ${log.text}`));
    }, 60_000);
    let url;
    child.stderr.on('data', (d) => {
      // Everything (a crash's stack included) kept, but not without bound.
      log.text = (log.text + d).slice(-64_000);
      const found = url === undefined && /listening on (http:\/\/[^\s:]+:\d+)/.exec(log.text);
      if (found) {
        url = found[1];
        clearTimeout(timer);
        resolve({ name, url, log, pid: child.pid, exited, stop: () => terminate(child) });
      }
    });
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`${name} exited with ${code} before listening: ${log.text}`));
    });
  });
}

/** @param {string[]} args @param {Record<string, string>} env */
function runCli(args, env) {
  return new Promise((resolve, reject) => {
    const child = track(spawn(process.execPath, [CLI, ...args], { env: { ...BASE_ENV, ...env } }));
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.once('error', reject);
    child.once('close', (code) =>
      code === 0 ? resolve(stdout.trim()) : reject(new Error(`${args.join(' ')} exited with ${code}: ${stderr}`)),
    );
  });
}

/**
 * @param {{ url: string }} server @param {string} method @param {string} route
 * @param {unknown} [body] @param {Record<string, string>} [headers] @param {AbortSignal} [signal]
 */
async function call(server, method, route, body, headers = {}, signal) {
  const res = await fetch(`${server.url}${route}`, {
    method,
    headers: { 'content-type': 'application/json', ...headers },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    ...(signal ? { signal } : {}),
  });
  const text = await res.text();
  let json;
  try {
    json = JSON.parse(text);
  } catch {
    json = { raw: text.slice(0, 500) };
  }
  if (res.status >= 400) throw new Error(`${method} ${route}: ${res.status} ${JSON.stringify(json)}`);
  return json;
}

/** Pages the server fetched so far (websearch_pages_total, every outcome); undefined when /metrics does not answer. */
async function pagesFetched(server) {
  try {
    const res = await fetch(`${server.url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
    if (res.status !== 200) return undefined;
    let sum = 0;
    for (const line of (await res.text()).split('\n'))
      if (line.startsWith('websearch_pages_total')) sum += Number(line.slice(line.lastIndexOf(' ') + 1)) || 0;
    return sum;
  } catch {
    return undefined;
  }
}

/** CPU seconds (user + system) a process used so far, from /proc (Linux); undefined elsewhere or once it is gone. */
function cpuSeconds(pid) {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
  } catch {
    return undefined;
  }
}

/** The machine's CPU time so far, busy and in all, in clock ticks (/proc/stat, Linux); undefined elsewhere. */
function machineTicks() {
  try {
    const cpu = fs.readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
    // user nice system idle iowait irq softirq steal (guest time is counted in user already)
    const total = cpu.slice(0, 8).reduce((a, b) => a + b, 0);
    return { busy: total - cpu[3] - cpu[4], total };
  } catch {
    return undefined;
  }
}

/** The share of the machine's CPU busy between two machineTicks() readings. */
function busyShare(before, after) {
  if (!before || !after || after.total === before.total) return undefined;
  return (after.busy - before.busy) / (after.total - before.total);
}

/**
 * With --wait-idle PCT: waits (up to 10 minutes) until the machine's CPU was under PCT % busy
 * for 3 s in a row before a run, so that other work on a shared machine falls outside it.
 */
async function waitIdle() {
  if (WAIT_IDLE <= 0) return undefined;
  const until = performance.now() + 600_000;
  for (;;) {
    const before = machineTicks();
    await new Promise((r) => setTimeout(r, 3_000));
    const share = busyShare(before, machineTicks());
    if (share === undefined || share * 100 < WAIT_IDLE || performance.now() > until) return share;
  }
}

const CLOCK_TICKS = (() => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK']).toString().trim()) || 100;
  } catch {
    return 100;
  }
})();

/**
 * While a crawl runs, every PROBE_MS: each server's page counter (when each instance finished
 * its first page of the crawl, in seconds from `t0`), the requests open on the site and, on
 * Redis, the crawl's BullMQ queue (entries waiting, delayed, active): whether the fleet's
 * slots are short of work or hold it without fetching. `setJob(id)` once the job exists;
 * `stop()` ends it and sums it up.
 */
function probeCrawl(servers, before, t0, site, redisClient, prefix) {
  const joined = servers.map(() => undefined);
  /** @type {{ at: number; open: number; waiting?: number; delayed?: number; active?: number; gate?: number }[]} */
  const samples = [];
  let jobId;
  let stopped = false;
  const queueDepth = async () => {
    if (!redisClient || jobId === undefined) return {};
    const key = `${prefix}bq:crawl-${jobId}`;
    const [[, wait], [, prioritized], [, delayed], [, active], [, gate]] = await redisClient
      .multi()
      .llen(`${key}:wait`)
      .zcard(`${key}:prioritized`)
      .zcard(`${key}:delayed`)
      .llen(`${key}:active`)
      // The fleet's slots of the site's host (store/redis/redis-host-gate.ts): pages between the gate and their release.
      .zcard(`${prefix}host-slots:${new URL(site.origin).host}`)
      .exec();
    return {
      waiting: Number(wait) + Number(prioritized),
      delayed: Number(delayed),
      active: Number(active),
      gate: Number(gate),
    };
  };
  const loop = (async () => {
    while (!stopped && PROBE_MS > 0) {
      const [counts, depth] = await Promise.all([
        Promise.all(servers.map(pagesFetched)),
        queueDepth().catch(() => ({})),
      ]);
      const at = (performance.now() - t0) / 1000;
      counts.forEach((n, i) => {
        if (joined[i] === undefined && n !== undefined && before[i] !== undefined && n > before[i]) joined[i] = at;
      });
      samples.push({ at, open: site.stats().open, ...depth });
      await new Promise((r) => setTimeout(r, PROBE_MS));
    }
  })();
  const mean = (/** @type {number[]} */ xs) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : undefined);
  return {
    setJob: (/** @type {string} */ id) => (jobId = id),
    stop: async () => {
      stopped = true;
      await loop;
      // The samples once the crawl fetches (its first page answered) until its last.
      const busy = samples.filter((x) => x.open > 0 || (x.active ?? 0) > 0);
      const queued = busy.filter((x) => x.waiting !== undefined);
      return {
        joined_s: joined,
        samples: samples.length,
        mean_open_sampled: mean(busy.map((x) => x.open)),
        ...(queued.length
          ? {
              queue_mean_active: mean(queued.map((x) => x.active)),
              queue_mean_waiting: mean(queued.map((x) => x.waiting)),
              queue_mean_delayed: mean(queued.map((x) => x.delayed)),
              host_gate_mean_holders: mean(queued.map((x) => x.gate)),
              // Samples with nothing waiting on the queue while the crawl ran: its workers were short of work.
              queue_empty_share: queued.filter((x) => x.waiting === 0).length / queued.length,
            }
          : {}),
      };
    },
  };
}

/** The crawl's timeline as the site saw it, in seconds from the POST. */
function timelineFigures(timeline, t0, doneSeconds) {
  const answered = timeline
    .map((e) => (e.answered - t0) / 1000)
    .filter((x) => Number.isFinite(x))
    .sort((a, b) => a - b);
  const n = answered.length;
  if (n === 0) return {};
  const at = (/** @type {number} */ q) => answered[Math.min(n - 1, Math.floor(q * n))];
  const t10 = at(0.1);
  const t90 = at(0.9);
  return {
    first_request_s: Math.min(...timeline.map((e) => (e.at - t0) / 1000)),
    last_answer_s: answered[n - 1],
    // Pages answered per second between the 10th and the 90th percentile of the answers: the rate once started.
    steady_pages_per_s: t90 > t10 ? (0.8 * n) / (t90 - t10) : undefined,
    // From the last page answered to the job seen done.
    tail_s: doneSeconds - answered[n - 1],
    // Page requests open on the site on average, from the POST to done (at most min(instances x 8, 24)).
    mean_open_requests:
      timeline.reduce((sum, e) => sum + (Number.isFinite(e.answered) ? e.answered - e.at : 0), 0) /
      (doneSeconds * 1000),
    // The site's own time per page (its latency, plus its event loop's delay).
    mean_answer_ms:
      timeline.reduce((sum, e) => sum + (Number.isFinite(e.answered) ? e.answered - e.at : 0), 0) / Math.max(1, n),
  };
}

// ---------------------------------------------------------------------------------------------
// One crawl

/**
 * Starts a crawl on the first server and waits for `status: done`, polling every server with
 * wait_ms (the first that sees it ends the wait: an instance whose run finished the job is
 * told at once, the others look again each second). Throws, with every server's last
 * answer, past the deadline.
 * @param {{ url: string; name: string }[]} servers
 */
async function crawlUntilDone(servers, body, headers, deadline, onStarted = () => undefined) {
  const t0 = performance.now();
  const started = await call(servers[0], 'POST', '/api/site-crawls', { ...body, wait_ms: 0 }, headers);
  onStarted(started.id);
  const controller = new AbortController();
  /** @type {Record<string, unknown>} */
  const last = {};
  const pollers = servers.map(async (server) => {
    for (;;) {
      if (performance.now() > deadline) throw new Error(`${server.name}: past the deadline`);
      const status = await call(
        server,
        'GET',
        `/api/site-crawls/${started.id}?limit=1&cursor=999999999&wait_ms=5000`,
        undefined,
        headers,
        controller.signal,
      );
      last[server.name] = { status: status.status, stop_reason: status.stop_reason, progress: status.progress };
      if (status.status === 'done') return { status, at: performance.now(), seenBy: server.name };
    }
  });
  try {
    const first = await Promise.any(pollers);
    return { id: started.id, t0, seconds: (first.at - t0) / 1000, seenBy: first.seenBy, status: first.status };
  } catch (err) {
    const reasons = err instanceof AggregateError ? err.errors.map((e) => String(e?.message ?? e)) : [String(err)];
    const error = new Error(
      `the crawl ${started.id} did not end: ${reasons.join('; ')}; last answers: ${JSON.stringify(last)}`,
    );
    error.lastStatuses = last;
    throw error;
  } finally {
    controller.abort();
    await Promise.allSettled(pollers);
  }
}

/** Every result of a finished job, by cursor. */
async function readAll(server, id, headers) {
  const pages = [];
  let cursor = '0';
  for (;;) {
    const answer = await call(server, 'GET', `/api/site-crawls/${id}?limit=100&cursor=${cursor}`, undefined, headers);
    pages.push(...answer.pages);
    if (answer.next_cursor === undefined) return { pages, status: answer };
    cursor = answer.next_cursor;
  }
}

/**
 * One configuration once: fresh servers, a warm-up crawl, the timed crawl, its checks.
 * @param {(typeof CONFIGS)[number]} config @param {number} round
 */
async function runOnce(config, round, site, redis, redisClient) {
  const tag = `fb${process.pid}-r${round}-${config.key}`;
  /** @type {Record<string, string>} */
  let storeEnv;
  let tmpDir;
  if (config.store === 'redis')
    storeEnv = { WEBSEARCH_STORE: 'redis', REDIS_URL: redis.url, WEBSEARCH_REDIS_PREFIX: `${tag}:` };
  else if (values.metered) {
    tmpDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fleet-bench-'));
    storeEnv = { WEBSEARCH_STORE: 'sqlite', WEBSEARCH_STORE_PATH: path.join(tmpDir, 'store.db') };
  } else storeEnv = { WEBSEARCH_STORE: 'sqlite', WEBSEARCH_STORE_PATH: ':memory:' };
  const env = (/** @type {string} */ instance) => ({ ...COMMON_ENV, ...storeEnv, WEBSEARCH_INSTANCE_ID: instance });
  /** @type {Awaited<ReturnType<typeof serve>>[]} */
  let servers = [];
  const record = { config: config.key, round, instances: config.instances };
  try {
    /** @type {Record<string, string>} */
    let headers = {};
    if (values.metered) {
      const secret = await runCli(['keys', 'create', '--name', tag, '--credits', '1000000'], env(`${tag}-cli`));
      headers = { authorization: `Bearer ${secret}` };
    }
    const started = await Promise.allSettled(
      Array.from({ length: config.instances }, (_, i) => serve(env(`${tag}-${i + 1}`), `${config.key}#${i + 1}`)),
    );
    servers = started.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
    const refused = started.find((s) => s.status === 'rejected');
    if (refused) throw refused.reason;

    const body = {
      url: site.origin,
      max_depth: 20,
      use_sitemap: values.sitemap,
      max_chars: 100,
    };
    if (WARMUP > 0) await crawlUntilDone(servers, { ...body, limit: WARMUP }, headers, performance.now() + TIMEOUT_MS);

    record.idle_before = await waitIdle();
    const before = await Promise.all(servers.map(pagesFetched));
    site.resetStats();
    const cpuBefore = servers.map((sv) => cpuSeconds(sv.pid));
    const redisCpuBefore = redis && config.store === 'redis' ? cpuSeconds(redis.pid) : undefined;
    const benchCpuBefore = process.cpuUsage();
    const machineBefore = machineTicks();
    const probe = probeCrawl(
      servers,
      before,
      performance.now(),
      site,
      config.store === 'redis' ? redisClient : undefined,
      storeEnv.WEBSEARCH_REDIS_PREFIX,
    );
    let crawl;
    try {
      crawl = await crawlUntilDone(servers, { ...body, limit: PAGES }, headers, performance.now() + TIMEOUT_MS, (id) =>
        probe.setJob(id),
      );
    } finally {
      Object.assign(record, await probe.stop());
    }
    const siteStats = site.stats();
    const cpuAfter = servers.map((sv) => cpuSeconds(sv.pid));
    const redisCpuAfter = redisCpuBefore === undefined ? undefined : cpuSeconds(redis.pid);
    const benchCpu = process.cpuUsage(benchCpuBefore);
    const machineBusy = busyShare(machineBefore, machineTicks());
    const after = await Promise.all(servers.map(pagesFetched));
    const { pages, status } = await readAll(servers[0], crawl.id, headers);
    const urls = pages.map((p) => p.url);
    const distinct = new Set(urls).size;
    const serverSeconds =
      status.finished_at && status.created_at
        ? (Date.parse(status.finished_at) - Date.parse(status.created_at)) / 1000
        : undefined;
    const problems = [];
    if (pages.length !== PAGES) problems.push(`${pages.length} pages delivered, not ${PAGES}`);
    if (distinct !== pages.length) problems.push(`${pages.length - distinct} URLs delivered twice or more`);
    if (status.stop_reason !== 'limit') problems.push(`stop_reason ${status.stop_reason}, not limit`);
    if (status.error) problems.push(`error ${JSON.stringify(status.error)}`);
    Object.assign(record, {
      ok: problems.length === 0,
      problems,
      seconds: crawl.seconds,
      server_seconds: serverSeconds,
      pages: pages.length,
      distinct_urls: distinct,
      pages_per_s: pages.length / crawl.seconds,
      stop_reason: status.stop_reason,
      succeeded: status.progress.succeeded,
      failed: status.progress.failed,
      duplicates: status.progress.duplicates,
      done_seen_by: crawl.seenBy,
      // Pages each instance fetched during the timed crawl (its websearch_pages_total).
      pages_by_instance: servers.map((s, i) =>
        before[i] === undefined || after[i] === undefined ? null : after[i] - before[i],
      ),
      // CPU seconds during the timed crawl: each instance, redis-server, this process (the site, the polling).
      cpu_s_by_instance: servers.map((_, i) =>
        cpuBefore[i] === undefined || cpuAfter[i] === undefined ? null : cpuAfter[i] - cpuBefore[i],
      ),
      cpu_s_redis:
        redisCpuBefore === undefined || redisCpuAfter === undefined ? undefined : redisCpuAfter - redisCpuBefore,
      cpu_s_bench: (benchCpu.user + benchCpu.system) / 1e6,
      ...timelineFigures(siteStats.timeline, crawl.t0, crawl.seconds),
      site_page_requests: siteStats.pageRequests,
      site_pages_refetched: siteStats.refetched,
      site_max_concurrent: siteStats.maxConcurrent,
    });
    const serverCpu = record.cpu_s_by_instance.every((x) => x !== null)
      ? record.cpu_s_by_instance.reduce((a, b) => a + b, 0)
      : undefined;
    if (serverCpu !== undefined) {
      // The servers' CPU per delivered page, and how busy the whole machine was (servers, redis-server, the site).
      record.cpu_ms_per_page = (serverCpu * 1000) / pages.length;
      record.machine_cpu_busy =
        (serverCpu + (record.cpu_s_redis ?? 0) + record.cpu_s_bench) / (crawl.seconds * os.cpus().length);
    }
    // The whole machine's CPU during the crawl, and what other processes than the bench's took of it.
    record.system_cpu_busy = machineBusy;
    if (machineBusy !== undefined && record.machine_cpu_busy !== undefined)
      record.others_cpu_busy = Math.max(0, machineBusy - record.machine_cpu_busy);
  } catch (err) {
    Object.assign(record, {
      ok: false,
      problems: [String(err?.message ?? err)],
      ...(err?.lastStatuses ? { last_statuses: err.lastStatuses } : {}),
    });
  } finally {
    await Promise.all(servers.map((s) => s.stop()));
    // Whatever a server wrote to stderr (its log level is silent: a crash, a warning of Node's).
    const logs = Object.fromEntries(servers.filter((s) => s.log.text.trim() !== '').map((s) => [s.name, s.log.text]));
    for (const [name, text] of Object.entries(logs)) {
      const rest = text
        .split('\n')
        .filter((line) => !/^websearch-mcp listening on |^store: .*; rendering: /.test(line))
        .join('\n')
        .trim();
      if (rest) record.stderr = { ...record.stderr, [name]: rest.slice(-8_000) };
    }
    if (tmpDir) fs.rmSync(tmpDir, { recursive: true, force: true });
  }
  return record;
}

// ---------------------------------------------------------------------------------------------
// Figures

/** @param {number[]} xs */
function median(xs) {
  if (xs.length === 0) return undefined;
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
}

const fmt = (/** @type {number | undefined} */ n, digits = 1) => (n === undefined ? 'n/a' : n.toFixed(digits));

function summarize(records) {
  /** @type {Record<string, any>} */
  const byConfig = {};
  for (const config of CONFIGS) {
    const runs = records.filter((r) => r.config === config.key);
    const good = runs.filter((r) => r.ok);
    byConfig[config.key] = {
      label: config.label,
      store: config.store,
      instances: config.instances,
      runs: runs.length,
      runs_ok: good.length,
      pages_per_s: median(good.map((r) => r.pages_per_s)),
      seconds: median(good.map((r) => r.seconds)),
      server_seconds: median(good.filter((r) => r.server_seconds !== undefined).map((r) => r.server_seconds)),
      runs_pages_per_s: runs.map((r) => (r.ok ? r.pages_per_s : null)),
      steady_pages_per_s: median(
        good.filter((r) => r.steady_pages_per_s !== undefined).map((r) => r.steady_pages_per_s),
      ),
      tail_s: median(good.filter((r) => r.tail_s !== undefined).map((r) => r.tail_s)),
      first_request_s: median(good.filter((r) => r.first_request_s !== undefined).map((r) => r.first_request_s)),
      mean_open_requests: median(
        good.filter((r) => r.mean_open_requests !== undefined).map((r) => r.mean_open_requests),
      ),
      cpu_ms_per_page: median(good.filter((r) => r.cpu_ms_per_page !== undefined).map((r) => r.cpu_ms_per_page)),
      machine_cpu_busy: median(good.filter((r) => r.machine_cpu_busy !== undefined).map((r) => r.machine_cpu_busy)),
      queue_mean_active: median(good.filter((r) => r.queue_mean_active !== undefined).map((r) => r.queue_mean_active)),
      host_gate_mean_holders: median(
        good.filter((r) => r.host_gate_mean_holders !== undefined).map((r) => r.host_gate_mean_holders),
      ),
      others_cpu_busy: median(good.filter((r) => r.others_cpu_busy !== undefined).map((r) => r.others_cpu_busy)),
    };
  }
  const sqliteOne = byConfig['sqlite-one']?.pages_per_s;
  const redisOne = byConfig['redis-one']?.pages_per_s;
  const redisMany = byConfig['redis-many']?.pages_per_s;
  return {
    configs: byConfig,
    ratio_many_over_one_redis: redisOne && redisMany ? redisMany / redisOne : undefined,
    queue_overhead_ms_per_page: redisOne && sqliteOne ? (1 / redisOne - 1 / sqliteOne) * IN_FLIGHT * 1000 : undefined,
    slot_ms_per_page: Object.fromEntries(
      Object.entries(byConfig).map(([k, c]) => [
        k,
        c.pages_per_s ? (IN_FLIGHT * c.instances * 1000) / c.pages_per_s : undefined,
      ]),
    ),
  };
}

function markdown(summary, machine) {
  const lines = [
    `Site crawl of ${PAGES} pages (tree site on loopback, ${SITE_PAGES} pages, every answer after ${LATENCY_MS} ms, ` +
      `use_sitemap ${values.sitemap}${values.metered ? ', with an API key' : ', open mode'}); ` +
      `WEBSEARCH_FETCH_PER_HOST=${PER_HOST}, WEBSEARCH_SITE_PAGES_IN_FLIGHT=${IN_FLIGHT}, cache off; ` +
      `medians of ${RUNS} runs, configurations alternated.`,
    '',
    '| Configuration | Instances | pages/s (median) | pages/s per run | s, POST to done (median) | steady pages/s | CPU ms/page | exactly --pages distinct URLs |',
    '| --- | ---: | ---: | --- | ---: | ---: | ---: | --- |',
  ];
  const pct = (/** @type {number | undefined} */ x) => (x === undefined ? 'n/a' : `${fmt(100 * x, 0)}%`);
  for (const c of Object.values(summary.configs))
    lines.push(
      `| ${c.label} | ${c.instances} | **${fmt(c.pages_per_s)}** | ${c.runs_pages_per_s
        .map((x) => (x === null ? 'failed' : fmt(x)))
        .join(
          ', ',
        )} | ${fmt(c.seconds, 2)} | ${fmt(c.steady_pages_per_s)} | ${fmt(c.cpu_ms_per_page)} | ${c.runs_ok}/${c.runs} runs |`,
    );
  lines.push(
    '',
    'Where the slots went (medians of the runs; the queue and the host gate sampled every ' +
      `${PROBE_MS} ms from Redis):`,
    '',
    "| Configuration | page slots | requests open on the site | BullMQ entries active | host-gate slots held | tail: last page to done, s | CPU: the bench's processes | CPU: other processes |",
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
  );
  for (const c of Object.values(summary.configs))
    lines.push(
      `| ${c.label} | ${Math.min(PER_HOST, c.instances * IN_FLIGHT)} | ${fmt(c.mean_open_requests)} | ${fmt(c.queue_mean_active)} | ` +
        `${fmt(c.host_gate_mean_holders)} | ${fmt(c.tail_s, 2)} | ${pct(c.machine_cpu_busy)} | ${pct(c.others_cpu_busy)} |`,
    );
  lines.push(
    '',
    `- ${INSTANCES} instances / one instance, on Redis: **${fmt(summary.ratio_many_over_one_redis, 2)}×** ` +
      `(at most ${fmt(Math.min(PER_HOST, INSTANCES * IN_FLIGHT) / IN_FLIGHT, 0)}× : ${INSTANCES} × ${IN_FLIGHT} pages in flight, ${PER_HOST} per host).`,
    `- The shared queue's overhead per page, against the single-process adapter: **${fmt(summary.queue_overhead_ms_per_page)} ms** ` +
      `= (1/pps_redis_one − 1/pps_sqlite_one) × ${IN_FLIGHT} × 1000: with ${IN_FLIGHT} slots kept busy, a page holds its slot ` +
      `${IN_FLIGHT}/pps seconds (${LATENCY_MS} ms of the site's latency, extraction, store writes, the hand-off to the next page); ` +
      `the difference is what the BullMQ queue, the Redis store and the fleet's host gate add to each page.`,
    `- steady pages/s: pages answered by the site between the 10th and the 90th percentile of its answers, per second ` +
      `(without the start and the end of the crawl); CPU ms/page: the servers' CPU time (user + system) per delivered page; ` +
      `requests open on the site: the site's answer times summed over the crawl's wall time; tail: from the site's last ` +
      `answer to done (below 0 when pages past the limit, fetched but not delivered, were still being answered); CPU: the share of the ` +
      `machine (${cpus.length} CPUs) the servers, redis-server and the site took during the crawl, and what other processes took (/proc/stat).`,
    `- Machine: ${machine.summary}.`,
  );
  const busy = Object.values(summary.configs).filter((c) => (c.others_cpu_busy ?? 0) > 0.1);
  if (busy.length)
    lines.push(
      `- **Other processes took more than 10% of the machine's CPU during ${busy.map((c) => c.label).join(', ')}: ` +
        'those figures measure a shared machine, not the crawler (try --wait-idle 15).**',
    );
  return lines.join('\n');
}

// ---------------------------------------------------------------------------------------------
// Main

/** When dist/ was built, by its newest file: a build during the bench (another checkout's work) would mix two versions. */
function distBuiltAt() {
  let newest = 0;
  const walk = (/** @type {string} */ dir) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const file = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(file);
      else if (entry.name.endsWith('.js')) newest = Math.max(newest, fs.statSync(file).mtimeMs);
    }
  };
  walk(path.dirname(CLI));
  return new Date(newest).toISOString();
}

const cpus = os.cpus();
let exitCode = 0;
try {
  if (!fs.existsSync(CLI)) throw new Error(`${CLI} is missing: npm run build first`);
  const builtAt = distBuiltAt();
  const needsRedis = CONFIGS.some((c) => c.store === 'redis');
  const redis = needsRedis ? await startRedis() : undefined;
  if (redis) cleanups.push(() => redis.stop());
  // The bench's own connection, to read the crawl queue's depth while it runs.
  const redisClient = redis ? new Redis(redis.url, { maxRetriesPerRequest: 1, lazyConnect: false }) : undefined;
  if (redisClient) {
    redisClient.on('error', () => undefined);
    cleanups.push(async () => void redisClient.disconnect());
  }
  const site = await startTreeSite({ pages: SITE_PAGES, fanout: FANOUT, latencyMs: LATENCY_MS });
  cleanups.push(() => site.close());
  const machine = {
    cpu: cpus[0]?.model ?? 'unknown',
    cpus: cpus.length,
    memory_gib: Math.round((os.totalmem() / 2 ** 30) * 10) / 10,
    node: process.version,
    os: `${os.platform()} ${os.release()}`,
    redis: redis?.version,
    dist_built_at: builtAt,
  };
  machine.dist = CLI;
  machine.summary = `${machine.cpu} × ${machine.cpus}, ${machine.memory_gib} GiB, Node ${machine.node}, ${machine.os}${redis ? `, redis-server ${redis.version}` : ''}`;
  console.log(`machine: ${machine.summary}; dist built ${builtAt}`);
  console.log(
    `site ${site.origin}: ${SITE_PAGES} pages, fanout ${FANOUT}, ${LATENCY_MS} ms per answer; ${redis ? `redis ${redis.url}; ` : ''}` +
      `${PAGES} pages per crawl, ${RUNS} rounds, warm-up ${WARMUP} pages`,
  );
  console.log(
    `ideal (the latency alone): ${fmt((1000 * IN_FLIGHT) / Math.max(1, LATENCY_MS))} pages/s per instance, ` +
      `${fmt((1000 * Math.min(PER_HOST, INSTANCES * IN_FLIGHT)) / Math.max(1, LATENCY_MS))} for ${INSTANCES}`,
  );

  const records = [];
  /** Runs set aside by --max-others (kept in the JSON). */
  const discarded = [];
  for (let round = 1; round <= RUNS; round++) {
    // The order rotates each round, so that a drift of the machine falls on every configuration.
    const order = CONFIGS.map((_, i) => CONFIGS[(i + round - 1) % CONFIGS.length]);
    for (const config of order) {
      let record = await runOnce(config, round, site, redis, redisClient);
      // A run during which other processes took more than --max-others % of the CPU is run again (twice at most).
      for (let retry = 0; retry < 2 && record.ok && (record.others_cpu_busy ?? 0) * 100 > MAX_OTHERS; retry++) {
        console.log(
          `round ${round} ${config.key.padEnd(10)} ${fmt(record.pages_per_s).padStart(6)} pages/s, but other processes took ` +
            `${fmt(100 * record.others_cpu_busy, 0)}% of the CPU (over --max-others ${MAX_OTHERS}): again`,
        );
        discarded.push(record);
        record = await runOnce(config, round, site, redis, redisClient);
      }
      records.push(record);
      if (record.ok)
        console.log(
          `round ${round} ${config.key.padEnd(10)} ${fmt(record.pages_per_s).padStart(6)} pages/s  ` +
            `${fmt(record.seconds, 2)} s (server ${fmt(record.server_seconds, 2)} s)  ` +
            `${record.distinct_urls}/${record.pages} distinct, stop ${record.stop_reason}, ` +
            `ok ${record.succeeded} failed ${record.failed} dup ${record.duplicates}; ` +
            `by instance ${JSON.stringify(record.pages_by_instance)}; site: ${record.site_page_requests} page requests, ` +
            `${record.site_pages_refetched} refetched, at most ${record.site_max_concurrent} at once; done seen by ${record.done_seen_by}`,
        );
      if (record.ok)
        console.log(
          `${' '.repeat(20)}timeline: first page requested at ${fmt(record.first_request_s, 2)} s, ` +
            `${fmt(record.mean_open_requests)} requests open on the site on average (answered in ${fmt(record.mean_answer_ms)} ms), ` +
            `instances' first page done at ${JSON.stringify(record.joined_s?.map((x) => (x === undefined ? null : Number(x.toFixed(2)))))} s, ` +
            `steady ${fmt(record.steady_pages_per_s)} pages/s (10th to 90th percentile of answers), last page answered at ` +
            `${fmt(record.last_answer_s, 2)} s, done seen ${fmt(record.tail_s, 2)} s later; CPU ${fmt(record.cpu_ms_per_page)} ms/page ` +
            `(servers ${JSON.stringify(record.cpu_s_by_instance?.map((x) => (x === null ? null : Number(x.toFixed(2)))))} s, ` +
            `redis ${fmt(record.cpu_s_redis, 2)} s, site+bench ${fmt(record.cpu_s_bench, 2)} s), bench's processes ${fmt(100 * (record.machine_cpu_busy ?? NaN), 0)}% of the machine, ` +
            `other processes ${fmt(100 * (record.others_cpu_busy ?? NaN), 0)}%` +
            (record.queue_mean_active !== undefined
              ? `; queue (sampled every ${PROBE_MS} ms): ${fmt(record.queue_mean_active)} active, ${fmt(record.queue_mean_waiting)} waiting, ` +
                `${fmt(record.queue_mean_delayed)} delayed on average, nothing waiting in ${fmt(100 * record.queue_empty_share, 0)}% of samples; ` +
                `host gate: ${fmt(record.host_gate_mean_holders)} slots held on average; ${fmt(record.mean_open_sampled)} requests open (same samples)`
              : ''),
        );
      else {
        exitCode = 1;
        console.log(`round ${round} ${config.key.padEnd(10)} FAILED: ${record.problems.join('; ')}`);
        if (record.seconds !== undefined)
          console.log(`  ${fmt(record.seconds, 2)} s, ${record.pages} pages, ${record.distinct_urls} distinct`);
      }
      if (record.stderr)
        for (const [name, text] of Object.entries(record.stderr))
          console.log(`  stderr of ${name}:\n${text.replace(/^/gm, '    ')}`);
    }
  }

  const summary = summarize(records);
  const builtAtEnd = distBuiltAt();
  if (builtAtEnd !== builtAt) {
    exitCode = 1;
    machine.dist_rebuilt_at = builtAtEnd;
    console.log(
      `\nWARNING: dist/ was rebuilt during the bench (${builtAt} -> ${builtAtEnd}): the runs may mix two versions.`,
    );
  }
  console.log('');
  for (const c of Object.values(summary.configs))
    console.log(
      `${c.label.padEnd(34)} ${fmt(c.pages_per_s).padStart(6)} pages/s (median of ${c.runs_ok}/${c.runs}), ${fmt(c.seconds, 2)} s`,
    );
  console.log(`ratio ${INSTANCES}/1 on Redis: ${fmt(summary.ratio_many_over_one_redis, 2)}`);
  console.log(
    `queue overhead per page: ${fmt(summary.queue_overhead_ms_per_page)} ms ` +
      `= (1/pps_redis_one - 1/pps_sqlite_one) x pagesInFlight (${IN_FLIGHT}) x 1000, ` +
      `the extra time each page holds its slot on the shared queue; slot time per page: ` +
      Object.entries(summary.slot_ms_per_page)
        .map(([k, v]) => `${k} ${fmt(v)} ms`)
        .join(', '),
  );
  console.log(
    `every run delivered exactly ${PAGES} distinct URLs: ${records.every((r) => r.ok && r.distinct_urls === PAGES) ? 'yes' : 'NO'}`,
  );
  console.log('\n' + markdown(summary, machine) + '\n');
  if (values.json) {
    const figures = {
      machine,
      settings: {
        pages: PAGES,
        runs: RUNS,
        instances: INSTANCES,
        site_pages: SITE_PAGES,
        fanout: FANOUT,
        latency_ms: LATENCY_MS,
        warmup_pages: WARMUP,
        use_sitemap: values.sitemap,
        wait_idle_pct: WAIT_IDLE,
        max_others_pct: MAX_OTHERS,
        metered: values.metered,
        per_host: PER_HOST,
        pages_in_flight: IN_FLIGHT,
      },
      ...summary,
      records,
      discarded,
    };
    fs.writeFileSync(values.json, `${JSON.stringify(figures, null, 2)}\n`);
    console.log(`figures written to ${values.json}`);
  }
} catch (err) {
  exitCode = 1;
  console.error(err);
} finally {
  await cleanup();
}
process.exit(exitCode);
