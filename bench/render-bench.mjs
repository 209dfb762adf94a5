#!/usr/bin/env node
// Headless rendering figures (issue "Rendered pages and stealth"), against the built code
// and the system Chromium, all on a local server:
//  1. rendered pages per second with the warm pool (N pages, 4 in flight) against a browser
//     launched per page, two ways: fetcher-mcp's own procedure, step for step (the issue's
//     baseline; target: at least 10x), and this project's renderer started and closed for
//     each page (the stricter figure: the same settle and read, only the pool taken away);
//  2. the added latency of WEBSEARCH_RENDER=auto on a page that needs no rendering (the same
//     static page extracted with mode never and mode auto; the browser must not start);
//  3. peak RSS of the whole process tree (node + Chromium's processes, from /proc) with the
//     browser warm and 4 pages in flight.
//
//   npm run bench:render [-- --pages 40 --json out.json]
import http from 'node:http';
import { readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';

const MiB = 1024 * 1024;
const args = process.argv.slice(2);
const option = (name, fallback) => (args.includes(name) ? args[args.indexOf(name) + 1] : fallback);
const PAGES = Number(option('--pages', 40));
const LAUNCHED = Number(option('--launched', 5));
const STATIC_RUNS = Number(option('--static-runs', 200));
const IN_FLIGHT = 4;
const jsonOut = option('--json', null);

const { loadConfig } = await import('../dist/core/config.js');
const { buildCore } = await import('../dist/compose.js');
const { silentLogger } = await import('../dist/core/logger.js');
const { deadlineIn, withRequestContext } = await import('../dist/core/request-context.js');
const { parseAllowedOrigins } = await import('../dist/core/allowed-origins.js');
const { addressPolicyFor } = await import('../dist/net/address-policy.js');
const { ChromiumRenderer } = await import('../dist/render/chromium-renderer.js');
const { descendants, treeRss } = await import('../dist/render/process-tree.js');

// A single-page app (text written by its script after a fetch) and a static article.
const paragraph =
  'Every small harbour keeps two clocks: the one on the office wall and the sea, which rises and falls twice a day. ';
const SPA =
  '<!doctype html><html><head><title>App</title></head><body><div id="root"></div><script>fetch("/data").then((r) => r.json()).then((d) => { document.getElementById("root").innerHTML = "<article><h1>" + d.title + "</h1><p>" + d.text + "</p></article>"; });</script></body></html>';
const ARTICLE = `<!doctype html><html><head><title>Tides</title></head><body><main><article><h1>Tides</h1>${`<p>${paragraph.repeat(4)}</p>`.repeat(8)}</article></main></body></html>`;
const server = http.createServer((req, res) => {
  if (req.url === '/robots.txt') return res.writeHead(404).end();
  if (req.url === '/data')
    return res
      .writeHead(200, { 'content-type': 'application/json' })
      .end(JSON.stringify({ title: 'Timetable', text: paragraph }));
  if (req.url.startsWith('/spa')) return res.writeHead(200, { 'content-type': 'text/html' }).end(SPA);
  return res.writeHead(200, { 'content-type': 'text/html' }).end(ARTICLE);
});
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const origin = `http://127.0.0.1:${server.address().port}`;
const allowed = `127.0.0.1:${server.address().port}`;

const config = loadConfig({
  env: { WEBSEARCH_ALLOW_PRIVATE_ADDRESSES: allowed },
  overrides: { cache: { ttlMs: 0 }, log: { level: 'silent' }, store: { path: ':memory:' } },
});
if (!config.render.chromiumPath) {
  console.error('no Chromium found (apt-get install chromium, or set CHROMIUM_PATH)');
  process.exit(1);
}
const rendererOptions = {
  executablePath: config.render.chromiumPath,
  pages: IN_FLIGHT,
  policy: addressPolicyFor(parseAllowedOrigins(allowed)),
  connectTimeoutMs: 5_000,
  userAgent: config.fetch.userAgent,
  logger: silentLogger,
};
const renderOnce = async (renderer, i) => {
  const page = await renderer.render({ url: `${origin}/spa/${i}`, stealth: false }, deadlineIn(30_000));
  if (!page.html.includes('Timetable')) throw new Error(`page ${i} was not rendered: ${page.html.slice(0, 200)}`);
};

// 1. The warm pool, 4 in flight.
const pool = new ChromiumRenderer(rendererOptions);
const inFlight = async (count, label) => {
  let next = 0;
  await Promise.all(
    Array.from({ length: IN_FLIGHT }, async () => {
      while (next < count) await renderOnce(pool, `${label}-${next++}`);
    }),
  );
};
await inFlight(IN_FLIGHT, 'warm');
const poolStarted = performance.now();
await inFlight(PAGES, 'pool');
const poolSeconds = (performance.now() - poolStarted) / 1000;

// 3. The same again, sampling the process tree's memory (reading /proc costs CPU, so the
// throughput run above goes unsampled).
let peakRss = treeRss();
const sampler = setInterval(() => (peakRss = Math.max(peakRss, treeRss())), 100);
await inFlight(4 * IN_FLIGHT, 'rss');
clearInterval(sampler);
peakRss = Math.max(peakRss, treeRss());
const browserProcesses = descendants().filter((p) => /chromium|chrome/i.test(p.cmdline)).length;
await pool.close();

// A browser launched (and closed) per page, one page after another.
const launchedStarted = performance.now();
for (let i = 0; i < LAUNCHED; i++) {
  const once = new ChromiumRenderer(rendererOptions);
  await renderOnce(once, `launch-${i}`);
  await once.close();
}
const launchedSeconds = (performance.now() - launchedStarted) / 1000;

// fetcher-mcp's fetch_url (jae-jae/fetcher-mcp, src/services/browserService.ts and
// webContentProcessor.ts), step for step on the same Chromium: launch with its switches, a
// context with its options, init script and media route, `goto` until load, a wait for
// readyState "complete" and then 500 ms "for stability", title and content, close. Its
// Readability + Turndown step is left out: the pool's figure is the render alone. Of its
// extra headers, Accept-Encoding, Connection and the Sec-Fetch-* ones are left out: set on
// every request, they make the page's own fetch fail here, and the page is never written.
const { chromium } = await import('playwright-core');
const FETCHER_MCP_ARGS = [
  '--disable-blink-features=AutomationControlled',
  '--disable-features=IsolateOrigins,site-per-process',
  '--no-sandbox',
  '--disable-setuid-sandbox',
  '--disable-dev-shm-usage',
  '--disable-webgl',
  '--disable-infobars',
  '--window-size=1366,768',
  '--disable-extensions',
];
async function fetcherMcpWay(url) {
  const browser = await chromium.launch({
    executablePath: config.render.chromiumPath,
    headless: true,
    args: FETCHER_MCP_ARGS,
  });
  let page;
  try {
    const context = await browser.newContext({
      javaScriptEnabled: true,
      ignoreHTTPSErrors: true,
      userAgent:
        'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/123.0.0.0 Safari/537.36',
      viewport: { width: 1366, height: 768 },
      deviceScaleFactor: 1,
      isMobile: false,
      hasTouch: false,
      locale: 'en-US',
      timezoneId: 'America/New_York',
      colorScheme: 'light',
      acceptDownloads: true,
      extraHTTPHeaders: {
        Accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8',
        'Accept-Language': 'en-US,en;q=0.9',
        DNT: '1',
        'Upgrade-Insecure-Requests': '1',
        'Cache-Control': 'max-age=0',
      },
    });
    // Functions run in the page; given as source, as this file runs in node.
    await context.addInitScript({
      content: "Object.defineProperty(navigator, 'webdriver', { get: () => false }); window.chrome = { runtime: {} };",
    });
    await context.route('**/*', (route) =>
      ['image', 'stylesheet', 'font', 'media'].includes(route.request().resourceType())
        ? route.abort()
        : route.continue(),
    );
    page = await context.newPage();
    page.setDefaultTimeout(30_000);
    await page.goto(url, { timeout: 30_000, waitUntil: 'load' });
    await page.waitForFunction('window.document.readyState === "complete"', undefined, { timeout: 30_000 });
    await page.waitForTimeout(500);
    await page.title();
    const html = await page.content();
    if (!html.includes('Timetable')) throw new Error(`${url} was not rendered the fetcher-mcp way`);
  } finally {
    await page?.close().catch(() => undefined);
    await browser.close().catch(() => undefined);
  }
}
const fetcherStarted = performance.now();
for (let i = 0; i < LAUNCHED; i++) await fetcherMcpWay(`${origin}/spa/fetcher-${i}`);
const fetcherSeconds = (performance.now() - fetcherStarted) / 1000;

// 2. The static page through the whole extractor, mode never against mode auto.
async function staticRuns(mode) {
  const core = await buildCore({ ...config, render: { ...config.render, mode } }, silentLogger);
  const times = [];
  // One URL under a request's context, as a crawl hands it to the extractor.
  const extract = (url) =>
    withRequestContext({ id: 'req_bench', caller: {}, log: silentLogger }, config.fetch.timeoutMs, (ctx) =>
      core.pages.extract(ctx, url, { format: 'markdown' }),
    );
  try {
    for (let i = 0; i < 20; i++) await extract(`${origin}/article`);
    for (let i = 0; i < STATIC_RUNS; i++) {
      const started = performance.now();
      const outcome = await extract(`${origin}/article?${i}`);
      times.push(performance.now() - started);
      if (!outcome.ok || outcome.rendered)
        throw new Error(`static page ${i}: ${outcome.ok ? 'rendered' : outcome.error.message}`);
    }
    return { times, browsers: descendants().filter((p) => p.cmdline.includes('--proxy-server=')).length };
  } finally {
    await core.close();
  }
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
// Interleaved twice so that drift of a shared machine hits both modes alike.
const never = [];
const auto = [];
let autoBrowsers = 0;
for (let round = 0; round < 2; round++) {
  never.push(...(await staticRuns('never')).times);
  const a = await staticRuns('auto');
  auto.push(...a.times);
  autoBrowsers += a.browsers;
}
server.close();

const cpu = readFileSync('/proc/cpuinfo', 'utf8').match(/model name\s*:\s*(.*)/)?.[1] ?? os.cpus()[0]?.model ?? 'cpu';
const figures = {
  machine: `${os.cpus().length} cores (nproc), ${cpu}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, node ${process.version}, Chromium ${config.render.chromiumPath}`,
  pool_pages: PAGES,
  pool_pages_per_second: Number((PAGES / poolSeconds).toFixed(2)),
  launched_pages: LAUNCHED,
  launched_pages_per_second: Number((LAUNCHED / launchedSeconds).toFixed(2)),
  pool_speedup: Number((PAGES / poolSeconds / (LAUNCHED / launchedSeconds)).toFixed(1)),
  fetcher_mcp_pages_per_second: Number((LAUNCHED / fetcherSeconds).toFixed(2)),
  pool_speedup_over_fetcher_mcp: Number((PAGES / poolSeconds / (LAUNCHED / fetcherSeconds)).toFixed(1)),
  static_runs_per_mode: never.length,
  static_median_ms_never: Number(median(never).toFixed(2)),
  static_median_ms_auto: Number(median(auto).toFixed(2)),
  static_auto_over_never: Number((median(auto) / median(never)).toFixed(3)),
  static_auto_browser_processes: autoBrowsers,
  peak_tree_rss_mb: Number((peakRss / MiB).toFixed(0)),
  browser_processes_warm: browserProcesses,
};
console.log(`machine: ${figures.machine}`);
console.log(`pool (4 in flight): ${figures.pool_pages_per_second} pages/s over ${PAGES} pages`);
console.log(
  `a browser per page, fetcher-mcp's procedure: ${figures.fetcher_mcp_pages_per_second} pages/s; speed-up of the pool ${figures.pool_speedup_over_fetcher_mcp}x (target >= 10x)`,
);
console.log(
  `a browser per page, this renderer started and closed each time: ${figures.launched_pages_per_second} pages/s; speed-up of the pool ${figures.pool_speedup}x`,
);
console.log(
  `static page, median of ${never.length}: never ${figures.static_median_ms_never} ms, auto ${figures.static_median_ms_auto} ms (ratio ${figures.static_auto_over_never}); browser processes started by auto: ${autoBrowsers}`,
);
console.log(
  `peak RSS of node + Chromium (${browserProcesses} browser processes), warm, 4 pages in flight: ${figures.peak_tree_rss_mb} MB`,
);
if (jsonOut) writeFileSync(jsonOut, JSON.stringify(figures, null, 2));
const ok = figures.pool_speedup_over_fetcher_mcp >= 10 && autoBrowsers === 0;
console.log(ok ? 'PASS' : 'FAIL');
process.exitCode = ok ? 0 : 1;
