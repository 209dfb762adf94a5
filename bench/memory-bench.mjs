#!/usr/bin/env node
// Two memory figures, against the built code (npm run build first):
//
// 1. Refusals: peak memory while ten 50 MB responses are refused concurrently (target:
//    peak RSS under 300 MB). The responses come from a server in a child process (so its
//    buffers do not count), on ten loopback addresses (127.0.0.1-10) so that the per-host
//    cap does not serialise them; half stream chunked with no Content-Length (refused by
//    the counted 10 MiB cap), half gzip bombs (refused on decoded bytes).
// 2. Faces: the peak resident memory (VmHWM, worker threads included) of the stdio MCP
//    server a desktop client spawns (`websearch-mcp`, target <= 250 MB) and of the HTTP
//    server (`websearch-mcp serve`), each a fresh process extracting the scrapinghub dev
//    pages (BENCH_DATA, else ../shared/bench/extraction) served from 127.0.0.1, ten URLs a
//    call, cache and rendering off; then its resident memory after 35 s idle (past the 30 s
//    after which the stdio server stops its idle worker).
//
//   npm run build && node bench/memory-bench.mjs [--only refusals|faces] [--json out.json]
import { fork, spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { fileURLToPath } from 'node:url';

const MiB = 1024 * 1024;
const TARGET_MB = 300;
const STDIO_TARGET_MB = 250;
const CLI = fileURLToPath(new URL('../dist/cli.js', import.meta.url));
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

if (process.argv[2] === '--serve') {
  const http = await import('node:http');
  const zlib = await import('node:zlib');
  const chunk = Buffer.alloc(64 * 1024, 'a');
  // A 50 MiB gzip bomb built once: the page head, then spaces.
  const bomb = await new Promise((resolve) => {
    const gz = zlib.createGzip({ level: 9 });
    const parts = [];
    gz.on('data', (d) => parts.push(d));
    gz.on('end', () => resolve(Buffer.concat(parts)));
    gz.write('<!doctype html><html><head><title>big</title></head><body><p>');
    const spaces = Buffer.alloc(MiB, ' ');
    for (let i = 0; i < 50; i++) gz.write(spaces);
    gz.end('</p></body></html>');
  });
  const server = http.createServer((req, res) => {
    if (req.url === '/robots.txt') return res.writeHead(404).end();
    if (req.url.startsWith('/bomb')) {
      res.writeHead(200, { 'content-type': 'text/html', 'content-encoding': 'gzip', 'content-length': bomb.length });
      return res.end(bomb);
    }
    res.writeHead(200, { 'content-type': 'text/html' });
    let sent = 0;
    const pump = () => {
      while (sent < 50 * MiB) {
        sent += chunk.length;
        if (!res.write(chunk)) return res.once('drain', pump);
      }
      res.end();
    };
    res.on('close', () => (sent = Infinity));
    pump();
  });
  server.listen(0, '0.0.0.0', () => process.send({ port: server.address().port }));
  process.on('disconnect', () => process.exit(0));
} else if (process.argv[2] === '--pages') {
  // The dev pages, each at /<id>, from this child process (their bytes do not count).
  const http = await import('node:http');
  const { listPages, readBytes } = await import('./dev-pages.mjs');
  const pages = new Map(
    listPages(process.argv[3])
      .filter((p) => p.dataset === 'scrapinghub-dev')
      .map((p) => [`/${p.id}`, p.file]),
  );
  const server = http.createServer((req, res) => {
    const file = pages.get(req.url);
    if (!file) return res.writeHead(404).end();
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(readBytes(file));
  });
  server.listen(0, '127.0.0.1', () => process.send({ port: server.address().port, ids: [...pages.keys()] }));
  process.on('disconnect', () => process.exit(0));
} else {
  const args = process.argv.slice(2);
  const jsonOut = args.includes('--json') ? args[args.indexOf('--json') + 1] : null;
  const only = args.includes('--only') ? args[args.indexOf('--only') + 1] : null;
  const figures = {};
  let ok = true;
  if (only !== 'faces') {
    const r = await refusals();
    figures.refusals = r.figures;
    ok &&= r.ok;
  }
  if (only !== 'refusals') {
    const f = await faces();
    figures.faces = f.figures;
    ok &&= f.ok;
  }
  if (jsonOut) writeFileSync(jsonOut, JSON.stringify(figures, null, 2));
  console.log(ok ? 'PASS' : 'FAIL');
  process.exitCode = ok ? 0 : 1;
}

async function refusals() {
  const child = fork(fileURLToPath(import.meta.url), ['--serve'], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const { port } = await new Promise((resolve) => child.once('message', resolve));

  const { loadConfig } = await import('../dist/core/config.js');
  const { buildCore } = await import('../dist/compose.js');
  const { silentLogger } = await import('../dist/core/logger.js');
  const config = loadConfig({
    env: {},
    overrides: {
      fetch: { allowPrivateAddresses: true, timeoutMs: 60_000 },
      cache: { ttlMs: 0 },
      log: { level: 'silent' },
    },
  });
  const core = await buildCore(config, silentLogger);

  const rssMb = () => process.memoryUsage().rss / MiB;
  let peak = 0;
  const sampler = setInterval(() => (peak = Math.max(peak, rssMb())), 5);
  // Warm the modules first so that their code does not count as response memory.
  const local = { id: 'req_bench', caller: {}, log: silentLogger };
  await core.operations.extract(local, { urls: [`http://127.0.0.1:${port}/robots.txt`] });
  globalThis.gc?.();
  const before = rssMb();
  peak = before;
  const urls = Array.from(
    { length: 10 },
    (_, i) => `http://127.0.0.${i + 1}:${port}/${i % 2 ? 'bomb' : 'stream'}/${i}`,
  );
  const started = performance.now();
  const response = await core.operations.extract(local, { urls });
  const seconds = (performance.now() - started) / 1000;
  clearInterval(sampler);
  peak = Math.max(peak, rssMb());
  const maxRssMb = process.resourceUsage().maxRSS / 1024;
  await core.close();
  child.disconnect();

  const refused = response.results.filter((r) => !r.success && r.error_type === 'too_large').length;
  const figures = {
    machine: `${os.cpus().length} x ${os.cpus()[0]?.model ?? 'cpu'}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, node ${process.version}`,
    responses: urls.length,
    refused_too_large: refused,
    seconds: Number(seconds.toFixed(3)),
    rss_before_mb: Number(before.toFixed(1)),
    rss_peak_sampled_mb: Number(peak.toFixed(1)),
    max_rss_process_mb: Number(maxRssMb.toFixed(1)),
    target_mb: TARGET_MB,
  };
  console.log(`ten 50 MB responses, refused as too_large: ${refused}/10 in ${figures.seconds} s`);
  console.log(
    `RSS before ${figures.rss_before_mb} MB, peak while refusing ${figures.rss_peak_sampled_mb} MB (process max ${figures.max_rss_process_mb} MB); target < ${TARGET_MB} MB`,
  );
  return { figures, ok: refused === 10 && figures.max_rss_process_mb < TARGET_MB };
}

/** A line of /proc/<pid>/status in MB (VmHWM: peak resident; VmRSS: now), or null off Linux. */
function procMb(pid, field) {
  try {
    const kb = Number(new RegExp(`${field}:\\s+(\\d+)`).exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]);
    return Number.isFinite(kb) ? Number((kb / 1024).toFixed(1)) : null;
  } catch {
    return null;
  }
}

async function faces() {
  const data = process.env.BENCH_DATA || fileURLToPath(new URL('../../shared/bench/extraction', import.meta.url));
  const site = fork(fileURLToPath(import.meta.url), ['--pages', data], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const { port, ids } = await new Promise((resolve) => site.once('message', resolve));
  const urls = ids.map((id) => `http://127.0.0.1:${port}${id}`);
  const batches = [];
  for (let i = 0; i < urls.length; i += 10) batches.push(urls.slice(i, i + 10));
  const env = {
    ...process.env,
    WEBSEARCH_ALLOW_PRIVATE_ADDRESSES: '127.0.0.1',
    WEBSEARCH_STORE_PATH: ':memory:',
    WEBSEARCH_CACHE_TTL_MS: '0',
    WEBSEARCH_RENDER: 'never',
    WEBSEARCH_LOG_LEVEL: 'warn',
  };
  const figures = { pages: urls.length, target_stdio_mb: STDIO_TARGET_MB };
  try {
    figures.stdio = await stdioFace(batches, env);
    figures.http = await httpFace(batches, env);
  } finally {
    site.disconnect();
  }
  for (const face of ['stdio', 'http']) {
    const f = figures[face];
    console.log(
      `${face}: ${f.succeeded}/${urls.length} pages in ${f.seconds} s; VmHWM ${f.peak_mb} MB, VmRSS ${f.after_mb} MB after, ${f.idle_mb} MB after 35 s idle`,
    );
  }
  return { figures, ok: figures.stdio.peak_mb !== null && figures.stdio.peak_mb <= STDIO_TARGET_MB };
}

/** The stdio MCP server as a desktop client runs it: extract_urls, ten URLs a call. */
async function stdioFace(batches, env) {
  const { Client } = await import('@modelcontextprotocol/sdk/client/index.js');
  const { StdioClientTransport } = await import('@modelcontextprotocol/sdk/client/stdio.js');
  const transport = new StdioClientTransport({ command: process.execPath, args: [CLI], env, stderr: 'inherit' });
  const client = new Client({ name: 'memory-bench', version: '1' });
  await client.connect(transport);
  const pid = transport.pid;
  const started = performance.now();
  let succeeded = 0;
  for (const batch of batches) {
    const result = await client.callTool({ name: 'extract_urls', arguments: { urls: batch } });
    succeeded += result.structuredContent?.metadata?.successful_crawls ?? 0;
  }
  const seconds = Number(((performance.now() - started) / 1000).toFixed(1));
  const figures = { succeeded, seconds, peak_mb: procMb(pid, 'VmHWM'), after_mb: procMb(pid, 'VmRSS') };
  await sleep(35_000);
  figures.idle_mb = procMb(pid, 'VmRSS');
  await client.close();
  return figures;
}

/** `serve`: POST /api/crawl, ten URLs a request, one at a time. */
async function httpFace(batches, env) {
  const child = spawn(process.execPath, [CLI, 'serve', '--port', '0'], { env, stdio: ['ignore', 'ignore', 'pipe'] });
  let log = '';
  const base = await new Promise((resolve, reject) => {
    child.stderr.on('data', (d) => {
      log += d;
      const found = /listening on (http:\/\/[^\s:]+:\d+)/.exec(log);
      if (found) resolve(found[1]);
    });
    child.once('exit', (code) => reject(new Error(`serve exited with ${code}: ${log}`)));
  });
  const started = performance.now();
  let succeeded = 0;
  for (const batch of batches) {
    const res = await fetch(`${base}/api/crawl`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ urls: batch }),
    });
    succeeded += (await res.json()).metadata?.successful_crawls ?? 0;
  }
  const seconds = Number(((performance.now() - started) / 1000).toFixed(1));
  const figures = { succeeded, seconds, peak_mb: procMb(child.pid, 'VmHWM'), after_mb: procMb(child.pid, 'VmRSS') };
  await sleep(35_000);
  figures.idle_mb = procMb(child.pid, 'VmRSS');
  child.kill('SIGTERM');
  await new Promise((resolve) => child.once('exit', resolve));
  return figures;
}
