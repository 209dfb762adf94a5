#!/usr/bin/env node
// What the reader (GET /r/<url>) costs over POST /api/crawl for the same page: the same
// ~50 KB article from a local fixture server, cache off, one request at a time, the two
// routes interleaved in one run (ABBA order, so drift and warm-up fall on both alike);
// per route the median, p90 and mean latency, and the ratio of the medians.
// Every request goes to 127.0.0.1.
//
//   npm run build && node bench/reader-bench.mjs [--rounds N] [--json FILE]
//
//   --rounds N   measured requests per route (default 300, after 30 of warm-up each)
//   --json FILE  write the figures to FILE
import fs from 'node:fs';
import http from 'node:http';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import { serveSelf, spawnSelfServer } from './spawn-self-server.mjs';

const SELF = fileURLToPath(import.meta.url);

const OVERRIDES = {
  server: { port: 0 },
  fetch: { allowPrivateAddresses: true },
  cache: { ttlMs: 0 },
  auth: { rateLimitRequests: 0 },
  store: { path: ':memory:' },
  log: { level: 'silent' },
  render: { mode: 'never' },
};

function articleHtml() {
  const paragraphs = Array.from(
    { length: 300 },
    (_, i) =>
      `${i % 12 === 0 ? `<h2>Part ${i / 12 + 1}</h2>` : ''}<p>Paragraph ${i} tells of harbours and tides, with a <a href="/ref/${i}">reference</a> and a figure of ${i * 7} metres.</p>`,
  ).join('\n');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Tides of the North Sea</title></head><body><main><article><h1>Tides of the North Sea</h1>${paragraphs}</article></main></body></html>`;
}

function startFixture() {
  const article = Buffer.from(articleHtml());
  const server = http.createServer((req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-length': String(article.length) });
    res.end(article);
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({ url: `http://127.0.0.1:${server.address().port}`, bytes: article.length, close: () => server.close() }),
    ),
  );
}

/** `--serve`: this file as the server process (the built code). */
function serve() {
  return serveSelf(OVERRIDES);
}

function spawnServer() {
  return spawnSelfServer(SELF, []);
}

const ROUTES = {
  crawl: async (server, url) => {
    const res = await fetch(`${server.url}/api/crawl`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ urls: [url] }),
    });
    const json = await res.json();
    if (res.status !== 200 || !json.results[0].success) throw new Error(`/api/crawl answered ${res.status}`);
  },
  reader: async (server, url) => {
    const res = await fetch(`${server.url}/r/${url}`);
    const text = await res.text();
    if (res.status !== 200 || !text.startsWith('Title: ')) throw new Error(`/r/ answered ${res.status}`);
  },
};

async function timed(route, server, url) {
  const started = performance.now();
  await ROUTES[route](server, url);
  return performance.now() - started;
}

function stats(ms) {
  const sorted = [...ms].sort((a, b) => a - b);
  const at = (q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
  return {
    median_ms: +at(0.5).toFixed(2),
    p90_ms: +at(0.9).toFixed(2),
    mean_ms: +(ms.reduce((s, x) => s + x, 0) / ms.length).toFixed(2),
  };
}

async function main() {
  const { values } = parseArgs({
    options: { rounds: { type: 'string' }, json: { type: 'string' }, serve: { type: 'boolean' } },
  });
  if (values.serve) return serve();
  const rounds = Number(values.rounds ?? 300);
  const fixture = await startFixture();
  const server = await spawnServer();
  const samples = { crawl: [], reader: [] };
  try {
    let n = 0;
    const page = () => `${fixture.url}/article?${n++}`;
    for (let i = 0; i < 30; i++) for (const route of ['crawl', 'reader']) await timed(route, server, page());
    for (let i = 0; i < rounds; i++) {
      // ABBA: each route goes first half of the time.
      const order = i % 2 === 0 ? ['crawl', 'reader'] : ['reader', 'crawl'];
      for (const route of order) samples[route].push(await timed(route, server, page()));
    }
  } finally {
    await server.stop();
    fixture.close();
  }
  const crawl = stats(samples.crawl);
  const reader = stats(samples.reader);
  const figures = {
    page_bytes: fixture.bytes,
    rounds,
    crawl,
    reader,
    ratio_of_medians: +(reader.median_ms / crawl.median_ms).toFixed(3),
    ratio_of_means: +(reader.mean_ms / crawl.mean_ms).toFixed(3),
  };
  console.log(`page ${fixture.bytes} bytes, ${rounds} requests per route, interleaved (ABBA)`);
  console.log(`POST /api/crawl  median ${crawl.median_ms} ms  p90 ${crawl.p90_ms} ms  mean ${crawl.mean_ms} ms`);
  console.log(`GET  /r/<url>    median ${reader.median_ms} ms  p90 ${reader.p90_ms} ms  mean ${reader.mean_ms} ms`);
  console.log(`reader / crawl: ${figures.ratio_of_medians} (medians), ${figures.ratio_of_means} (means)`);
  if (values.json) fs.writeFileSync(values.json, `${JSON.stringify(figures, null, 2)}\n`);
}

await main();
