#!/usr/bin/env node
// Ablation of the HTML pipeline on the benchmark dev pages: for each pass of PIPELINE and
// each rule of RULES (dist/extract/html/pipeline.js), F1 with it switched off beside F1
// with everything on, per dataset, per fixed half of each split (bench/dev-scores.mjs:
// halves by a hash of the page id, within each page type) and per WCXB page type; how
// many pages' Markdown it changes; and the time per page with it off. The verdict column
// applies the project's rule for keeping a pass (docs/extraction.md, "Ablation").
//
//   npm run build && node bench/ablation-bench.mjs [options]
//
//   --data DIR           folder holding score.mjs and the dev splits (default: env
//                        BENCH_DATA, else ../shared/bench/extraction beside the project)
//   --only A,B           switch off only these names (default: every pass and rule)
//   --baseline-only      everything on: the figures and the halves' gap, no ablation
//   --max-half-gap X     exit 1 when, with everything on, the F1 of a split's two halves
//                        differ by more than X (the CI gate)
//   --workers N          worker threads, each taking a share of the pages (default: cores)
//   --markdown FILE      also write the table as Markdown (for docs/extraction.md)
//   --json FILE          write every figure to FILE
//
// Exit codes: 0 fine, 1 a bound was missed, 2 setup or usage error.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads';
import { UsageError, commandLine, helpText, readHtml } from './dev-pages.mjs';
import { loadScorer, loadTruths, scorePage, summarise } from './dev-scores.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const PIPELINE_JS = path.join(ROOT, 'dist/extract/html/pipeline.js');
/** An F1 change smaller than this is no change (the scorer prints four decimals). */
const EPSILON = 0.00005;

if (!isMainThread) {
  // A worker: every configuration on each of its pages, one page read at a time.
  const { runPipeline } = await import(pathToFileURL(PIPELINE_JS).href);
  const scorer = await loadScorer(workerData.data);
  const { pages, configs } = workerData;
  const rows = configs.map(() => []);
  const ms = configs.map(() => 0);
  const changed = configs.map(() => 0);
  for (const page of pages) {
    const html = readHtml(page.file);
    let base = null;
    configs.forEach((off, i) => {
      const started = performance.now();
      const { markdown } = runPipeline(html, page.url, { off });
      ms[i] += performance.now() - started;
      if (i === 0) base = markdown;
      else if (markdown !== base) changed[i]++;
      rows[i].push({ page, row: scorePage(scorer, page, markdown) });
    });
    parentPort.postMessage({ progress: 1 });
  }
  parentPort.postMessage({ rows, ms, changed });
}

function parseArgs(argv) {
  const opts = {
    data: process.env.BENCH_DATA || path.resolve(ROOT, '../shared/bench/extraction'),
    only: null, baselineOnly: false, maxHalfGap: null, workers: Math.max(1, os.availableParallelism?.() ?? os.cpus().length),
    markdown: null, json: null,
  };
  for (const { name: a, value, number: anyNumber } of commandLine(argv)) {
    const number = () => {
      const n = anyNumber();
      if (n < 0) throw new UsageError(`${a} needs a number`);
      return n;
    };
    if (a === '--data') opts.data = path.resolve(value());
    else if (a === '--only') opts.only = value().split(',').map((s) => s.trim()).filter(Boolean);
    else if (a === '--baseline-only') opts.baselineOnly = true;
    else if (a === '--max-half-gap') opts.maxHalfGap = number();
    else if (a === '--workers') opts.workers = Math.max(1, Math.floor(number()));
    else if (a === '--markdown') opts.markdown = path.resolve(value());
    else if (a === '--json') opts.json = path.resolve(value());
    else if (a === '-h' || a === '--help') {
      console.log(helpText(import.meta.url));
      process.exit(0);
    } else throw new UsageError(`unknown option ${a} (--help lists them)`);
  }
  return opts;
}

function runWorkers(opts, pages, configs) {
  const shares = Array.from({ length: Math.min(opts.workers, pages.length) }, () => []);
  pages.forEach((page, i) => shares[i % shares.length].push(page));
  let done = 0;
  const total = pages.length;
  return Promise.all(
    shares.map(
      (share) =>
        new Promise((resolve, reject) => {
          const worker = new Worker(fileURLToPath(import.meta.url), { workerData: { data: opts.data, pages: share, configs } });
          worker.on('message', (message) => {
            if (message.progress) {
              done++;
              if (process.stderr.isTTY) process.stderr.write(`\r${done}/${total} pages`);
            } else resolve(message);
          });
          worker.on('error', reject);
          worker.on('exit', (code) => code !== 0 && reject(new Error(`a worker exited with ${code}`)));
        }),
    ),
  ).then((results) => {
    if (process.stderr.isTTY) process.stderr.write('\n');
    return configs.map((_, i) => ({
      rows: results.flatMap((r) => r.rows[i]),
      ms: results.reduce((sum, r) => sum + r.ms[i], 0) / total,
      changed: results.reduce((sum, r) => sum + r.changed[i], 0),
    }));
  });
}

/** The keep rule, read from the deltas (everything on minus this switched off). */
function verdict(delta) {
  const halves = ['scrapinghub-dev:A', 'scrapinghub-dev:B', 'wcxb-dev:A', 'wcxb-dev:B'].map((k) => delta[k]);
  const helps = (d) => d > EPSILON;
  const hurts = (d) => d < -EPSILON;
  if (halves.every((d) => !helps(d) && !hurts(d))) return 'no effect';
  const sh = halves.slice(0, 2);
  const wc = halves.slice(2);
  if (halves.some(hurts)) {
    const both = (pair) => pair.every(helps);
    return both(sh) || both(wc) ? 'helps one split, costs the other' : 'costs';
  }
  if (sh.every(helps) || wc.every(helps)) return 'helps both halves';
  return 'helps one half';
}

const fmt = (x) => (Number.isFinite(x) ? x.toFixed(4) : '—');
const signed = (x) => (Number.isFinite(x) ? `${x >= 0 ? '+' : ''}${x.toFixed(4)}` : '—');

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  if (!fs.existsSync(PIPELINE_JS)) throw new UsageError('no dist/extract/html/pipeline.js: run `npm run build` first');
  const { PIPELINE, SWITCHES: names } = await import(pathToFileURL(PIPELINE_JS).href);
  if (opts.only) for (const n of opts.only) if (!names.includes(n)) throw new UsageError(`no pass or rule named ${n} (known: ${names.join(', ')})`);
  const switched = opts.baselineOnly ? [] : (opts.only ?? names);
  const scorer = await loadScorer(opts.data);
  const pages = loadTruths(opts.data);
  const configs = [[], ...switched.map((n) => [n])];
  const started = Date.now();
  const results = await runWorkers(opts, pages, configs);
  const figures = results.map((r) => ({ ...summarise(scorer, r.rows), ms: r.ms, changed: r.changed }));
  const base = figures[0];
  const keys = Object.keys(base).filter((k) => k !== 'ms' && k !== 'changed');
  const rows = switched.map((name, i) => {
    const off = figures[i + 1];
    const delta = Object.fromEntries(keys.map((k) => [k, base[k] - off[k]]));
    const phase = PIPELINE.find((p) => p.name === name)?.phase ?? 'rule';
    return { name, phase, delta, changed: off.changed, msCost: base.ms - off.ms, verdict: verdict(delta) };
  });

  const gap = (d) => Math.abs(base[`${d}:A`] - base[`${d}:B`]);
  const lines = [];
  lines.push(`Everything on: scrapinghub ${fmt(base['scrapinghub-dev'])} (A ${fmt(base['scrapinghub-dev:A'])}, B ${fmt(base['scrapinghub-dev:B'])}, gap ${fmt(gap('scrapinghub-dev'))}); ` +
    `WCXB ${fmt(base['wcxb-dev'])} (A ${fmt(base['wcxb-dev:A'])}, B ${fmt(base['wcxb-dev:B'])}, gap ${fmt(gap('wcxb-dev'))}); ${base.ms.toFixed(1)} ms/page.`);
  lines.push(`Per type: ${keys.filter((k) => k.startsWith('type:')).map((k) => `${k.slice(5)} ${fmt(base[k])}`).join(', ')}.`);
  if (rows.length > 0) {
    const types = keys.filter((k) => k.startsWith('type:'));
    lines.push('');
    lines.push('F1 gained by each pass or rule (F1 with everything on minus F1 with it off; positive: it helps).');
    lines.push('');
    lines.push(`| name | phase | SH | SH A | SH B | WCXB | WCXB A | WCXB B | ${types.map((t) => t.slice(5)).join(' | ')} | pages changed | ms/page it costs | verdict |`);
    lines.push(`|${' --- |'.repeat(10 + types.length)}`);
    for (const r of rows) {
      const d = r.delta;
      lines.push(`| ${r.name} | ${r.phase} | ${signed(d['scrapinghub-dev'])} | ${signed(d['scrapinghub-dev:A'])} | ${signed(d['scrapinghub-dev:B'])} | ${signed(d['wcxb-dev'])} | ${signed(d['wcxb-dev:A'])} | ${signed(d['wcxb-dev:B'])} | ${types.map((t) => signed(d[t])).join(' | ')} | ${r.changed} | ${r.msCost.toFixed(1)} | ${r.verdict} |`);
    }
  }
  lines.push('');
  lines.push(`${pages.length} pages, ${configs.length} configurations, ${opts.workers} workers, ${((Date.now() - started) / 1000).toFixed(0)} s; Node ${process.version}, ${os.cpus()[0]?.model ?? 'cpu'} x ${os.cpus().length}.`);
  const text = lines.join('\n');
  console.log(text);
  if (opts.markdown) fs.writeFileSync(opts.markdown, `${text}\n`);
  if (opts.json) fs.writeFileSync(opts.json, `${JSON.stringify({ base, rows }, null, 1)}\n`);

  if (opts.maxHalfGap !== null) {
    const over = ['scrapinghub-dev', 'wcxb-dev'].filter((d) => gap(d) > opts.maxHalfGap);
    for (const d of over) console.error(`ablation-bench: ${d} halves differ by ${fmt(gap(d))} (bound ${opts.maxHalfGap})`);
    if (over.length > 0) process.exit(1);
    console.log(`halves' gap within ${opts.maxHalfGap}: yes`);
  }
}

if (isMainThread) {
  await main().catch((error) => {
    console.error(`ablation-bench: ${error.message}`);
    process.exit(error instanceof UsageError ? 2 : 1);
  });
}
