#!/usr/bin/env node
// Peak memory while ten 50 MB responses are refused concurrently (issue target: peak RSS
// under 300 MB). The responses come from a server in a child process (so its buffers do
// not count), on ten loopback addresses (127.0.0.1-10) so that the per-host cap does not
// serialise them; half stream chunked with no Content-Length (refused by the counted
// 10 MiB cap), half gzip bombs (refused on decoded bytes). Runs against the built code.
//
//   npm run build && node bench/memory-bench.mjs [--json out.json]
import { fork } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import os from 'node:os';
import { fileURLToPath } from 'node:url';

const MiB = 1024 * 1024;
const TARGET_MB = 300;

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
} else {
  const args = process.argv.slice(2);
  const jsonOut = args.includes('--json') ? args[args.indexOf('--json') + 1] : null;
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
  if (jsonOut) writeFileSync(jsonOut, JSON.stringify(figures, null, 2));
  const ok = refused === 10 && figures.max_rss_process_mb < TARGET_MB;
  console.log(ok ? 'PASS' : 'FAIL');
  process.exitCode = ok ? 0 : 1;
}
