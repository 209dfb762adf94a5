#!/usr/bin/env node
// Load benchmark of the server's conversion path (the built code in dist/), in one run:
//  - throughput: POST /api/crawl of a ~50 KB article from a local fixture server, cache off,
//    16 requests in flight, each for its own URL: pages/s with conversion in the worker
//    pool against conversion on the event loop (the in-thread adapter), two servers
//    measured in alternating one-second turns of the same run;
//  - responsiveness: p99 and max latency of GET /healthz (one every 20 ms) while the
//    hostile pages (bench/fixtures/hostile-pages.mjs) are crawled one after another;
//  - memory: the server's RSS idle, its peak during the hostile set, and 5 s and 15 s after it;
//  - one-shot start: spawn-to-result of one extraction with each adapter (what
//    `websearch-mcp extract` chooses between).
// Every request goes to 127.0.0.1; every loop is bounded in time.
//
//   npm run build && node bench/load-bench.mjs [--seconds N] [--json FILE]
//
//   --seconds N   measured seconds of each server's throughput (default 10, after 2 of warm-up)
//   --json FILE   write every figure to FILE
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { HOSTILE_PAGES, hostileBody } from './fixtures/hostile-pages.mjs';
import { serveSelf, spawnSelfServer } from './spawn-self-server.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const SELF = fileURLToPath(import.meta.url);
const built = (file) => pathToFileURL(path.join(ROOT, 'dist', file)).href;
const IN_FLIGHT = 16;

/** Settings of every server of this bench: cache off, no rate limit, fixtures on loopback. */
const OVERRIDES = {
  server: { port: 0 },
  fetch: { allowPrivateAddresses: true, perHostConcurrency: IN_FLIGHT },
  cache: { ttlMs: 0 },
  auth: { rateLimitRequests: 0 },
  store: { path: ':memory:' },
  log: { level: 'silent' },
};

// ------------------------------------------------------------------------------ fixtures

/** A ~50 KB article with the usual page furniture around it. */
function articleHtml() {
  const nav = Array.from({ length: 40 }, (_, i) => `<li><a href="/section/${i}">Section ${i}</a></li>`).join('');
  const paragraphs = Array.from(
    { length: 300 },
    (_, i) =>
      `${i % 12 === 0 ? `<h2>Part ${i / 12 + 1}</h2>` : ''}<p>Paragraph ${i} of the article tells of harbours and tides, with a <a href="/ref/${i}">reference</a>, some <em>emphasis</em> and a figure of ${i * 7} metres.</p>`,
  ).join('\n');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Tides of the North Sea</title><meta name="description" content="An article."></head><body><header><nav><ul>${nav}</ul></nav></header><main><article><h1>Tides of the North Sea</h1>${paragraphs}</article></main><footer><p>Copyright, contact, imprint.</p></footer></body></html>`;
}

function startFixture() {
  const article = Buffer.from(articleHtml());
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const hostile = url.pathname.startsWith('/hostile/') ? hostileBody(url.pathname.slice(9)) : undefined;
    const body = url.pathname === '/article' ? article : hostile;
    if (body === undefined) {
      res.writeHead(404, { 'content-type': 'text/plain' });
      res.end('not found');
      return;
    }
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-length': String(body.length) });
    res.end(body);
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({
        url: `http://127.0.0.1:${server.address().port}`,
        articleBytes: article.length,
        close: () => server.close(),
      }),
    ),
  );
}

// ------------------------------------------------------------------------------ servers

/** `--serve MODE`: this file as the server process, conversion by MODE (pool or in-thread). */
function serve(mode) {
  return serveSelf(OVERRIDES, { converter: mode });
}

function spawnServer(mode) {
  return spawnSelfServer(SELF, [mode], `server (${mode})`);
}

/** Resident memory of a process in MB (Linux /proc), or null elsewhere. */
function rssMb(pid) {
  try {
    const kb = Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]);
    return Number.isFinite(kb) ? kb / 1024 : null;
  } catch {
    return null;
  }
}

// ------------------------------------------------------------------------------ measures

async function crawl(server, url) {
  const res = await fetch(`${server.url}/api/crawl`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ urls: [url], timeout_ms: 15_000 }),
  });
  const json = await res.json();
  return json.results?.[0];
}

/** IN_FLIGHT concurrent crawls of distinct article URLs for `ms`: pages converted. */
async function load(server, fixture, ms) {
  let ok = 0;
  let failed = 0;
  const until = performance.now() + ms;
  await Promise.all(
    Array.from({ length: IN_FLIGHT }, async () => {
      while (performance.now() < until) {
        const result = await crawl(server, `${fixture.url}/article?n=${Math.random()}`);
        if (result?.success) ok += 1;
        else failed += 1;
      }
    }),
  );
  return { ok, failed };
}

/**
 * Pages/s of both servers, measured in alternating one-second turns (order swapped each
 * round) after a warm-up, so that a machine whose load drifts weighs on both alike.
 */
async function throughput(fixture, seconds) {
  const servers = { 'in-thread': await spawnServer('in-thread'), pool: await spawnServer('pool') };
  try {
    const totals = {};
    for (const [mode, server] of Object.entries(servers)) {
      await load(server, fixture, 2_000);
      totals[mode] = { ok: 0, failed: 0, ms: 0 };
    }
    for (let round = 0; round < seconds; round++) {
      const order = round % 2 === 0 ? ['in-thread', 'pool'] : ['pool', 'in-thread'];
      for (const mode of order) {
        const started = performance.now();
        const { ok, failed } = await load(servers[mode], fixture, 1_000);
        totals[mode].ok += ok;
        totals[mode].failed += failed;
        totals[mode].ms += performance.now() - started;
      }
    }
    const rate = (mode) => ({
      mode,
      pagesPerSecond: totals[mode].ok / (totals[mode].ms / 1000),
      failed: totals[mode].failed,
    });
    return { inThread: rate('in-thread'), pool: rate('pool') };
  } finally {
    await Promise.all(Object.values(servers).map((server) => server.stop()));
  }
}

const percentile = (values, p) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? NaN;
};

/** /healthz latency and RSS while the hostile pages are crawled, one after another. */
async function hostile(fixture) {
  const server = await spawnServer('pool');
  try {
    await crawl(server, `${fixture.url}/article?warm=1`);
    await crawl(server, `${fixture.url}/article?warm=2`);
    const idleRss = rssMb(server.pid);
    let done = false;
    let peakRss = idleRss ?? 0;
    const sampler = setInterval(() => (peakRss = Math.max(peakRss, rssMb(server.pid) ?? 0)), 50);
    const latencies = [];
    const probe = (async () => {
      while (!done) {
        const started = performance.now();
        await (await fetch(`${server.url}/healthz`)).arrayBuffer();
        latencies.push(performance.now() - started);
        await new Promise((r) => setTimeout(r, 20));
      }
    })();
    const outcomes = [];
    for (const name of Object.keys(HOSTILE_PAGES)) {
      const started = performance.now();
      const result = await crawl(server, `${fixture.url}/hostile/${name}`);
      outcomes.push({
        name,
        outcome: result?.success ? `success (${result.markdown.length} chars)` : `${result?.error_type}`,
        seconds: (performance.now() - started) / 1000,
      });
    }
    done = true;
    await probe;
    clearInterval(sampler);
    await new Promise((r) => setTimeout(r, 5_000));
    const after = rssMb(server.pid);
    await new Promise((r) => setTimeout(r, 10_000));
    return {
      outcomes,
      healthz: { count: latencies.length, p99: percentile(latencies, 0.99), max: Math.max(...latencies) },
      rss: { idle: idleRss, peak: peakRss, after, after15: rssMb(server.pid) },
    };
  } finally {
    await server.stop();
  }
}

/** Spawn-to-result of one extraction in a fresh process, with each adapter (medians). */
async function oneShot(fixture, runs = 7) {
  const script = (
    mode,
  ) => `const [{ buildCore }, { loadConfig }, { silentLogger }] = await Promise.all([import(${JSON.stringify(built('compose.js'))}), import(${JSON.stringify(built('core/config.js'))}), import(${JSON.stringify(built('core/logger.js'))})]);
const core = await buildCore(loadConfig({ env: {}, overrides: ${JSON.stringify(OVERRIDES)} }), silentLogger, { converter: '${mode}' });
const r = await core.operations.extract({ id: 'req_bench', caller: {}, log: silentLogger }, { urls: ['${fixture.url}/article'] });
if (!r.results[0].success) process.exit(1);
await core.close();`;
  const once = (mode) =>
    new Promise((resolve, reject) => {
      const started = performance.now();
      const child = spawn(process.execPath, ['--input-type=module', '-e', script(mode)], { stdio: 'ignore' });
      child.once('exit', (code) =>
        code === 0 ? resolve(performance.now() - started) : reject(new Error(`one-shot ${mode} exited with ${code}`)),
      );
    });
  const times = { 'in-thread': [], pool: [] };
  for (let i = 0; i < runs; i++) for (const mode of Object.keys(times)) times[mode].push(await once(mode));
  return { inThreadMs: percentile(times['in-thread'], 0.5), poolMs: percentile(times.pool, 0.5) };
}

// ------------------------------------------------------------------------------ main

async function main(argv) {
  if (argv[0] === '--serve') return serve(argv[1]);
  let seconds = 10;
  let json = null;
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--seconds') seconds = Number(argv[++i]);
    else if (argv[i] === '--json') json = path.resolve(argv[++i]);
    else throw new Error(`unknown option ${argv[i]} (--seconds N, --json FILE)`);
  }
  if (!(seconds > 0)) throw new Error('--seconds needs a positive number');
  if (!fs.existsSync(path.join(ROOT, 'dist/workers/convert-worker.js')))
    throw new Error('dist/ is missing: run `npm run build` first');
  const fixture = await startFixture();
  try {
    const machine = `${os.availableParallelism()} cores (${os.cpus()[0]?.model ?? 'unknown CPU'}), node ${process.version}`;
    console.log(
      `load bench on ${machine}; article ${(fixture.articleBytes / 1024).toFixed(0)} KB, ${IN_FLIGHT} in flight, cache off`,
    );
    const { inThread, pool } = await throughput(fixture, seconds);
    console.log(
      `throughput: in-thread ${inThread.pagesPerSecond.toFixed(1)} pages/s, pool ${pool.pagesPerSecond.toFixed(1)} pages/s: ${(pool.pagesPerSecond / inThread.pagesPerSecond).toFixed(2)}x (failed: ${inThread.failed} / ${pool.failed})`,
    );
    const underAttack = await hostile(fixture);
    for (const o of underAttack.outcomes) console.log(`  hostile ${o.name}: ${o.outcome} in ${o.seconds.toFixed(1)} s`);
    const { healthz, rss } = underAttack;
    console.log(
      `/healthz during the hostile set: p99 ${healthz.p99.toFixed(1)} ms, max ${healthz.max.toFixed(1)} ms (${healthz.count} requests)`,
    );
    const mb = (v) => (v === null ? 'n/a' : `${v.toFixed(0)} MB`);
    console.log(
      `server RSS: idle ${mb(rss.idle)}, peak during the hostile set ${mb(rss.peak)}, 5 s after ${mb(rss.after)}, 15 s after ${mb(rss.after15)}`,
    );
    const start = await oneShot(fixture);
    console.log(
      `one-shot extraction, spawn to result (median of 7): in-thread ${start.inThreadMs.toFixed(0)} ms, pool ${start.poolMs.toFixed(0)} ms`,
    );
    if (json)
      fs.writeFileSync(
        json,
        JSON.stringify(
          {
            machine,
            inThread,
            pool,
            ratio: pool.pagesPerSecond / inThread.pagesPerSecond,
            ...underAttack,
            oneShot: start,
          },
          null,
          2,
        ),
      );
  } finally {
    fixture.close();
  }
}

main(process.argv.slice(2)).catch((err) => {
  console.error(`load-bench: ${err.message}`);
  process.exit(2);
});
