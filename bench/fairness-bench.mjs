#!/usr/bin/env node
// Fairness benchmark: what one hostile key can take from the others (the built code in
// dist/, and with --baseline the same scenarios on another build, in the same run).
//  - selectors: a limited key sends two requests of 10 URLs of a deep page, each with 20
//    backtracking include_selectors and timeout_ms 60000 (once with selectors past the
//    validation limits, once within them); meanwhile another key crawls a plain article
//    once a second and GET /healthz runs every 20 ms;
//  - passages: the hostile key caches ten 3 MB pages, then asks for passages of all ten,
//    four requests at a time, again and again; the same probes run meanwhile;
//  - pool: pages/s of the conversion pool on the quality gate's dev pages (--data), the
//    build's pool against the baseline's, in alternating turns (needs --baseline).
// For each scenario: /healthz p50/p99/max, the other key's crawls (succeeded / sent, and
// their slowest), the hostile requests' answers, and the credits the hostile key was charged.
// Every request goes to 127.0.0.1; every loop is bounded in time.
//
//   npm run build && node bench/fairness-bench.mjs [--baseline DIR] [--data DIR] [--seconds N] [--json FILE]
//
//   --baseline DIR   another build's dist/ (e.g. of the previous commit) measured in the same run
//   --data DIR       folder of the dev splits for the pool part (default: env BENCH_DATA, else
//                    ../shared/bench/extraction beside the project; skipped when missing)
//   --seconds N      seconds each attack runs (default 20)
//   --json FILE      write every figure to FILE
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { UsageError, commandLine, helpText, listPages, readBytes } from './dev-pages.mjs';
import { serveSelf, spawnSelfServer } from './spawn-self-server.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const SELF = fileURLToPath(import.meta.url);
const HEALTH_EVERY_MS = 20;
const VICTIM_EVERY_MS = 1_000;

// ------------------------------------------------------------------------------ fixtures

/** A ~50 KB article: the other key's plain crawl. */
function articleHtml() {
  const paragraphs = Array.from(
    { length: 300 },
    (_, i) =>
      `${i % 12 === 0 ? `<h2>Part ${i / 12 + 1}</h2>` : ''}<p>Paragraph ${i} of the article tells of harbours and tides, with a <a href="/ref/${i}">reference</a> and a figure of ${i * 7} metres.</p>`,
  ).join('\n');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Tides</title></head><body><main><article><h1>Tides</h1>${paragraphs}</article></main></body></html>`;
}

/** 200 nested <div>s with a paragraph at each level: right-to-left matching of `x div div ... p` backtracks. */
function deepHtml() {
  const depth = 200;
  const open = Array.from({ length: depth }, (_, i) => `<div class="d${i % 7}"><p>Level ${i} text of the page.</p>`);
  return `<!doctype html><html><head><title>Deep</title></head><body>${open.join('')}${'</div>'.repeat(depth)}</body></html>`;
}

/** A 3 MB article of distinct paragraphs (the cached pages of the passages attack). */
function bigHtml(n) {
  const words = ['harbour', 'tide', 'current', 'pilot', 'channel', 'buoy', 'estuary', 'ferry', 'dredge', 'quay'];
  const parts = [];
  let size = 0;
  for (let i = 0; size < 3 * 1024 * 1024; i++) {
    const p = `${i % 40 === 0 ? `<h2>Chapter ${i / 40 + 1}</h2>` : ''}<p>Page ${n}, paragraph ${i}: the ${words[i % 10]} near the ${words[(i * 7) % 10]} was measured at ${i % 97} metres after the ${words[(i * 3) % 10]} report of year ${1900 + (i % 120)}.</p>`;
    parts.push(p);
    size += p.length;
  }
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Big ${n}</title></head><body><article><h1>Big ${n}</h1>${parts.join('\n')}</article></body></html>`;
}

function startFixture() {
  const article = Buffer.from(articleHtml());
  const deep = Buffer.from(deepHtml());
  const big = Array.from({ length: 10 }, (_, n) => Buffer.from(bigHtml(n)));
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const bigMatch = /^\/big\/(\d)$/.exec(url.pathname);
    const body =
      url.pathname === '/robots.txt'
        ? Buffer.from('User-agent: *\nAllow: /\n')
        : url.pathname === '/article'
          ? article
          : url.pathname === '/deep'
            ? deep
            : bigMatch
              ? big[Number(bigMatch[1])]
              : undefined;
    if (body === undefined) {
      res.writeHead(404, { 'content-type': 'text/plain' });
      res.end('not found');
      return;
    }
    const type = url.pathname === '/robots.txt' ? 'text/plain' : 'text/html; charset=utf-8';
    res.writeHead(200, { 'content-type': type, 'content-length': String(body.length) });
    res.end(body);
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({ url: `http://127.0.0.1:${server.address().port}`, close: () => server.close() }),
    ),
  );
}

// ------------------------------------------------------------------------------ servers

/** `--serve DIST STORE`: this file as the server process, the build in DIST over the SQLite file STORE. */
function serve(dist, storePath) {
  const overrides = {
    server: { port: 0 },
    fetch: { allowPrivateAddresses: true, perHostConcurrency: 64 },
    auth: { rateLimitRequests: 0 },
    store: { path: storePath },
    log: { level: 'silent' },
  };
  return serveSelf(overrides, {}, dist);
}

function createKey(dist, storePath, name, credits) {
  const args = [path.join(dist, 'cli.js'), 'keys', 'create', '--name', name, '--json'];
  if (credits !== undefined) args.push('--credits', String(credits));
  const out = execFileSync(process.execPath, args, {
    env: { ...process.env, WEBSEARCH_STORE_PATH: storePath },
    encoding: 'utf8',
  });
  return JSON.parse(out);
}

/** A server of the build in `dist` on a fresh store with two keys: the hostile one (limited) and another. */
async function startServer(dist, label) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fairness-'));
  const storePath = path.join(dir, 'store.db');
  const hostile = createKey(dist, storePath, 'hostile', 1_000_000);
  const other = createKey(dist, storePath, 'other');
  const server = await spawnSelfServer(SELF, [dist, storePath], `server (${label})`);
  return {
    url: server.url,
    label,
    hostileKey: hostile.key,
    otherKey: other.key,
    stop: async () => {
      await server.stop();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

// ------------------------------------------------------------------------------ measures

async function post(server, key, route, body, signal) {
  const res = await fetch(`${server.url}${route}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
    body: JSON.stringify(body),
    ...(signal ? { signal } : {}),
  });
  return { status: res.status, json: await res.json().catch(() => null) };
}

async function balance(server, key) {
  const res = await fetch(`${server.url}/api/usage`, { headers: { authorization: `Bearer ${key}` } });
  const json = await res.json();
  return json.balance ?? json.credits?.balance ?? null;
}

const percentile = (values, p) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? NaN;
};

/** /healthz every 20 ms and the other key's plain crawl every second until `stop` aborts. */
function probes(server, fixture, stop) {
  const health = [];
  const victim = [];
  const healthLoop = (async () => {
    while (!stop.aborted) {
      const started = performance.now();
      try {
        await (await fetch(`${server.url}/healthz`)).arrayBuffer();
        health.push(performance.now() - started);
      } catch {
        health.push(Infinity);
      }
      await new Promise((r) => setTimeout(r, HEALTH_EVERY_MS));
    }
  })();
  const victimLoop = (async () => {
    const inFlight = [];
    while (!stop.aborted) {
      inFlight.push(
        (async () => {
          const started = performance.now();
          const { json } = await post(server, server.otherKey, '/api/crawl', {
            urls: [`${fixture.url}/article?n=${Math.random()}`],
          }).catch(() => ({ json: null }));
          const result = json?.results?.[0];
          victim.push({ ok: result?.success === true, error: result?.error_type, ms: performance.now() - started });
        })(),
      );
      await new Promise((r) => setTimeout(r, VICTIM_EVERY_MS));
    }
    await Promise.all(inFlight);
  })();
  return async () => {
    await Promise.all([healthLoop, victimLoop]);
    const finite = health.filter(Number.isFinite);
    return {
      healthz: {
        count: health.length,
        failed: health.length - finite.length,
        p50: percentile(finite, 0.5),
        p99: percentile(finite, 0.99),
        max: Math.max(...finite),
      },
      other: {
        sent: victim.length,
        ok: victim.filter((v) => v.ok).length,
        errors: [...new Set(victim.filter((v) => !v.ok).map((v) => v.error ?? 'no answer'))],
        slowestMs: Math.max(...victim.map((v) => v.ms)),
      },
    };
  };
}

/** Tallies the hostile requests' outcomes: HTTP status, and each URL's success or error type. */
function tally(answers) {
  const counts = {};
  for (const { status, json } of answers) {
    if (status === 'unfinished') {
      counts['unfinished when the window ended'] = (counts['unfinished when the window ended'] ?? 0) + 1;
      continue;
    }
    if (status !== 200) {
      const key = `HTTP ${status}${json?.error?.type ? ` ${json.error.type}` : ''}`;
      counts[key] = (counts[key] ?? 0) + 1;
      continue;
    }
    for (const r of json?.results ?? []) {
      const key = r.success ? 'page ok' : `page ${r.error_type}`;
      counts[key] = (counts[key] ?? 0) + 1;
    }
  }
  return counts;
}

function selectorsFor(combinators) {
  return Array.from({ length: 20 }, (_, i) => `x${i} ${'div '.repeat(combinators)}p`);
}

/** Two requests of 10 deep URLs with 20 backtracking selectors each, while the probes run. */
async function selectorAttack(server, fixture, seconds, combinators) {
  const before = await balance(server, server.hostileKey);
  const stop = new AbortController();
  const finish = probes(server, fixture, stop.signal);
  const attackStop = new AbortController();
  const body = (r) => ({
    urls: Array.from({ length: 10 }, (_, i) => `${fixture.url}/deep?r=${r}&i=${i}&n=${Math.random()}`),
    include_selectors: selectorsFor(combinators),
    timeout_ms: 60_000,
  });
  const attacks = [0, 1].map((r) =>
    post(server, server.hostileKey, '/api/crawl', body(r), attackStop.signal).catch(() => ({
      status: attackStop.signal.aborted ? 'unfinished' : 0,
      json: null,
    })),
  );
  await new Promise((r) => setTimeout(r, seconds * 1000));
  stop.abort();
  const measured = await finish();
  attackStop.abort();
  const answers = await Promise.all(attacks);
  const after = await balance(server, server.hostileKey);
  return { ...measured, hostile: tally(answers), charged: before !== null && after !== null ? before - after : null };
}

/** The ten big pages cached, then passages of all ten, four requests at a time, for `seconds`. */
async function passagesAttack(server, fixture, seconds) {
  const urls = Array.from({ length: 10 }, (_, n) => `${fixture.url}/big/${n}`);
  const warm = await post(server, server.hostileKey, '/api/crawl', { urls, timeout_ms: 60_000 });
  const cached = (warm.json?.results ?? []).filter((r) => r.success).length;
  const before = await balance(server, server.hostileKey);
  const stop = new AbortController();
  const finish = probes(server, fixture, stop.signal);
  const answers = [];
  const until = performance.now() + seconds * 1000;
  await Promise.all(
    Array.from({ length: 4 }, async () => {
      while (performance.now() < until) {
        answers.push(
          await post(server, server.hostileKey, '/api/crawl', {
            urls,
            query: 'how deep was the channel near the estuary',
            max_passages: 10,
            timeout_ms: 60_000,
          }).catch(() => ({ status: 0, json: null })),
        );
      }
    }),
  );
  stop.abort();
  const measured = await finish();
  const after = await balance(server, server.hostileKey);
  const fromCache = answers.flatMap((a) => a.json?.results ?? []).filter((r) => r.from_cache).length;
  return {
    ...measured,
    cachedPages: cached,
    requests: answers.length,
    fromCache,
    hostile: tally(answers),
    charged: before !== null && after !== null ? before - after : null,
  };
}

/** Pages/s of each build's conversion pool on the dev pages, in alternating turns of the whole set. */
async function poolThroughput(builds, data, rounds = 2) {
  const pages = listPages(data).map((page) => ({
    bytes: readBytes(page.file),
    contentType: 'text/html; charset=utf-8',
    url: page.url,
    format: 'markdown',
    headers: {},
  }));
  const pools = {};
  for (const { label, dist } of builds) {
    const built = (file) => pathToFileURL(path.join(dist, file)).href;
    const [{ ConvertPool }, { loadConfig }, { deadlineIn }, { LOCAL_CALLER }] = await Promise.all([
      import(built('workers/convert-pool.js')),
      import(built('core/config.js')),
      import(built('core/request-context.js')),
      import(built('core/caller.js')),
    ]);
    const config = loadConfig({ env: {}, overrides: { store: { path: ':memory:' } } });
    pools[label] = {
      pool: new ConvertPool(config.convert),
      threads: config.convert.threads,
      ctx: () => ({ ...deadlineIn(120_000), caller: LOCAL_CALLER }),
      ms: 0,
      pages: 0,
      failed: 0,
    };
  }
  const run = async (entry) => {
    let next = 0;
    const started = performance.now();
    await Promise.all(
      Array.from({ length: entry.threads * 2 }, async () => {
        while (next < pages.length) {
          const input = pages[next++];
          await entry.pool.convert({ ...input, bytes: new Uint8Array(input.bytes) }, entry.ctx()).then(
            () => (entry.pages += 1),
            () => (entry.failed += 1),
          );
        }
      }),
    );
    entry.ms += performance.now() - started;
  };
  for (const entry of Object.values(pools)) await run({ ...entry, ms: 0, pages: 0, failed: 0 }); // warm-up
  for (let round = 0; round < rounds; round++) {
    const order = round % 2 === 0 ? Object.keys(pools) : Object.keys(pools).reverse();
    for (const label of order) {
      process.stderr.write(`  pool round ${round + 1}/${rounds}: ${label}\n`);
      await run(pools[label]);
    }
  }
  const figures = {};
  for (const [label, entry] of Object.entries(pools)) {
    await entry.pool.close();
    figures[label] = { pagesPerSecond: entry.pages / (entry.ms / 1000), failed: entry.failed, pages: pages.length };
  }
  return figures;
}

// ------------------------------------------------------------------------------ main

function parseArgs(argv) {
  const options = {
    baseline: null,
    data: process.env.BENCH_DATA || path.resolve(ROOT, '../shared/bench/extraction'),
    seconds: 20,
    json: null,
  };
  for (const { name, value, count } of commandLine(argv)) {
    if (name === '--baseline') options.baseline = path.resolve(value());
    else if (name === '--data') options.data = path.resolve(value());
    else if (name === '--seconds') options.seconds = count();
    else if (name === '--json') options.json = value();
    else if (name === '-h' || name === '--help') {
      console.log(helpText(import.meta.url));
      process.exit(0);
    } else throw new UsageError(`unknown option ${name} (--help lists them)`);
  }
  return options;
}

function report(label, name, r) {
  const h = r.healthz;
  console.log(
    `${label} ${name}: /healthz p50 ${h.p50.toFixed(1)} ms, p99 ${h.p99.toFixed(1)} ms, max ${h.max.toFixed(1)} ms (${h.count}, ${h.failed} failed); other key's crawls ${r.other.ok}/${r.other.sent} ok${r.other.errors.length ? ` (${r.other.errors.join(', ')})` : ''}, slowest ${(r.other.slowestMs / 1000).toFixed(1)} s; hostile ${JSON.stringify(r.hostile)}, charged ${r.charged}`,
  );
}

async function main() {
  const options = parseArgs(process.argv.slice(2));
  const builds = [{ label: 'this build', dist: path.join(ROOT, 'dist') }];
  if (options.baseline) builds.push({ label: 'baseline', dist: options.baseline });
  for (const { dist } of builds)
    if (!fs.existsSync(path.join(dist, 'workers/convert-worker.js')))
      throw new UsageError(`${dist} holds no build: run \`npm run build\` first`);
  console.log(
    `machine: ${os.cpus().length} x ${os.cpus()[0]?.model}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}`,
  );
  const fixture = await startFixture();
  const figures = {};
  try {
    for (const { label, dist } of builds) {
      figures[label] = {};
      for (const [name, attack] of [
        ['selectors (10 combinators)', (s) => selectorAttack(s, fixture, options.seconds, 10)],
        ['selectors (4 combinators)', (s) => selectorAttack(s, fixture, options.seconds, 4)],
        ['passages on cached pages', (s) => passagesAttack(s, fixture, options.seconds)],
      ]) {
        // A fresh server for each attack: what one left running does not weigh on the next.
        const server = await startServer(dist, label);
        try {
          const result = await attack(server);
          figures[label][name] = result;
          report(label, name, result);
        } finally {
          await server.stop();
        }
      }
    }
    if (options.baseline && fs.existsSync(options.data)) {
      const pool = await poolThroughput(builds, options.data);
      figures.pool = pool;
      const [a, b] = builds.map((b) => pool[b.label].pagesPerSecond);
      console.log(
        `pool on the dev pages: this build ${a.toFixed(1)} pages/s, baseline ${b.toFixed(1)} pages/s, ratio ${(a / b).toFixed(3)}`,
      );
    } else console.log('pool throughput: skipped (needs --baseline and the dev pages)');
  } finally {
    fixture.close();
  }
  if (options.json) fs.writeFileSync(options.json, `${JSON.stringify(figures, null, 2)}\n`);
}

if (process.argv[2] === '--serve') {
  serve(path.resolve(process.argv[3]), process.argv[4]).catch((err) => {
    console.error(err);
    process.exit(1);
  });
} else {
  main().then(
    () => process.exit(0),
    (err) => {
      console.error(err instanceof UsageError ? `fairness-bench: ${err.message}` : err);
      process.exit(2);
    },
  );
}
