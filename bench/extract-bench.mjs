#!/usr/bin/env node
// Extraction benchmark on the two dev splits of the main-content benchmarks:
//  - speed: pages per second of our HTML cascade (built code in dist/) beside the baseline,
//    plain Readability on jsdom + plain Turndown, measured in the same run (ratio reported);
//  - quality: precision / recall / F1 of both with the datasets' own scorer (score.mjs),
//    F1 per WCXB page type, and the share of WCXB boilerplate snippets that leak into the
//    output ("without" snippets found).
//
//   npm run build && node bench/extract-bench.mjs [--data DIR] [--json out.json]
//        [--quality-only] [--skip-baseline] [--min-f1 X] [--min-f1-scrapinghub X]
//        [--min-f1-wcxb X] [--min-type-f1 X]
//
// --data (or BENCH_DATA) is the folder holding score.mjs, scrapinghub-dev/ and wcxb-dev/
// (default ../shared/bench/extraction beside the project). --quality-only scores ours only
// (the CI gate); the --min-* options exit 1 when a figure falls below its floor.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import zlib from 'node:zlib';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const DATASETS = ['scrapinghub-dev', 'wcxb-dev'];

function parseArgs(argv) {
  const opts = { data: process.env.BENCH_DATA || path.resolve(ROOT, '../shared/bench/extraction'), json: null, qualityOnly: false, skipBaseline: false, floors: {} };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const value = () => {
      const v = argv[++i];
      if (v === undefined) throw new Error(`${a} needs a value`);
      return v;
    };
    const number = () => {
      const n = Number(value());
      if (!Number.isFinite(n)) throw new Error(`${a} needs a number`);
      return n;
    };
    if (a === '--data') opts.data = path.resolve(value());
    else if (a === '--json') opts.json = value();
    else if (a === '--quality-only') opts.qualityOnly = true;
    else if (a === '--skip-baseline') opts.skipBaseline = true;
    else if (a === '--min-f1') opts.floors.mean = number();
    else if (a === '--min-f1-scrapinghub') opts.floors['scrapinghub-dev'] = number();
    else if (a === '--min-f1-wcxb') opts.floors['wcxb-dev'] = number();
    else if (a === '--min-type-f1') opts.floors.type = number();
    else throw new Error(`unknown option ${a}`);
  }
  return opts;
}

function loadPages(dir) {
  const pages = [];
  for (const name of fs.readdirSync(dir).sort()) {
    if (!name.endsWith('.json') || name.startsWith('_')) continue;
    const id = name.slice(0, -5);
    const truth = JSON.parse(fs.readFileSync(path.join(dir, name), 'utf8'));
    const plain = path.join(dir, `${id}.html`);
    const gz = `${plain}.gz`;
    const bytes = fs.existsSync(plain) ? fs.readFileSync(plain) : fs.existsSync(gz) ? zlib.gunzipSync(fs.readFileSync(gz)) : null;
    if (!bytes) continue;
    pages.push({ id, url: truth.url ?? '', type: truth.page_type ?? truth.wcxb_meta?.page_type ?? null, html: bytes.toString('utf8') });
  }
  return pages;
}

/** Converts every page with `extract`, timing each; failures are counted, not fatal. */
async function timePass(pages, extract) {
  const times = [];
  let failures = 0;
  const started = performance.now();
  for (const page of pages) {
    const t = performance.now();
    try {
      await extract(page.html, page.url);
    } catch {
      failures += 1;
    }
    times.push(performance.now() - t);
  }
  const total = (performance.now() - started) / 1000;
  times.sort((a, b) => a - b);
  return {
    pages: pages.length,
    failures,
    seconds: round(total, 3),
    pages_per_second: round(pages.length / total, 2),
    mean_ms: round((total * 1000) / pages.length, 2),
    median_ms: round(times[Math.floor(times.length / 2)], 2),
    max_ms: round(times[times.length - 1], 2),
    over_1s: times.filter((t) => t > 1000).length,
  };
}

function round(n, digits) {
  const f = 10 ** digits;
  return Math.round(n * f) / f;
}

/** Runs score.mjs for one extractor over both datasets; returns its per-dataset results. */
function score(data, adapter, label) {
  const out = path.join(os.tmpdir(), `extract-bench-${label}-${process.pid}.json`);
  const args = [path.join(data, 'score.mjs'), ...DATASETS.flatMap((d) => ['--pages', path.join(data, d)]), '--extractor', adapter, '--out', out, '--per-page', '--quiet'];
  process.stderr.write(`scoring ${label} ...\n`);
  const run = spawnSync(process.execPath, args, { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (run.status !== 0) throw new Error(`score.mjs failed for ${label}: ${run.stderr || run.stdout}`);
  const results = JSON.parse(fs.readFileSync(out, 'utf8'));
  fs.rmSync(out, { force: true });
  const meanLine = /^F1 ([\d.]+)/m.exec(run.stdout);
  return { datasets: results, meanF1: meanLine ? Number(meanLine[1]) : null };
}

/** Figures of one scored extractor: P/R/F1 per dataset, F1 per WCXB page type, leaks. */
function summarise(scored, typesById) {
  const out = { mean_f1: scored.meanF1, datasets: {} };
  for (const d of scored.datasets) {
    const entry = { pages: d.pages, errors: d.errors, precision: round(d.precision, 4), recall: round(d.recall, 4), f1: round(d.f1, 4), ms_per_page: round(d.timing.mean_ms, 1), max_ms: round(d.timing.max_ms, 1) };
    if (d.metric === 'wcxb') {
      entry.boilerplate_leak = round(d.without, 4);
      const byType = {};
      for (const row of d.rows) {
        const type = typesById.get(`${d.dataset}/${row.id}`) ?? 'unknown';
        (byType[type] ??= []).push(row.f1 ?? 0);
      }
      entry.f1_by_type = Object.fromEntries(
        Object.entries(byType)
          .sort()
          .map(([type, list]) => [type, { pages: list.length, f1: round(list.reduce((a, b) => a + b, 0) / list.length, 4) }]),
      );
    }
    out.datasets[d.dataset] = entry;
  }
  return out;
}

function printQuality(label, q) {
  console.log(`\n${label}: mean F1 ${q.mean_f1}`);
  for (const [name, d] of Object.entries(q.datasets)) {
    console.log(`  ${name.padEnd(16)} P ${d.precision.toFixed(4)}  R ${d.recall.toFixed(4)}  F1 ${d.f1.toFixed(4)}  ${d.ms_per_page} ms/page (max ${d.max_ms})${d.boilerplate_leak !== undefined ? `  boilerplate leak ${(d.boilerplate_leak * 100).toFixed(1)}%` : ''}`);
    for (const [type, t] of Object.entries(d.f1_by_type ?? {})) console.log(`      ${type.padEnd(14)} ${String(t.pages).padStart(4)} pages  F1 ${t.f1.toFixed(4)}`);
  }
}

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  if (!fs.existsSync(path.join(opts.data, 'score.mjs'))) throw new Error(`no score.mjs in ${opts.data}: pass --data or BENCH_DATA`);
  // score.mjs takes a path; import() here takes a URL.
  const ours = path.join(ROOT, 'bench/adapters/ours.mjs');
  const baseline = path.join(ROOT, 'bench/adapters/baseline-jsdom.mjs');
  const pages = DATASETS.flatMap((d) => loadPages(path.join(opts.data, d)).map((p) => ({ ...p, dataset: d })));
  const typesById = new Map(pages.map((p) => [`${p.dataset}/${p.id}`, p.type]));
  const report = {
    date: new Date().toISOString(),
    machine: { cpus: os.cpus().length, cpu: os.cpus()[0]?.model ?? 'unknown', memory_gib: Math.round(os.totalmem() / 2 ** 30), node: process.version },
    pages: pages.length,
  };

  if (!opts.qualityOnly) {
    const oursMod = await import(pathToFileURL(ours).href);
    const baseMod = opts.skipBaseline ? null : await import(pathToFileURL(baseline).href);
    const warm = pages.filter((_, i) => i % 20 === 0);
    process.stderr.write(`warming up on ${warm.length} pages ...\n`);
    await timePass(warm, oursMod.default);
    if (baseMod) await timePass(warm, baseMod.default);
    process.stderr.write(`timing ours on ${pages.length} pages ...\n`);
    const speedOurs = await timePass(pages, oursMod.default);
    const speed = { ours: speedOurs };
    if (baseMod) {
      process.stderr.write(`timing the jsdom baseline on ${pages.length} pages ...\n`);
      speed.baseline = await timePass(pages, baseMod.default);
      speed.ratio = round(speedOurs.pages_per_second / speed.baseline.pages_per_second, 2);
    }
    report.speed = speed;
    console.log(`\nspeed (${pages.length} pages, ${report.machine.cpus} x ${report.machine.cpu}, node ${process.version})`);
    console.log(`  ours      ${speedOurs.pages_per_second} pages/s  mean ${speedOurs.mean_ms} ms  max ${speedOurs.max_ms} ms  failures ${speedOurs.failures}  over 1 s: ${speedOurs.over_1s}`);
    if (speed.baseline) {
      console.log(`  baseline  ${speed.baseline.pages_per_second} pages/s  mean ${speed.baseline.mean_ms} ms  max ${speed.baseline.max_ms} ms  failures ${speed.baseline.failures}`);
      console.log(`  ratio ours/baseline: ${speed.ratio}x (target >= 2)`);
    }
  }

  report.quality = { ours: summarise(score(opts.data, ours, 'ours'), typesById) };
  if (!opts.qualityOnly && !opts.skipBaseline) report.quality.baseline = summarise(score(opts.data, baseline, 'baseline'), typesById);
  printQuality('ours', report.quality.ours);
  if (report.quality.baseline) printQuality('baseline (Readability + jsdom + Turndown)', report.quality.baseline);

  if (opts.json) fs.writeFileSync(opts.json, `${JSON.stringify(report, null, 2)}\n`);

  const problems = [];
  const q = report.quality.ours;
  if (opts.floors.mean !== undefined && q.mean_f1 < opts.floors.mean) problems.push(`mean F1 ${q.mean_f1} < floor ${opts.floors.mean}`);
  for (const d of DATASETS) {
    const floor = opts.floors[d];
    if (floor !== undefined && q.datasets[d].f1 < floor) problems.push(`${d} F1 ${q.datasets[d].f1} < floor ${floor}`);
  }
  if (opts.floors.type !== undefined) {
    for (const [type, t] of Object.entries(q.datasets['wcxb-dev']?.f1_by_type ?? {})) {
      if (t.f1 < opts.floors.type) problems.push(`wcxb ${type} F1 ${t.f1} < floor ${opts.floors.type}`);
    }
  }
  if (problems.length > 0) {
    console.log(`\nQUALITY GATE FAILED:\n  ${problems.join('\n  ')}`);
    process.exitCode = 1;
  } else if (Object.keys(opts.floors).length > 0) {
    console.log('\nquality gate passed');
  }
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exitCode = 2;
});
