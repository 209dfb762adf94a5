#!/usr/bin/env node
// Memory of idle MCP sessions, and the cost of refusing one past the cap (issue target:
// peak RSS under 300 MB with 1,000 idle Streamable HTTP sessions open).
//
//   npm run build && node bench/sessions-bench.mjs [--sessions 1000] [--refusals 200] [--json out.json]
//
// Spawns `websearch-mcp serve` (open mode on 127.0.0.1, in-memory store) with the session
// cap at exactly --sessions, so the next initialize is past it. In the same run it reads
// the server's RSS (/proc/<pid>/status: VmRSS now, VmHWM the peak) when idle (after one
// session opened and ended, so that the MCP modules are loaded), then with every session
// open; then times --refusals initializes refused with 503 `server_busy` (sequential,
// median and p99) against a 404 of an unknown route in the same loop. Linux only (it
// reads /proc).
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { fetch } from 'undici';

const args = process.argv.slice(2);
const option = (name, fallback) => {
  const at = args.indexOf(name);
  return at >= 0 && args[at + 1] !== undefined ? args[at + 1] : fallback;
};
const SESSIONS = Number(option('--sessions', '1000'));
const REFUSALS = Number(option('--refusals', '200'));
const JSON_OUT = option('--json', undefined);
const TARGET_MB = 300;
const CONCURRENCY = 16;
if (!Number.isInteger(SESSIONS) || SESSIONS < 1 || !Number.isInteger(REFUSALS) || REFUSALS < 1) {
  console.error('--sessions and --refusals need whole numbers of at least 1');
  process.exit(2);
}
const CLI = fileURLToPath(new URL('../dist/cli.js', import.meta.url));
if (!existsSync(CLI)) {
  console.error(`${CLI} is missing: run \`npm run build\` first.`);
  process.exit(2);
}
if (!existsSync('/proc/self/status')) {
  console.error('this bench reads /proc/<pid>/status: Linux only');
  process.exit(2);
}

const child = spawn(process.execPath, [CLI, 'serve', '--port', '0'], {
  env: {
    ...process.env,
    WEBSEARCH_HOST: '127.0.0.1',
    WEBSEARCH_STORE_PATH: ':memory:',
    WEBSEARCH_LOG_LEVEL: 'info',
    WEBSEARCH_MCP_MAX_SESSIONS: String(SESSIONS),
    // One key (the open-mode user) holds them all: its share is above the total, so the total is what refuses.
    WEBSEARCH_MCP_MAX_SESSIONS_PER_KEY: String(SESSIONS + 1),
  },
  stdio: ['ignore', 'ignore', 'pipe'],
});
const stopChild = () => child.exitCode === null && child.kill('SIGKILL');
process.on('exit', stopChild);
const base = await new Promise((resolve, reject) => {
  let stderr = '';
  const timer = setTimeout(() => reject(new Error(`serve did not listen within 20 s: ${stderr}`)), 20_000);
  child.stderr.on('data', (d) => {
    stderr += d;
    const found = /listening on (http:\/\/[^\s:]+:\d+)/.exec(stderr) ?? /"url":"(http:\/\/[^"]+)"/.exec(stderr);
    if (found?.[1]) {
      clearTimeout(timer);
      resolve(found[1]);
    }
  });
  child.on('exit', (code) => reject(new Error(`serve exited with ${code}: ${stderr}`)));
});
child.stderr.resume();

/** RSS now and its peak so far, in MB, of the server process. */
function memory() {
  const status = readFileSync(`/proc/${child.pid}/status`, 'utf8');
  const kb = (name) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
  return { rssMb: kb('VmRSS') / 1024, peakMb: kb('VmHWM') / 1024 };
}

const HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
const INIT = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'sessions-bench', version: '1' } },
});
async function initialize() {
  const res = await fetch(`${base}/mcp`, { method: 'POST', headers: HEADERS, body: INIT });
  const body = await res.text();
  return { status: res.status, id: res.headers.get('mcp-session-id'), body };
}
async function end(id) {
  const res = await fetch(`${base}/mcp`, { method: 'DELETE', headers: { 'mcp-session-id': id } });
  await res.body?.cancel();
}

// Idle: the server after one session opened and ended.
const warm = await initialize();
if (!warm.id) throw new Error(`initialize failed: ${warm.status} ${warm.body}`);
await end(warm.id);
await new Promise((r) => setTimeout(r, 500));
const idle = memory();

const ids = [];
const openStarted = performance.now();
let next = 0;
await Promise.all(
  Array.from({ length: CONCURRENCY }, async () => {
    while (next < SESSIONS) {
      next += 1;
      const { status, id, body } = await initialize();
      if (!id) throw new Error(`session ${ids.length + 1}: ${status} ${body}`);
      ids.push(id);
    }
  }),
);
const openSeconds = (performance.now() - openStarted) / 1000;
await new Promise((r) => setTimeout(r, 500));
const held = memory();

// Each refusal is interleaved with a baseline: a 404 from an unknown route, the cheapest
// answer the server gives (routing and the error body, no session work).
const times = [];
const baseline = [];
const codes = new Map();
for (let i = 0; i < REFUSALS; i++) {
  let started = performance.now();
  const { status, body } = await initialize();
  times.push(performance.now() - started);
  const code = `${status} ${JSON.parse(body).error?.code}`;
  codes.set(code, (codes.get(code) ?? 0) + 1);
  started = performance.now();
  const miss = await fetch(`${base}/no-such-route`, { method: 'POST', headers: HEADERS, body: INIT });
  await miss.text();
  baseline.push(performance.now() - started);
}
const quantile = (list, q) => [...list].sort((a, b) => a - b)[Math.min(list.length - 1, Math.floor(q * list.length))];
const pick = (q) => quantile(times, q);
const health = await fetch(`${base}/healthz`);
const healthStatus = health.status;
await health.body?.cancel();

for (let i = 0; i < ids.length; i += CONCURRENCY) await Promise.all(ids.slice(i, i + CONCURRENCY).map(end));
child.kill('SIGTERM');

const result = {
  machine: { cpus: os.cpus().length, cpu: os.cpus()[0]?.model, node: process.version },
  sessions: ids.length,
  openSeconds: Number(openSeconds.toFixed(2)),
  idleRssMb: Number(idle.rssMb.toFixed(1)),
  heldRssMb: Number(held.rssMb.toFixed(1)),
  peakRssMb: Number(held.peakMb.toFixed(1)),
  kbPerSession: Math.round(((held.rssMb - idle.rssMb) * 1024) / ids.length),
  peakOverIdle: Number((held.peakMb / idle.rssMb).toFixed(2)),
  refusals: Object.fromEntries(codes),
  refuseMedianMs: Number(pick(0.5).toFixed(2)),
  refuseP99Ms: Number(pick(0.99).toFixed(2)),
  baselineMedianMs: Number(quantile(baseline, 0.5).toFixed(2)),
  baselineP99Ms: Number(quantile(baseline, 0.99).toFixed(2)),
  refuseOverBaseline: Number((pick(0.5) / quantile(baseline, 0.5)).toFixed(2)),
  healthWhileFull: healthStatus,
  targetMb: TARGET_MB,
};
console.log(`machine: ${result.machine.cpus} x ${result.machine.cpu}, node ${result.machine.node}`);
console.log(`${result.sessions} idle sessions opened in ${result.openSeconds} s (${CONCURRENCY} in flight)`);
console.log(
  `RSS idle ${result.idleRssMb} MB -> ${result.heldRssMb} MB held, peak ${result.peakRssMb} MB (${result.peakOverIdle}x idle; target < ${TARGET_MB} MB): ~${result.kbPerSession} KB a session`,
);
console.log(
  `past the cap: ${JSON.stringify(result.refusals)}, median ${result.refuseMedianMs} ms, p99 ${result.refuseP99Ms} ms (a 404: median ${result.baselineMedianMs} ms, p99 ${result.baselineP99Ms} ms; ${result.refuseOverBaseline}x); /healthz while full: ${healthStatus}`,
);
if (JSON_OUT) writeFileSync(JSON_OUT, `${JSON.stringify(result, null, 2)}\n`);
const ok = result.peakRssMb < TARGET_MB && codes.get('503 server_busy') === REFUSALS && healthStatus === 200;
process.exitCode = ok ? 0 : 1;
