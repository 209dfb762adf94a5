#!/usr/bin/env node
// Pool parity: every benchmark dev page (the dev splits of DATASETS in bench/dev-pages.mjs:
// scrapinghub-dev, wcxb-dev, dragnet-dev) converted through the worker pool (the path of the
// servers) and through `convert` on this thread (the built code in dist/), with the
// default settings of the pool (threads, memory bound). Fails on any difference, on any
// page the pool refuses, and on any page the input bounds would cut; prints the largest
// element count and nesting depth seen (the evidence behind the bounds, docs/extraction.md).
//
//   npm run build && node bench/pool-parity.mjs [--data DIR]
//
//   --data DIR   folder holding scrapinghub-dev/, wcxb-dev/ and dragnet-dev/ (default:
//                env BENCH_DATA, else ../shared/bench/extraction beside the project)
//
// Exit codes: 0 identical, 1 a difference (listed), 2 setup or usage error.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { DATASETS, UsageError, commandLine, helpText, listPages, readBytes } from './dev-pages.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const built = (file) => pathToFileURL(path.join(ROOT, 'dist', file)).href;

function parseArgs(argv) {
  let data = process.env.BENCH_DATA || path.resolve(ROOT, '../shared/bench/extraction');
  for (const { name, value } of commandLine(argv)) {
    if (name === '--data') data = path.resolve(value());
    else if (name === '-h' || name === '--help') {
      console.log(helpText(import.meta.url));
      process.exit(0);
    } else throw new UsageError(`unknown option ${name} (--help lists them)`);
  }
  return { data };
}

async function main() {
  const { data } = parseArgs(process.argv.slice(2));
  if (!fs.existsSync(path.join(ROOT, 'dist/workers/convert-worker.js')))
    throw new UsageError('dist/ is missing: run `npm run build` first');
  const pages = listPages(data);
  const [{ ConvertPool }, { InThreadConverter }, { loadConfig }, { measureHtml, HTML_BOUNDS }, { deadlineIn }] =
    await Promise.all([
      import(built('workers/convert-pool.js')),
      import(built('workers/in-thread-converter.js')),
      import(built('core/config.js')),
      import(built('extract/html/read/input-bounds.js')),
      import(built('core/request-context.js')),
    ]);
  const config = loadConfig({ env: {}, overrides: { store: { path: ':memory:' } } });
  const pool = new ConvertPool(config.convert);
  const local = new InThreadConverter();
  const inputOf = (page) => ({
    bytes: readBytes(page.file),
    contentType: 'text/html; charset=utf-8',
    url: page.url,
    format: 'markdown',
    headers: {},
  });
  const outcome = (promise) =>
    promise.then(
      (output) => JSON.stringify(output),
      (err) => `error ${err.code ?? ''}: ${err.message}`,
    );
  const differences = [];
  const largest = { elements: { n: 0, page: '' }, depth: { n: 0, page: '' } };
  const cut = [];
  let next = 0;
  let done = 0;
  const started = performance.now();
  // The pool converts a few pages ahead while this thread converts one.
  const worker = async () => {
    while (next < pages.length) {
      const page = pages[next++];
      const name = `${page.dataset}/${page.id}`;
      const input = inputOf(page);
      const shape = measureHtml(Buffer.from(input.bytes).toString('utf8'));
      if (shape.cutAt !== -1) cut.push(name);
      for (const key of ['elements', 'depth'])
        if (shape[key] > largest[key].n) largest[key] = { n: shape[key], page: name };
      const pooled = outcome(pool.convert(input, deadlineIn(120_000)));
      const inThread = await outcome(local.convert(inputOf(page), deadlineIn(120_000)));
      if ((await pooled) !== inThread) differences.push(name);
      done += 1;
      if (done % 50 === 0 || done === pages.length) process.stderr.write(`\r  ${done}/${pages.length} pages`);
    }
  };
  await Promise.all(Array.from({ length: config.convert.threads }, worker));
  process.stderr.write('\n');
  await pool.close();
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  const perDataset = DATASETS.map((d) => `${d} ${pages.filter((p) => p.dataset === d).length}`).join(', ');
  console.log(
    `pool parity: ${pages.length} pages (${perDataset}), ${differences.length} differences (${config.convert.threads} threads, ${config.convert.memoryMb} MB each, ${seconds} s)`,
  );
  console.log(
    `largest shapes: ${largest.elements.n} elements (${largest.elements.page}), depth ${largest.depth.n} (${largest.depth.page}); bounds ${HTML_BOUNDS.maxElements} elements, depth ${HTML_BOUNDS.maxDepth}`,
  );
  for (const name of differences) console.log(`  differs: ${name}`);
  for (const name of cut) console.log(`  cut by the input bounds: ${name}`);
  return differences.length === 0 && cut.length === 0 ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (err) => {
    console.error(err instanceof UsageError ? `pool-parity: ${err.message}` : err);
    process.exit(2);
  },
);
