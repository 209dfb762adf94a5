// Start-up benchmark of the stdio MCP server: what a desktop client waits for on every
// launch, from spawn until the answer to tools/list.
//
//   npm run build && node bench/startup-bench.mjs [--runs 20] [--warmup 1] [--json out.json] [--max-ratio 1.3]
//
// Each run spawns the server, writes `initialize` at once (as clients do), then on its
// answer `notifications/initialized` and `tools/list`, and stops the clock at the
// tools/list answer. Two servers, interleaved run by run (and alternating which goes
// first) so that machine noise hits both alike:
//   ours     node dist/cli.js                        (WEBSEARCH_LOG_LEVEL=silent)
//   minimal  node bench/fixtures/minimal-mcp-server.mjs (McpServer + two trivial tools)
// Prints the median and p90 of each and the ratio of the medians ours/minimal
// (target ≤ 1.3). With --max-ratio X the exit status is 1 when the ratio is over X.
import { spawn } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { fileURLToPath } from 'node:url';

const args = process.argv.slice(2);
const option = (name, fallback) => {
  const at = args.indexOf(name);
  return at >= 0 && args[at + 1] !== undefined ? args[at + 1] : fallback;
};
const positiveInt = (name, value) => {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) {
    console.error(`${name} needs a whole number, got ${value}`);
    process.exit(2);
  }
  return n;
};
const RUNS = Math.max(1, positiveInt('--runs', option('--runs', '20')));
const WARMUP = positiveInt('--warmup', option('--warmup', '1'));
const JSON_OUT = option('--json', undefined);
const MAX_RATIO = option('--max-ratio', undefined) === undefined ? undefined : Number(option('--max-ratio', undefined));
const TARGET_RATIO = 1.3;
const RUN_TIMEOUT_MS = 20_000;
if (MAX_RATIO !== undefined && !(MAX_RATIO > 0)) {
  console.error('--max-ratio needs a positive number');
  process.exit(2);
}

const OURS = fileURLToPath(new URL('../dist/cli.js', import.meta.url));
const MINIMAL = fileURLToPath(new URL('./fixtures/minimal-mcp-server.mjs', import.meta.url));
if (!existsSync(OURS)) {
  console.error(`${OURS} is missing: run \`npm run build\` first.`);
  process.exit(2);
}

const SERVERS = [
  { name: 'ours', script: OURS, env: { ...process.env, WEBSEARCH_LOG_LEVEL: 'silent' } },
  { name: 'minimal', script: MINIMAL, env: { ...process.env } },
];

const PROTOCOL_VERSION = '2025-06-18';
const line = (message) => `${JSON.stringify(message)}\n`;

/**
 * One cold start: spawn → initialize → initialized + tools/list → answer.
 * Resolves { initMs, listMs, tools } once the child has exited.
 */
function startOnce(server) {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn(process.execPath, [server.script], { env: server.env, stdio: ['pipe', 'pipe', 'pipe'] });
    let initMs;
    let result;
    let failure;
    let buffer = '';
    let stderr = '';
    const timer = setTimeout(
      () => finish(new Error(`${server.name}: no tools/list answer within ${RUN_TIMEOUT_MS} ms`)),
      RUN_TIMEOUT_MS,
    );
    let killer;

    function finish(error, value) {
      if (result || failure) return;
      clearTimeout(timer);
      if (error) failure = error;
      else result = value;
      // Close stdin: a stdio server exits when its input ends; force it if it lingers.
      child.stdin.end();
      killer = setTimeout(() => child.kill('SIGKILL'), 3000);
    }

    child.on('error', (error) => finish(error));
    child.stdin.on('error', () => undefined); // EPIPE if the child died early
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.stdout.on('data', (chunk) => {
      const now = performance.now();
      buffer += chunk;
      let newline;
      while ((newline = buffer.indexOf('\n')) >= 0) {
        const text = buffer.slice(0, newline).trim();
        buffer = buffer.slice(newline + 1);
        if (!text) continue;
        let message;
        try {
          message = JSON.parse(text);
        } catch {
          finish(new Error(`${server.name}: non-JSON on stdout: ${text.slice(0, 200)}`));
          return;
        }
        if (message.id === 1) {
          if (message.error)
            return finish(new Error(`${server.name}: initialize failed: ${JSON.stringify(message.error)}`));
          initMs = now - t0;
          child.stdin.write(line({ jsonrpc: '2.0', method: 'notifications/initialized' }));
          child.stdin.write(line({ jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} }));
        } else if (message.id === 2) {
          if (message.error)
            return finish(new Error(`${server.name}: tools/list failed: ${JSON.stringify(message.error)}`));
          finish(undefined, { initMs, listMs: now - t0, tools: (message.result?.tools ?? []).map((t) => t.name) });
        }
      }
    });
    child.on('close', (code, signal) => {
      clearTimeout(killer);
      if (!result && !failure) {
        clearTimeout(timer);
        failure = new Error(
          `${server.name}: exited (${code ?? signal}) before answering tools/list\n${stderr.slice(-2000)}`,
        );
      }
      if (failure) reject(failure);
      else resolve(result);
    });

    child.stdin.write(
      line({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: {
          protocolVersion: PROTOCOL_VERSION,
          capabilities: {},
          clientInfo: { name: 'startup-bench', version: '1.0.0' },
        },
      }),
    );
  });
}

function percentile(sorted, p) {
  // Nearest rank: the smallest value with at least p% of the samples at or below it.
  const rank = Math.max(1, Math.ceil((p / 100) * sorted.length));
  return sorted[rank - 1];
}

function median(sorted) {
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

function stats(samples) {
  const sorted = [...samples].sort((a, b) => a - b);
  return {
    median: median(sorted),
    p90: percentile(sorted, 90),
    min: sorted[0],
    max: sorted[sorted.length - 1],
    mean: samples.reduce((a, b) => a + b, 0) / samples.length,
  };
}

const round = (n) => Math.round(n * 10) / 10;

const cpus = os.cpus();
const machine = {
  cpus: typeof os.availableParallelism === 'function' ? os.availableParallelism() : cpus.length,
  cpuModel: cpus[0]?.model ?? 'unknown',
  node: process.version,
  platform: `${process.platform} ${os.release()} ${process.arch}`,
};

console.log(`startup-bench: spawn → tools/list answer, ${RUNS} runs each (+${WARMUP} warm-up), interleaved`);
console.log(`machine: ${machine.cpus} CPU(s), ${machine.cpuModel}, Node ${machine.node}, ${machine.platform}`);

const samples = Object.fromEntries(SERVERS.map((s) => [s.name, { initMs: [], listMs: [] }]));
const toolsSeen = {};
try {
  for (let run = 0; run < WARMUP + RUNS; run++) {
    // Alternate which server goes first so neither always runs on a "warmer" machine.
    const order = run % 2 === 0 ? SERVERS : [...SERVERS].reverse();
    for (const server of order) {
      const r = await startOnce(server);
      toolsSeen[server.name] = r.tools;
      if (run < WARMUP) continue;
      samples[server.name].initMs.push(r.initMs);
      samples[server.name].listMs.push(r.listMs);
    }
  }
} catch (error) {
  console.error(String(error?.stack ?? error));
  process.exit(2);
}

const summary = Object.fromEntries(
  SERVERS.map((s) => [
    s.name,
    {
      tools: toolsSeen[s.name],
      toolsList: stats(samples[s.name].listMs),
      initialize: stats(samples[s.name].initMs),
      samplesMs: samples[s.name].listMs.map(round),
    },
  ]),
);
const ratio = summary.ours.toolsList.median / summary.minimal.toolsList.median;

const row = (name, s) =>
  `${name.padEnd(8)} median ${round(s.toolsList.median).toFixed(1).padStart(7)} ms   p90 ${round(s.toolsList.p90).toFixed(1).padStart(7)} ms   ` +
  `min ${round(s.toolsList.min).toFixed(1).padStart(7)} ms   max ${round(s.toolsList.max).toFixed(1).padStart(7)} ms   (initialize median ${round(s.initialize.median).toFixed(1)} ms)`;
console.log('');
for (const s of SERVERS) console.log(row(s.name, summary[s.name]));
console.log('');
console.log(
  `ratio ours/minimal (medians): ${ratio.toFixed(3)}   target ≤ ${TARGET_RATIO}${ratio <= TARGET_RATIO ? '   OK' : '   OVER TARGET'}`,
);
for (const s of SERVERS) console.log(`tools of ${s.name}: ${summary[s.name].tools.join(', ')}`);

const over = MAX_RATIO !== undefined && ratio > MAX_RATIO;
if (JSON_OUT) {
  const report = {
    benchmark: 'startup: spawn to tools/list answer over stdio',
    date: new Date().toISOString(),
    machine,
    runs: RUNS,
    warmup: WARMUP,
    ours: summary.ours,
    minimal: summary.minimal,
    ratio,
    targetRatio: TARGET_RATIO,
    maxRatio: MAX_RATIO ?? null,
    pass: MAX_RATIO === undefined ? ratio <= TARGET_RATIO : !over,
  };
  writeFileSync(JSON_OUT, `${JSON.stringify(report, null, 2)}\n`);
  console.log(`wrote ${JSON_OUT}`);
}
if (over) {
  console.error(`ratio ${ratio.toFixed(3)} is over --max-ratio ${MAX_RATIO}`);
  process.exit(1);
}
