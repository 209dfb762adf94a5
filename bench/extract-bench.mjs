#!/usr/bin/env node
// Extraction benchmark on the dev splits of the main-content benchmarks (scrapinghub-dev,
// wcxb-dev and dragnet-dev: DATASETS in bench/dev-pages.mjs):
//  - speed: ms per page of our HTML pipeline (the built code in dist/) beside the baselines
//    in the same run: plain Readability + Turndown on linkedom (the field's baseline row)
//    and, for `npm run bench:extract`, on jsdom. A warm-up pass over a sample, then timed
//    passes over every page, the extractors taking turns every 25 pages; only the
//    extractor call is timed (each page is read and gunzipped outside it); a page that
//    throws is counted, not fatal;
//  - quality: precision / recall / F1 of ours and of the linkedom baseline with the
//    datasets' own scorer (score.mjs, run with the adapters in bench/adapters/) per
//    dataset and their mean, F1 per WCXB page type, and the share of WCXB boilerplate
//    snippets that leak into the output ("without" snippets found; only WCXB has page
//    types and snippets).
//
//   npm run build && node bench/extract-bench.mjs [options]
//
//   --data DIR              folder holding score.mjs, scrapinghub-dev/, wcxb-dev/ and
//                           dragnet-dev/ (default: env BENCH_DATA, else
//                           ../shared/bench/extraction beside the project)
//   --json FILE             write every figure to FILE
//   --passes N              timed passes over all pages (default 1)
//   --warmup-every N        warm-up pass over every N-th page (default 20; 0 = none)
//   --quality-only          leave the jsdom baseline out (`npm run bench:quality`, the CI
//                           quality gate): ours and the linkedom baseline only
//   --score-jsdom           also score the jsdom baseline's quality (slow: minutes)
//   --skip-baseline         ours only
//   --min-f1 X              floors: exit 1 when our mean F1 over the datasets (the
//   --min-f1-scrapinghub X  scorer's final `F1` line), a dataset's F1, or the F1 of any
//   --min-f1-wcxb X         WCXB page type falls below
//   --min-f1-dragnet X
//   --min-type-f1 X
//
// Exit codes: 0 fine, 1 a floor was missed, 2 setup or usage error.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { DATASETS, UsageError, commandLine, helpText, listPages, readHtml } from './dev-pages.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const BUILT = path.join(ROOT, 'dist/index.js');
const OURS = path.join(ROOT, 'bench/adapters/ours.mjs');
/** The one split whose pages carry a page type and boilerplate snippets (per-type F1, leaks). */
const WCXB = 'wcxb-dev';
/** A dataset's name in options and output: `wcxb-dev` -> `wcxb`. */
const shortName = (dataset) => dataset.replace(/-dev$/, '');
/** The per-dataset floors: `--min-f1-scrapinghub`, `--min-f1-wcxb`, `--min-f1-dragnet`. */
const DATASET_FLOORS = new Map(DATASETS.map((d) => [`--min-f1-${shortName(d)}`, d]));
const BASELINES = {
  linkedom: {
    adapter: path.join(ROOT, 'bench/adapters/baseline-linkedom.mjs'),
    label: 'Readability + linkedom + Turndown',
  },
  jsdom: { adapter: path.join(ROOT, 'bench/adapters/baseline-jsdom.mjs'), label: 'Readability + jsdom + Turndown' },
};

function parseArgs(argv) {
  const opts = {
    data: process.env.BENCH_DATA || path.resolve(ROOT, '../shared/bench/extraction'),
    json: null,
    passes: 1,
    warmupEvery: 20,
    qualityOnly: false,
    scoreJsdom: false,
    skipBaseline: false,
    floors: {},
  };
  for (const { name: a, value, number, count } of commandLine(argv)) {
    if (a === '--data') opts.data = path.resolve(value());
    else if (a === '--json') opts.json = path.resolve(value());
    else if (a === '--passes') opts.passes = Math.max(1, count());
    else if (a === '--warmup-every') opts.warmupEvery = count();
    else if (a === '--quality-only') opts.qualityOnly = true;
    else if (a === '--skip-baseline') opts.skipBaseline = true;
    else if (a === '--score-jsdom') opts.scoreJsdom = true;
    else if (a === '--min-f1') opts.floors.mean = number();
    else if (DATASET_FLOORS.has(a)) opts.floors[DATASET_FLOORS.get(a)] = number();
    else if (a === '--min-type-f1') opts.floors.type = number();
    else if (a === '-h' || a === '--help') {
      console.log(helpText(import.meta.url));
      process.exit(0);
    } else throw new UsageError(`unknown option ${a} (see --help)`);
  }
  return opts;
}

// ------------------------------------------------------------------------------ speed

/** Converts every page with `extract`, timing each call; failures are counted, not fatal. */
async function timePass(pages, extract, label) {
  const times = [];
  const failures = [];
  for (const [i, page] of pages.entries()) {
    const html = readHtml(page.file);
    const t = performance.now();
    try {
      await extract(html, page.url);
    } catch (err) {
      failures.push({ page: `${page.dataset}/${page.id}`, error: String(err?.message ?? err).slice(0, 200) });
    }
    times.push({ dataset: page.dataset, ms: performance.now() - t });
    // Let the event loop turn (untimed): jsdom frees a closed window only from a task it
    // queues, so a loop that never yields keeps every page's DOM and runs out of memory.
    await new Promise((resolve) => setTimeout(resolve, 0));
    if (label !== undefined && ((i + 1) % 50 === 0 || i + 1 === pages.length))
      process.stderr.write(`\r  ${label}: ${i + 1}/${pages.length} pages`);
  }
  if (label !== undefined) process.stderr.write('\n');
  return { times, failures };
}

function speedFigures(timed, failures, passes) {
  const times = timed.map((t) => t.ms);
  const total = times.reduce((a, b) => a + b, 0) / 1000;
  const sorted = [...times].sort((a, b) => a - b);
  const byDataset = {};
  for (const t of timed) (byDataset[t.dataset] ??= []).push(t.ms);
  return {
    datasets: Object.fromEntries(
      Object.entries(byDataset).map(([d, list]) => [
        d,
        { mean_ms: round(list.reduce((a, b) => a + b, 0) / list.length, 2), max_ms: round(Math.max(...list), 2) },
      ]),
    ),
    pages: times.length / passes,
    passes,
    failures: failures.length,
    failed_pages: [...new Set(failures.map((f) => f.page))].slice(0, 20),
    first_failures: failures.slice(0, 5),
    seconds: round(total, 3),
    pages_per_second: round(times.length / total, 2),
    mean_ms: round((total * 1000) / times.length, 2),
    median_ms: round(sorted[Math.floor(sorted.length / 2)], 2),
    p95_ms: round(sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * 0.95) - 1)], 2),
    max_ms: round(sorted[sorted.length - 1], 2),
    over_1s: sorted.filter((t) => t > 1000).length,
  };
}

/** Pages per chunk when the extractors take turns (see `measure`). */
const CHUNK = 25;

/**
 * Times every extractor over every page. The extractors take turns chunk by chunk (25
 * pages of ours, the same 25 of the baseline, the next 25 ...), so that a change of load on
 * a shared machine during the run weighs on both alike, as the ratio needs.
 */
async function measure(pages, extractors, opts) {
  const warm = opts.warmupEvery > 0 ? pages.filter((_, i) => i % opts.warmupEvery === 0) : [];
  for (const [label, extract] of Object.entries(extractors)) {
    if (warm.length > 0) await timePass(warm, extract, `${label} warm-up`);
  }
  const runs = Object.fromEntries(Object.keys(extractors).map((label) => [label, { times: [], failures: [] }]));
  for (let pass = 1; pass <= opts.passes; pass++) {
    for (let start = 0; start < pages.length; start += CHUNK) {
      const chunk = pages.slice(start, start + CHUNK);
      for (const [label, extract] of Object.entries(extractors)) {
        const run = await timePass(chunk, extract);
        runs[label].times.push(...run.times);
        runs[label].failures.push(...run.failures);
      }
      process.stderr.write(
        `\r  pass ${pass}/${opts.passes}: ${Math.min(start + CHUNK, pages.length)}/${pages.length} pages (${Object.keys(extractors).join(', ')})`,
      );
    }
    process.stderr.write('\n');
  }
  return Object.fromEntries(
    Object.entries(runs).map(([label, run]) => [label, speedFigures(run.times, run.failures, opts.passes)]),
  );
}

function round(n, digits) {
  const f = 10 ** digits;
  return Math.round(n * f) / f;
}

// ------------------------------------------------------------------------------ quality

const DATASET_LINE = /^(\S+) \[(\w+), text=\w+\] pages=(\d+) precision=([\d.]+).*? recall=([\d.]+).*? F1=([\d.]+)/;

/** Runs score.mjs for one extractor over every dataset: its printed lines, plus per-page rows. */
function score(data, adapter, label) {
  const out = path.join(os.tmpdir(), `extract-bench-${label}-${process.pid}.json`);
  // The real path: score.mjs runs only when argv[1] is its own resolved file, so a
  // symlinked data folder would make it exit silently.
  const args = [
    fs.realpathSync(path.join(data, 'score.mjs')),
    ...DATASETS.flatMap((d) => ['--pages', path.join(data, d)]),
    '--extractor',
    adapter,
    '--out',
    out,
  ];
  process.stderr.write(`  scoring ${label} with score.mjs ...\n`);
  const run = spawnSync(process.execPath, args, {
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  if (run.status !== 0)
    throw new Error(`score.mjs failed for ${label} (exit ${run.status}): ${run.stdout.slice(-2000)}`);
  const printed = {};
  let meanF1 = null;
  for (const line of run.stdout.split('\n')) {
    const m = DATASET_LINE.exec(line.trim());
    if (m) printed[m[1]] = { precision: Number(m[4]), recall: Number(m[5]), f1: Number(m[6]) };
    const f = /^F1 ([\d.]+)$/.exec(line.trim());
    if (f) meanF1 = Number(f[1]);
  }
  if (meanF1 === null) throw new Error(`score.mjs printed no final F1 line for ${label}`);
  const results = JSON.parse(fs.readFileSync(out, 'utf8'));
  fs.rmSync(out, { force: true });
  return { datasets: results, printed, meanF1 };
}

/** Figures of one scored extractor: P/R/F1 per dataset, F1 per WCXB page type, leaks. */
function summarise(scored, typesById) {
  const out = { mean_f1: scored.meanF1, datasets: {} };
  for (const d of scored.datasets) {
    const printed = scored.printed[d.dataset] ?? {};
    const entry = {
      pages: d.pages,
      errors: d.errors,
      precision: printed.precision ?? round(d.precision, 4),
      recall: printed.recall ?? round(d.recall, 4),
      f1: printed.f1 ?? round(d.f1, 4),
      ms_per_page: d.timing ? round(d.timing.mean_ms, 1) : null,
      max_ms: d.timing ? round(d.timing.max_ms, 1) : null,
    };
    if (d.dataset === WCXB) {
      entry.boilerplate_leak = round(d.without, 4);
      const byType = {};
      for (const row of d.rows) (byType[typesById.get(`${d.dataset}/${row.id}`) ?? 'unknown'] ??= []).push(row.f1 ?? 0);
      entry.f1_by_type = Object.fromEntries(
        Object.entries(byType)
          .sort()
          .map(([type, list]) => [
            type,
            { pages: list.length, f1: round(list.reduce((a, b) => a + b, 0) / list.length, 4) },
          ]),
      );
    }
    out.datasets[d.dataset] = entry;
  }
  return out;
}

function printSpeed(speed, stages) {
  console.log('\nspeed (extractor call only, same run, extractors taking turns)');
  console.log(
    `  extractor  pages  passes  failures  pages/s  mean ms  median ms  p95 ms  max ms  over 1 s  ms/page ${DATASETS.map(shortName).join('; ')}`,
  );
  for (const [name, s] of Object.entries(speed.extractors)) {
    const per = DATASETS.map((d) => s.datasets[d]?.mean_ms.toFixed(1) ?? '-').join('; ');
    console.log(
      `  ${name.padEnd(9)} ${String(s.pages).padStart(6)} ${String(s.passes).padStart(7)} ${String(s.failures).padStart(9)} ${s.pages_per_second.toFixed(2).padStart(8)} ${s.mean_ms.toFixed(1).padStart(8)} ${s.median_ms.toFixed(1).padStart(10)} ${s.p95_ms.toFixed(1).padStart(7)} ${s.max_ms.toFixed(0).padStart(7)} ${String(s.over_1s).padStart(9)}  ${per}`,
    );
  }
  if (speed.mean_ms_ratio_linkedom !== undefined)
    console.log(`  mean ms/page ours / linkedom baseline: ${speed.mean_ms_ratio_linkedom} (target <= 1)`);
  if (speed.throughput_ratio_jsdom !== undefined)
    console.log(`  throughput ours / jsdom baseline: ${speed.throughput_ratio_jsdom}x (target >= 2)`);
  if (stages) console.log(`  cascade stage that won, per dataset: ${JSON.stringify(stages)}`);
}

function printQuality(label, q) {
  console.log(`\n${label}: mean F1 ${q.mean_f1}`);
  for (const [name, d] of Object.entries(q.datasets)) {
    console.log(
      `  ${name.padEnd(16)} P ${d.precision.toFixed(4)}  R ${d.recall.toFixed(4)}  F1 ${d.f1.toFixed(4)}  errors ${d.errors}  ${d.ms_per_page} ms/page (max ${d.max_ms})${d.boilerplate_leak !== undefined ? `  boilerplate leak ${(d.boilerplate_leak * 100).toFixed(1)}%` : ''}`,
    );
    for (const [type, t] of Object.entries(d.f1_by_type ?? {}))
      console.log(`      ${type.padEnd(14)} ${String(t.pages).padStart(4)} pages  F1 ${t.f1.toFixed(4)}`);
  }
}

// ------------------------------------------------------------------------------ main

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  if (!fs.existsSync(path.join(opts.data, 'score.mjs')))
    throw new UsageError(`no score.mjs in ${opts.data}: pass --data or BENCH_DATA`);
  if (!fs.existsSync(BUILT))
    throw new UsageError(`${path.relative(ROOT, BUILT)} is missing: run \`npm run build\` first`);
  const pages = listPages(opts.data);
  const typesById = new Map(pages.map((p) => [`${p.dataset}/${p.id}`, p.type]));
  const report = {
    date: new Date().toISOString(),
    machine: {
      cpus: os.cpus().length,
      cpu: os.cpus()[0]?.model ?? 'unknown',
      memory_gib: Math.round(os.totalmem() / 2 ** 30),
      node: process.version,
    },
    data: opts.data,
    pages: pages.length,
  };

  const { htmlToMarkdown } = await import(pathToFileURL(BUILT).href);
  const extractors = { ours: (html, url) => htmlToMarkdown(html, url).markdown };
  const baselines = opts.skipBaseline ? [] : opts.qualityOnly ? ['linkedom'] : ['linkedom', 'jsdom'];
  for (const name of baselines) extractors[name] = (await import(pathToFileURL(BASELINES[name].adapter).href)).default;
  process.stderr.write(`${pages.length} pages from ${opts.data}\n`);
  const speed = { extractors: await measure(pages, extractors, opts) };
  const ours = speed.extractors.ours;
  if (speed.extractors.linkedom)
    speed.mean_ms_ratio_linkedom = round(ours.mean_ms / speed.extractors.linkedom.mean_ms, 2);
  if (speed.extractors.jsdom)
    speed.throughput_ratio_jsdom = round(ours.pages_per_second / speed.extractors.jsdom.pages_per_second, 2);
  report.speed = speed;
  // Which cascade stage produced each page (untimed).
  const stages = {};
  for (const page of pages) {
    let stage;
    try {
      stage = htmlToMarkdown(readHtml(page.file), page.url).stage;
    } catch {
      stage = 'error';
    }
    (stages[page.dataset] ??= {})[stage] = (stages[page.dataset][stage] ?? 0) + 1;
  }
  report.stages = stages;

  report.quality = { ours: summarise(score(opts.data, OURS, 'ours'), typesById) };
  for (const name of baselines) {
    if (name === 'jsdom' && !opts.scoreJsdom) continue;
    report.quality[name] = summarise(score(opts.data, BASELINES[name].adapter, name), typesById);
  }

  console.log(
    `extraction benchmark: ${pages.length} pages, ${report.machine.cpus} x ${report.machine.cpu}, node ${process.version}`,
  );
  printSpeed(report.speed, report.stages);
  printQuality('ours', report.quality.ours);
  for (const name of baselines)
    if (report.quality[name]) printQuality(`baseline: ${BASELINES[name].label}`, report.quality[name]);

  const q = report.quality.ours;
  const sh = q.datasets['scrapinghub-dev'];
  const wcxb = q.datasets[WCXB];
  const dragnet = q.datasets['dragnet-dev'];
  const dragnetBaseline = report.quality.linkedom?.datasets['dragnet-dev'];
  const types = Object.values(wcxb?.f1_by_type ?? {});
  report.targets = {
    scrapinghub_f1_at_least_0_975: sh ? sh.f1 >= 0.975 : null,
    wcxb_f1_at_least_0_87: wcxb ? wcxb.f1 >= 0.87 : null,
    every_wcxb_type_at_least_0_75: types.length > 0 ? types.every((t) => t.f1 >= 0.75) : null,
    // No published figure to aim at yet: at least the field's baseline row, scored in this run.
    dragnet_f1_not_below_linkedom_baseline: dragnet && dragnetBaseline ? dragnet.f1 >= dragnetBaseline.f1 : null,
    mean_ms_not_above_linkedom_baseline:
      speed.mean_ms_ratio_linkedom === undefined ? null : speed.mean_ms_ratio_linkedom <= 1,
    no_page_over_1s: ours.over_1s === 0,
    throughput_at_least_2x_jsdom: speed.throughput_ratio_jsdom === undefined ? null : speed.throughput_ratio_jsdom >= 2,
  };
  console.log(
    `\ntargets: ${Object.entries(report.targets)
      .map(([k, v]) => `${k} ${v === null ? '-' : v ? 'yes' : 'NO'}`)
      .join(', ')}`,
  );

  if (opts.json) {
    fs.mkdirSync(path.dirname(opts.json), { recursive: true });
    fs.writeFileSync(opts.json, `${JSON.stringify(report, null, 2)}\n`);
  }

  const problems = [];
  if (opts.floors.mean !== undefined && q.mean_f1 < opts.floors.mean)
    problems.push(`mean F1 ${q.mean_f1} < floor ${opts.floors.mean}`);
  for (const d of DATASETS) {
    const floor = opts.floors[d];
    if (floor === undefined) continue;
    const f1 = q.datasets[d]?.f1;
    if (f1 === undefined) problems.push(`${d} not scored (floor ${floor})`);
    else if (f1 < floor) problems.push(`${d} F1 ${f1} < floor ${floor}`);
  }
  if (opts.floors.type !== undefined) {
    for (const [type, t] of Object.entries(q.datasets[WCXB]?.f1_by_type ?? {})) {
      if (t.f1 < opts.floors.type) problems.push(`wcxb ${type} F1 ${t.f1} < floor ${opts.floors.type}`);
    }
  }
  // The scorer's own final line, last, for tools that read it.
  console.log(`\nF1 ${q.mean_f1}`);
  if (problems.length > 0) {
    console.log(`QUALITY GATE FAILED:\n  ${problems.join('\n  ')}`);
    process.exitCode = 1;
  } else if (Object.keys(opts.floors).length > 0) {
    console.log('quality gate passed');
  }
}

main().catch((err) => {
  console.error(`extract-bench: ${err instanceof Error ? err.message : err}`);
  process.exitCode = 2;
});
