#!/usr/bin/env node
// The browser's options and bounds (issues 32 and 34), against the built code and the system
// Chromium, on a local server:
//  1. a screenshot of a fixture page, warm: the render with the PNG against the same render
//     without it (median and worst of N; target: under 1.5 s on a 2-core machine);
//  2. the peak memory of the browser's process tree while 10 URLs whose scripts allocate
//     1 GB each in a tight loop (4 in flight, each holding its memory until its load) are
//     rendered: without the memory bounds, and with the default ones (WEBSEARCH_RENDER_HEAP_MB
//     / _PAGE_MEMORY_MB / _MEMORY_MB); with them, the memory at which the watchdog stopped
//     each page (its reading: how far past the per-page bound a page got). The tree is
//     sampled as the watchdog does (process-tree.ts, TreeSampler: statm, cheap): reading
//     smaps_rollup here would block this event loop, and the watchdog's with it.
//
//   npm run build && node bench/browser-bounds-bench.mjs [-- --shots 10 --hog-mb 1024]
import http from 'node:http';

const MiB = 1024 * 1024;
const args = process.argv.slice(2);
const option = (name, fallback) => (args.includes(name) ? args[args.indexOf(name) + 1] : fallback);
const SHOTS = Number(option('--shots', 10));
const HOG_MB = Number(option('--hog-mb', 1024));
const URLS = 10;
const IN_FLIGHT = 4;

const { loadConfig } = await import('../dist/core/config.js');
const { silentLogger } = await import('../dist/core/logger.js');
const { deadlineIn } = await import('../dist/core/request-context.js');
const { parseAllowedOrigins } = await import('../dist/core/allowed-origins.js');
const { addressPolicyFor } = await import('../dist/net/address-policy.js');
const { ChromiumRenderer } = await import('../dist/render/chromium-renderer.js');
const { TreeSampler } = await import('../dist/render/process-tree.js');

const paragraph =
  'Every small harbour keeps two clocks: the one on the office wall and the sea, which rises and falls twice a day. ';
// An article about three screens tall, with a header band and a few boxes: what a screenshot is for.
const ARTICLE = `<!doctype html><html><head><title>Tides</title><style>body{margin:0;font:16px/1.5 sans-serif}header{background:#123;color:#fff;padding:24px}main{max-width:760px;margin:0 auto;padding:24px}.box{background:#eef;border:1px solid #99c;padding:12px;margin:16px 0}</style></head><body><header><h1>Tides</h1></header><main><article>${`<h2>Section</h2><p>${paragraph.repeat(5)}</p><div class="box">${paragraph}</div>`.repeat(8)}</article></main></body></html>`;
const hog = (mb) => `<!doctype html><html><head><title>Hog</title></head><body><p id="out">Allocating.</p><script>
window.keep = []; let got = 0;
while (got < ${mb}) { const b = new Uint8Array(16 << 20); b.fill(got & 255 || 1); window.keep.push(b); got += 16; }
document.getElementById('out').textContent = 'Allocated ' + got + ' MB';
</script><script src="/delay"></script></body></html>`;
const server = http.createServer((req, res) => {
  if (req.url === '/delay')
    return void setTimeout(() => res.writeHead(200, { 'content-type': 'text/javascript' }).end(''), 3_000);
  if (req.url.startsWith('/hog')) return res.writeHead(200, { 'content-type': 'text/html' }).end(hog(HOG_MB));
  return res.writeHead(200, { 'content-type': 'text/html' }).end(ARTICLE);
});
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const origin = `http://127.0.0.1:${server.address().port}`;

const config = loadConfig({ env: {}, overrides: { log: { level: 'silent' }, store: { path: ':memory:' } } });
if (!config.render.chromiumPath) {
  console.error('no Chromium found (apt-get install chromium, or set CHROMIUM_PATH)');
  process.exit(1);
}
/** The watchdog's readings when it stopped a page (MB), from its log. */
let pageKills = [];
const killLog = {
  ...silentLogger,
  warn(obj, msg) {
    if (msg === 'page past its memory bound: renderer killed') pageKills.push(Math.round(obj.bytes / MiB));
  },
  child: () => killLog,
};
const options = (memory) => ({
  executablePath: config.render.chromiumPath,
  pages: IN_FLIGHT,
  policy: addressPolicyFor(parseAllowedOrigins(`127.0.0.1:${server.address().port}`)),
  connectTimeoutMs: 5_000,
  userAgent: config.fetch.userAgent,
  screenshot: { maxHeight: config.render.screenshotMaxHeight, maxBytes: config.render.screenshotMaxBytes },
  logger: memory ? killLog : silentLogger,
  ...(memory ? { memory } : {}),
});
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

// 1. Screenshots, warm.
const shots = new ChromiumRenderer(options(undefined));
const timed = async (screenshot, i) => {
  const started = performance.now();
  const page = await shots.render({ url: `${origin}/article/${i}`, stealth: false, screenshot }, deadlineIn(30_000));
  if (screenshot && !page.screenshot) throw new Error('no screenshot');
  return { ms: performance.now() - started, bytes: page.screenshot?.length ?? 0 };
};
for (let i = 0; i < 3; i++) await timed(true, `warm-${i}`);
const plain = [];
const withShot = [];
let pngBytes = 0;
for (let i = 0; i < SHOTS; i++) {
  plain.push((await timed(false, `plain-${i}`)).ms);
  const shot = await timed(true, `shot-${i}`);
  withShot.push(shot.ms);
  pngBytes = shot.bytes;
}
await shots.close();

// 2. Memory of the browser's tree while the hogs run, sampled every 20 ms.
async function hogRun(memory) {
  const renderer = new ChromiumRenderer(options(memory));
  await renderer.render({ url: `${origin}/article/warm`, stealth: false }, deadlineIn(30_000));
  pageKills = [];
  let peak = 0;
  const sampler = new TreeSampler((c) => c.includes('--proxy-server=http://127.0.0.1:') && !c.includes('--type='));
  const tree = () => sampler.sample().reduce((sum, p) => sum + p.rss, 0);
  const sampling = setInterval(() => (peak = Math.max(peak, tree())), 20);
  const outcomes = {};
  let next = 0;
  await Promise.all(
    Array.from({ length: IN_FLIGHT }, async () => {
      while (next < URLS) {
        const i = next++;
        const outcome = await renderer.render({ url: `${origin}/hog/${i}`, stealth: false }, deadlineIn(30_000)).then(
          () => 'success',
          (error) => error.code ?? 'error',
        );
        outcomes[outcome] = (outcomes[outcome] ?? 0) + 1;
      }
    }),
  );
  clearInterval(sampling);
  const after = await renderer.render({ url: `${origin}/article/after`, stealth: false }, deadlineIn(30_000)).then(
    () => 'works',
    (error) => error.code,
  );
  await renderer.close();
  return { peakMb: Math.round(peak / MiB), outcomes, after, kills: [...pageKills].sort((a, b) => a - b) };
}
const unbounded = await hogRun(undefined);
const bounds = {
  heapBytes: config.render.heapMb * MiB,
  pageBytes: config.render.pageMemoryMb * MiB,
  totalBytes: config.render.memoryMb * MiB,
};
const bounded = await hogRun(bounds);
server.close();

console.log(
  `screenshot of a ${Math.round(pngBytes / 1024)} KB PNG, warm, ${SHOTS} runs: render + screenshot median ${median(withShot).toFixed(0)} ms (worst ${Math.max(...withShot).toFixed(0)} ms); the same render without it median ${median(plain).toFixed(0)} ms`,
);
console.log(
  `${URLS} URLs allocating ${HOG_MB} MB each, ${IN_FLIGHT} in flight: browser tree peak ${unbounded.peakMb} MB without bounds (${JSON.stringify(unbounded.outcomes)}), ${bounded.peakMb} MB with heap ${config.render.heapMb} / page ${config.render.pageMemoryMb} / total ${config.render.memoryMb} MB (${JSON.stringify(bounded.outcomes)}); next render: ${bounded.after}`,
);
if (bounded.kills.length > 0)
  console.log(
    `pages stopped by the per-page bound of ${config.render.pageMemoryMb} MB at (the watchdog's reading): median ${median(bounded.kills)} MB, worst ${bounded.kills.at(-1)} MB (${bounded.kills.join(', ')})`,
  );
const ok = median(withShot) < 1_500 && bounded.peakMb < config.render.memoryMb && bounded.after === 'works';
console.log(ok ? 'PASS' : 'FAIL');
process.exitCode = ok ? 0 : 1;
