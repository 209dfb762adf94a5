#!/usr/bin/env node
// Ablation of the HTML pipeline on the benchmark dev pages: for each pass of PIPELINE and
// each rule of RULES (dist/extract/html/pipeline.js), F1 with it switched off beside F1
// with everything on, per dataset (DATASETS in bench/dev-pages.mjs: scrapinghub-dev,
// wcxb-dev, dragnet-dev), per fixed half of each split (bench/dev-scores.mjs: halves by a
// hash of the page id, within each page type) and per WCXB page type; how many pages'
// Markdown it changes; the time per page with it off; and how many times passes failed
// (the pipeline's `failures`, by pass). The verdict column applies the project's rule for
// keeping a pass (docs/extraction.md, "Ablation"), over every split:
//   helps both halves               both halves of some split gain, no half of any loses
//   helps one half                  something gains, nothing loses, no split gains on both
//   helps one split, costs another  both halves of some split gain, a half of another loses
//   costs                           a half loses, no split gains on both
//   no effect                       no half moves by more than 0.00005
//
//   npm run build && node bench/ablation-bench.mjs [options]
//
//   --data DIR           folder holding score.mjs and the dev splits (default: env
//                        BENCH_DATA, else ../shared/bench/extraction beside the project)
//   --only A,B           switch off only these names (default: every pass and rule)
//   --baseline-only      everything on: the figures and the halves' gap, no ablation
//   --max-half-gap X     exit 1 when, with everything on, the F1 of any split's two
//                        halves differ by more than X (the CI gate)
//   --workers N          worker threads, each taking a share of the pages (default: cores)
//   --markdown FILE      also write the table as Markdown (the full table for docs/extraction-history.md; docs/extraction.md keeps a trimmed one)
//   --json FILE          write every figure to FILE
//
// Exit codes: 0 fine, 1 a bound was missed, 2 setup or usage error.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { isMainThread, parentPort, workerData } from 'node:worker_threads';
import { DATASETS, UsageError, commandLine, helpText, readHtml, runOnWorkers } from './dev-pages.mjs';
import { loadScorer, loadTruths, scorePage, summarise } from './dev-scores.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const PIPELINE_JS = path.join(ROOT, 'dist/extract/html/pipeline.js');
/** An F1 change smaller than this is no change (the scorer prints four decimals). */
const EPSILON = 0.00005;
/** The fixed halves of each split (bench/dev-scores.mjs). */
const HALVES = ['A', 'B'];
/** Each dataset's name in the summary line and in the table's column heads. */
const LABELS = {
  'scrapinghub-dev': { name: 'scrapinghub', column: 'SH' },
  'wcxb-dev': { name: 'WCXB', column: 'WCXB' },
  'dragnet-dev': { name: 'dragnet', column: 'DN' },
};
const labelOf = (dataset) => LABELS[dataset] ?? { name: dataset, column: dataset };

if (!isMainThread) {
  // A worker: every configuration on each of its pages, one page read at a time.
  const { runPipeline } = await import(pathToFileURL(PIPELINE_JS).href);
  const scorer = await loadScorer(workerData.data);
  const { pages, configs } = workerData;
  const rows = configs.map(() => []);
  const ms = configs.map(() => 0);
  const changed = configs.map(() => 0);
  const failures = configs.map(() => ({}));
  for (const page of pages) {
    const html = readHtml(page.file);
    let base = null;
    configs.forEach((off, i) => {
      const started = performance.now();
      const { markdown, failures: failed } = runPipeline(html, page.url, { off });
      ms[i] += performance.now() - started;
      for (const { pass } of failed) failures[i][pass] = (failures[i][pass] ?? 0) + 1;
      if (i === 0) base = markdown;
      else if (markdown !== base) changed[i]++;
      rows[i].push({ page, row: scorePage(scorer, page, markdown) });
    });
    parentPort.postMessage({ progress: 1 });
  }
  parentPort.postMessage({ rows, ms, changed, failures });
}

function parseArgs(argv) {
  const opts = {
    data: process.env.BENCH_DATA || path.resolve(ROOT, '../shared/bench/extraction'),
    only: null,
    baselineOnly: false,
    maxHalfGap: null,
    workers: Math.max(1, os.availableParallelism?.() ?? os.cpus().length),
    markdown: null,
    json: null,
  };
  for (const { name: a, value, number: anyNumber } of commandLine(argv)) {
    const number = () => {
      const n = anyNumber();
      if (n < 0) throw new UsageError(`${a} needs a number`);
      return n;
    };
    if (a === '--data') opts.data = path.resolve(value());
    else if (a === '--only')
      opts.only = value()
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean);
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

async function runWorkers(opts, pages, configs) {
  const total = pages.length;
  const results = await runOnWorkers(fileURLToPath(import.meta.url), pages, opts.workers, { data: opts.data, configs });
  return configs.map((_, i) => ({
    rows: results.flatMap((r) => r.rows[i]),
    ms: results.reduce((sum, r) => sum + r.ms[i], 0) / total,
    changed: results.reduce((sum, r) => sum + r.changed[i], 0),
    failures: addCounts(results.map((r) => r.failures[i])),
  }));
}

/** Counts by name, summed: the pass failures of one configuration over the workers. */
function addCounts(counts) {
  const total = {};
  for (const count of counts) for (const [name, n] of Object.entries(count)) total[name] = (total[name] ?? 0) + n;
  return total;
}

/** Pass failures as `n (pass n, ...)`, or 0. */
function failureText(counts) {
  const entries = Object.entries(counts).sort((a, b) => b[1] - a[1]);
  const total = entries.reduce((sum, [, n]) => sum + n, 0);
  return total === 0 ? '0' : `${total} (${entries.map(([pass, n]) => `${pass} ${n}`).join(', ')})`;
}

/** The keep rule over every split, read from the deltas (everything on minus this switched off). */
function verdict(delta) {
  const splits = DATASETS.map((d) => HALVES.map((h) => delta[`${d}:${h}`]));
  const halves = splits.flat();
  const helps = (d) => d > EPSILON;
  const hurts = (d) => d < -EPSILON;
  const gainsOnBoth = splits.some((split) => split.every(helps));
  if (halves.some(hurts)) return gainsOnBoth ? 'helps one split, costs another' : 'costs';
  if (gainsOnBoth) return 'helps both halves';
  return halves.some(helps) ? 'helps one half' : 'no effect';
}

const fmt = (x) => (Number.isFinite(x) ? x.toFixed(4) : '—');
const signed = (x) => (Number.isFinite(x) ? `${x >= 0 ? '+' : ''}${x.toFixed(4)}` : '—');

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  if (!fs.existsSync(PIPELINE_JS)) throw new UsageError('no dist/extract/html/pipeline.js: run `npm run build` first');
  const { PIPELINE, SWITCHES: names } = await import(pathToFileURL(PIPELINE_JS).href);
  if (opts.only)
    for (const n of opts.only)
      if (!names.includes(n)) throw new UsageError(`no pass or rule named ${n} (known: ${names.join(', ')})`);
  const switched = opts.baselineOnly ? [] : (opts.only ?? names);
  const scorer = await loadScorer(opts.data);
  const pages = loadTruths(opts.data);
  const configs = [[], ...switched.map((n) => [n])];
  const started = Date.now();
  const results = await runWorkers(opts, pages, configs);
  const figures = results.map((r) => ({ ...summarise(scorer, r.rows), ms: r.ms, changed: r.changed }));
  const base = figures[0];
  const keys = Object.keys(base).filter((k) => k !== 'ms' && k !== 'changed');
  const failures = results.map((r) => r.failures);
  const rows = switched.map((name, i) => {
    const off = figures[i + 1];
    const delta = Object.fromEntries(keys.map((k) => [k, base[k] - off[k]]));
    const phase = PIPELINE.find((p) => p.name === name)?.phase ?? 'rule';
    return {
      name,
      phase,
      delta,
      changed: off.changed,
      msCost: base.ms - off.ms,
      verdict: verdict(delta),
      failures: failures[i + 1],
    };
  });

  const gap = (d) => Math.abs(base[`${d}:A`] - base[`${d}:B`]);
  const lines = [];
  const splits = DATASETS.map(
    (d) =>
      `${labelOf(d).name} ${fmt(base[d])} (${HALVES.map((h) => `${h} ${fmt(base[`${d}:${h}`])}`).join(', ')}, gap ${fmt(gap(d))})`,
  );
  lines.push(
    `Everything on: ${splits.join('; ')}; ${base.ms.toFixed(1)} ms/page; pass failures ${failureText(failures[0])}.`,
  );
  lines.push(
    `Per type: ${keys
      .filter((k) => k.startsWith('type:'))
      .map((k) => `${k.slice(5)} ${fmt(base[k])}`)
      .join(', ')}.`,
  );
  if (rows.length > 0) {
    const types = keys.filter((k) => k.startsWith('type:'));
    lines.push('');
    lines.push('F1 gained by each pass or rule (F1 with everything on minus F1 with it off; positive: it helps).');
    lines.push('');
    // Per dataset its F1 and its halves' (SH, SH A, SH B, WCXB ..., DN ...), then the WCXB types.
    const columns = [
      ...DATASETS.flatMap((d) => [
        { key: d, head: labelOf(d).column },
        ...HALVES.map((h) => ({ key: `${d}:${h}`, head: `${labelOf(d).column} ${h}` })),
      ]),
      ...types.map((t) => ({ key: t, head: t.slice(5) })),
    ];
    const row = (cells) => `| ${cells.join(' | ')} |`;
    const header = ['name', 'phase', ...columns.map((c) => c.head), 'pages changed', 'ms/page it costs', 'verdict'];
    lines.push(row(header));
    lines.push(row(header.map(() => '---')));
    for (const r of rows)
      lines.push(
        row([
          r.name,
          r.phase,
          ...columns.map((c) => signed(r.delta[c.key])),
          r.changed,
          r.msCost.toFixed(1),
          r.verdict,
        ]),
      );
    const failing = rows.filter((r) => Object.keys(r.failures).length > 0);
    lines.push('');
    lines.push(
      `Pass failures with one switched off: ${failing.length === 0 ? 'none' : failing.map((r) => `${r.name} off ${failureText(r.failures)}`).join('; ')}.`,
    );
  }
  lines.push('');
  lines.push(
    `${pages.length} pages, ${configs.length} configurations, ${opts.workers} workers, ${((Date.now() - started) / 1000).toFixed(0)} s; Node ${process.version}, ${os.cpus()[0]?.model ?? 'cpu'} x ${os.cpus().length}.`,
  );
  const text = lines.join('\n');
  console.log(text);
  if (opts.markdown) fs.writeFileSync(opts.markdown, `${text}\n`);
  if (opts.json)
    fs.writeFileSync(opts.json, `${JSON.stringify({ base: { ...base, failures: failures[0] }, rows }, null, 1)}\n`);

  if (opts.maxHalfGap !== null) {
    // A split whose gap is not a number (no pages in a half) fails too.
    const over = DATASETS.filter((d) => !(gap(d) <= opts.maxHalfGap));
    for (const d of over)
      console.error(`ablation-bench: ${d} halves differ by ${fmt(gap(d))} (bound ${opts.maxHalfGap})`);
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
