#!/usr/bin/env node
// Trains and validates the stage selector (src/extract/html/choose/stage-selector.ts) on the three
// dev splits: for every page, the pipeline runs twice, once with Readability's pick first
// and once with the cleaned body first, and both Markdowns are scored; the features the
// selector reads (stage-features.ts) come with the runs. Then:
//   - cross-validation with folds grouped by site (no site in both the training and the
//     test pages of a fold), printed per dataset and half, per WCXB type and per fold: the
//     selector beside today's fixed rule (the recall rescue it replaced), always
//     Readability's pick, always the cleaned body, and the per-page oracle of the two;
//   - the page-type guess, cross-validated the same way, its share right per WCXB type;
//   - with --write, both models fitted on every page, to src/extract/html/choose/stage-model.json.
// Deterministic: the same pages give the same folds, figures and weights.
//
//   npm run bench:selector -- [options]     (or: npm run build && node bench/train-selector.mjs)
//
//   --data DIR        folder holding score.mjs and the dev splits (default: env BENCH_DATA,
//                     else ../shared/bench/extraction beside the project)
//   --workers N       worker threads for the runs (default: cores)
//   --folds K         cross-validation folds (default 5)
//   --rows FILE       reuse the runs saved in FILE (written by an earlier --save-rows)
//   --save-rows FILE  save the runs, to try models without running the pipeline again
//   --write           write the models fitted on every page to stage-model.json
//   --markdown FILE   also write the tables as Markdown (for docs/extraction-history.md)
//
// Exit codes: 0 fine, 2 setup or usage error.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { isMainThread, parentPort, workerData } from 'node:worker_threads';
import { DATASETS, UsageError, commandLine, helpText, readHtml, runOnWorkers } from './dev-pages.mjs';
import { aggregateF1, idHash, loadScorer, loadTruths, scorePage } from './dev-scores.mjs';
import { boostedScore, fitBoostedTrees } from './boosted-trees.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const PIPELINE_JS = path.join(ROOT, 'dist/extract/html/pipeline.js');
const FEATURES_JS = path.join(ROOT, 'dist/extract/html/choose/stage-features.js');
const MODEL_JSON = path.join(ROOT, 'src/extract/html/choose/stage-model.json');
/** The page types the guess chooses from: WCXB's seven (scrapinghub and dragnet pages are articles). */
const CLASSES = ['article', 'collection', 'documentation', 'forum', 'listing', 'product', 'service'];
/**
 * The stage model: two runs of boosted trees, two and three levels deep, 200 trees each at
 * a rate of 0.05, leaves of at least 10 pages, their scores added (a sum of boosted models
 * is one with both sets of trees). Either run alone, or at a rate of 0.1, moved WCXB and
 * dragnet by ±0.003 between feature sets; this varied least (docs/extraction-history.md,
 * "4. Choosing a stage").
 */
const STAGE_TREES = [
  { depth: 2, rounds: 200, rate: 0.05, minLeaf: 10 },
  { depth: 3, rounds: 200, rate: 0.05, minLeaf: 10 },
];
/**
 * The page-type model: one run of boosted trees per type (that type against the others),
 * two levels deep, 60 trees at 0.1, leaves of at least 5 pages; the type whose trees score
 * highest wins. Cross-validated, it guessed 0.74 to 0.76 of WCXB's pages right (by the
 * version of the features) where a softmax regression guessed 0.71 (docs/extraction-history.md).
 */
const TYPE_TREES = { depth: 2, rounds: 60, rate: 0.1, minLeaf: 5 };

// Today's rule, as it stood before the selector (docs/extraction-history.md), for the comparison.
const RULE = { MIN_ITEM_SHARE: 0.35, MIN_READABILITY_SHARE: 0.5, MIN_PRODUCT_READABILITY_SHARE: 0.8 };

if (!isMainThread) {
  const { runPipeline } = await import(pathToFileURL(PIPELINE_JS).href);
  const scorer = await loadScorer(workerData.data);
  const rows = [];
  for (const page of workerData.pages) {
    const html = readHtml(page.file);
    const first = runPipeline(html, page.url, { prefer: 'readability' });
    const second = runPipeline(html, page.url, { prefer: 'cleaned-body' });
    const f = first.features;
    rows.push({
      dataset: page.dataset,
      id: page.id,
      type: page.type,
      half: page.half,
      site: siteOf(page, html),
      values: f === null ? null : Array.from(f.values),
      quantities: f?.quantities ?? null,
      same: first.markdown === second.markdown,
      readability: scorePage(scorer, page, first.markdown),
      cleaned: scorePage(scorer, page, second.markdown),
    });
    parentPort.postMessage({ progress: 1 });
  }
  parentPort.postMessage({ rows });
}

/**
 * The site a page comes from, for grouping folds: its URL's host, or where the dataset
 * gives no real URL (dragnet's), the host of its canonical or og:url link, else the host
 * most of its absolute links point to, else the page alone. `www.` and the like dropped.
 */
function siteOf(page, html) {
  const hostOf = (url) => {
    try {
      return new URL(url).hostname.replace(/^(?:www\d*|m|amp)\./, '').toLowerCase();
    } catch {
      return null;
    }
  };
  const own = hostOf(page.url);
  if (own !== null && !own.endsWith('.example')) return own;
  const declared =
    /<link[^>]+rel=["']?canonical["']?[^>]*href=["']([^"']+)|<meta[^>]+property=["']og:url["'][^>]*content=["']([^"']+)/i.exec(
      html,
    );
  const fromDeclared = declared ? hostOf(declared[1] ?? declared[2]) : null;
  if (fromDeclared) return fromDeclared;
  const counts = new Map();
  for (const m of html.matchAll(/href=["']https?:\/\/([^/"':?#]+)/gi)) {
    const host = m[1].replace(/^(?:www\d*|m)\./, '').toLowerCase();
    counts.set(host, (counts.get(host) ?? 0) + 1);
  }
  const top = [...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))[0];
  return top ? top[0] : `${page.dataset}/${page.id}`;
}

function parseArgs(argv) {
  const opts = {
    data: process.env.BENCH_DATA || path.resolve(ROOT, '../shared/bench/extraction'),
    workers: Math.max(1, os.availableParallelism?.() ?? os.cpus().length),
    folds: 5,
    rows: null,
    saveRows: null,
    write: false,
    markdown: null,
  };
  for (const { name: a, value, count } of commandLine(argv)) {
    if (a === '--data') opts.data = path.resolve(value());
    else if (a === '--workers') opts.workers = Math.max(1, count());
    else if (a === '--folds') opts.folds = Math.max(2, count());
    else if (a === '--rows') opts.rows = path.resolve(value());
    else if (a === '--save-rows') opts.saveRows = path.resolve(value());
    else if (a === '--write') opts.write = true;
    else if (a === '--markdown') opts.markdown = path.resolve(value());
    else if (a === '-h' || a === '--help') {
      console.log(helpText(import.meta.url));
      process.exit(0);
    } else throw new UsageError(`unknown option ${a} (--help lists them)`);
  }
  return opts;
}

async function collect(opts) {
  if (!fs.existsSync(PIPELINE_JS)) throw new UsageError('no dist/extract/html/pipeline.js: run `npm run build` first');
  const pages = loadTruths(opts.data);
  const results = await runOnWorkers(fileURLToPath(import.meta.url), pages, opts.workers, { data: opts.data });
  const order = new Map(pages.map((p, i) => [`${p.dataset}/${p.id}`, i]));
  return results
    .flatMap((r) => r.rows)
    .sort((a, b) => order.get(`${a.dataset}/${a.id}`) - order.get(`${b.dataset}/${b.id}`));
}

/** Today's rule: Readability's pick first unless it is one card of a listing or under the rescue's share. */
function ruleChoosesReadability(q) {
  if (q === null) return true;
  const listing = q.itemChars >= RULE.MIN_ITEM_SHARE * q.bodyChars && q.pickChars < q.itemChars;
  const share = q.product ? RULE.MIN_PRODUCT_READABILITY_SHARE : RULE.MIN_READABILITY_SHARE;
  return (
    !listing &&
    (q.pickChars >= share * q.bodyNonLinkChars || q.pickChars >= share * (q.bodyNonLinkChars - q.besideChars))
  );
}

/** Fold of each site: sites in the order of their name's hash, dealt round so folds hold alike numbers of pages. */
function assignFolds(rows, k) {
  const sizes = new Map();
  for (const r of rows) sizes.set(r.site, (sizes.get(r.site) ?? 0) + 1);
  const sites = [...sizes.keys()].sort(
    (a, b) => sizes.get(b) - sizes.get(a) || idHash(a) - idHash(b) || (a < b ? -1 : 1),
  );
  const load = new Array(k).fill(0);
  const fold = new Map();
  for (const site of sites) {
    const f = load.indexOf(Math.min(...load));
    fold.set(site, f);
    load[f] += sizes.get(site);
  }
  return rows.map((r) => fold.get(r.site));
}

/**
 * Both models fitted on `train` rows: the stage choice weighted by what is at stake on each
 * page (the F1 between its two orders), each page type's trees with the classes balanced.
 */
function fit(train) {
  const X = train.map((r) => r.values);
  const stake = train.map((r) => (r.same ? 0 : Math.abs(r.readability.f1 - r.cleaned.f1)));
  const better = train.map((r) => (r.readability.f1 >= r.cleaned.f1 ? 1 : 0));
  const runs = STAGE_TREES.map((settings) => fitBoostedTrees(X, better, stake, settings));
  const stage = { base: runs.reduce((s, m) => s + m.base, 0), trees: runs.flatMap((m) => m.trees) };
  const labels = train.map((r) => CLASSES.indexOf(r.type ?? 'article'));
  const perClass = CLASSES.map((_, c) => labels.filter((l) => l === c).length);
  const balanced = labels.map((l) => 1 / Math.max(1, perClass[l]));
  const types = CLASSES.map((_, c) =>
    fitBoostedTrees(
      X,
      labels.map((l) => (l === c ? 1 : 0)),
      balanced,
      TYPE_TREES,
    ),
  );
  return { stage, types };
}

function predict(model, row) {
  const scores = model.types.map((m) => boostedScore(m, row.values));
  return {
    readabilityFirst: boostedScore(model.stage, row.values) > 0,
    type: CLASSES[scores.indexOf(Math.max(...scores))],
  };
}

const POLICIES = ['selector', 'rule', 'readability', 'cleaned', 'oracle'];

/** The scored row a policy writes for a page. */
function chosen(row, policy, prediction) {
  const better = row.readability.f1 >= row.cleaned.f1;
  const first = {
    selector: prediction.readabilityFirst,
    rule: ruleChoosesReadability(row.quantities),
    readability: true,
    cleaned: false,
    oracle: better,
  }[policy];
  return first ? row.readability : row.cleaned;
}

const fmt = (x) => (Number.isFinite(x) ? x.toFixed(4) : '—');

function table(title, groups, scorer, predictions, rows) {
  const lines = [`${title}`, '', `| pages | n | ${POLICIES.join(' | ')} |`, `|${' --- |'.repeat(POLICIES.length + 2)}`];
  for (const [name, filter] of groups) {
    const members = rows.map((r, i) => [r, i]).filter(([r]) => filter(r));
    if (members.length === 0) continue;
    const byDataset = (policy) => {
      // A group spanning datasets is the mean of its datasets' figures, as the scorer's final line.
      const sets = [...new Set(members.map(([r]) => r.dataset))];
      const figures = sets.map((d) =>
        aggregateF1(
          scorer,
          d,
          members.filter(([r]) => r.dataset === d).map(([r, i]) => chosen(r, policy, predictions[i])),
        ),
      );
      return figures.reduce((a, b) => a + b, 0) / figures.length;
    };
    lines.push(`| ${name} | ${members.length} | ${POLICIES.map((p) => fmt(byDataset(p))).join(' | ')} |`);
  }
  return lines.join('\n');
}

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  const started = Date.now();
  const scorer = await loadScorer(opts.data);
  const rows = opts.rows ? JSON.parse(fs.readFileSync(opts.rows, 'utf8')) : await collect(opts);
  if (opts.saveRows) fs.writeFileSync(opts.saveRows, JSON.stringify(rows));
  const { STAGE_FEATURES } = await import(pathToFileURL(FEATURES_JS).href);
  const usable = rows.filter((r) => r.values !== null && r.values.length === STAGE_FEATURES.length);
  if (usable.length < rows.length)
    console.log(
      `${rows.length - usable.length} pages without features (the pipeline failed before its rank pass) count as Readability first`,
    );

  const folds = assignFolds(rows, opts.folds);
  const predictions = rows.map(() => ({ readabilityFirst: true, type: 'article' }));
  for (let f = 0; f < opts.folds; f++) {
    const train = usable.filter((r) => folds[rows.indexOf(r)] !== f);
    const model = fit(train);
    rows.forEach((r, i) => {
      if (folds[i] === f && r.values !== null && r.values.length === STAGE_FEATURES.length)
        predictions[i] = predict(model, r);
    });
  }

  const groups = [];
  for (const d of DATASETS) {
    groups.push([d, (r) => r.dataset === d]);
    for (const h of ['A', 'B']) groups.push([`${d} ${h}`, (r) => r.dataset === d && r.half === h]);
  }
  const types = [...new Set(rows.filter((r) => r.dataset === 'wcxb-dev').map((r) => r.type))].sort();
  const typeGroups = types.map((t) => [`wcxb ${t}`, (r) => r.dataset === 'wcxb-dev' && r.type === t]);
  const foldGroups = [];
  for (let f = 0; f < opts.folds; f++)
    for (const d of DATASETS)
      foldGroups.push([`fold ${f + 1} ${d}`, (r, i = rows.indexOf(r)) => folds[i] === f && r.dataset === d]);

  const out = [];
  const sites = new Set(rows.map((r) => r.site)).size;
  out.push(
    `${rows.length} pages from ${sites} sites, ${opts.folds} folds grouped by site; F1 of each policy on the pages it was not trained on (the dataset's own metric).`,
  );
  out.push('');
  out.push(table('Stage choice, cross-validated, per dataset and half:', groups, scorer, predictions, rows));
  out.push('');
  out.push(table('Per WCXB page type:', typeGroups, scorer, predictions, rows));
  out.push('');
  out.push(table('Per fold:', foldGroups, scorer, predictions, rows));
  out.push('');
  const moved = rows.filter(
    (r, i) => !r.same && predictions[i].readabilityFirst !== ruleChoosesReadability(r.quantities),
  ).length;
  out.push(`Pages where the selector and today's rule differ (and the two orders give different Markdown): ${moved}.`);
  out.push('');

  // Page type, cross-validated: accuracy per WCXB type, and on the article-only datasets.
  const typeLines = [
    'Page type guessed, cross-validated (share of pages guessed right):',
    '',
    '| pages | n | right | most often taken for |',
    '| --- | --- | --- | --- |',
  ];
  const typeRow = (name, members, truth) => {
    const right = members.filter(([, p]) => p.type === truth).length;
    const wrong = new Map();
    for (const [, p] of members) if (p.type !== truth) wrong.set(p.type, (wrong.get(p.type) ?? 0) + 1);
    const top = [...wrong]
      .sort((a, b) => b[1] - a[1])
      .slice(0, 2)
      .map(([t, n]) => `${t} (${n})`)
      .join(', ');
    typeLines.push(`| ${name} | ${members.length} | ${(right / members.length).toFixed(2)} | ${top || '—'} |`);
  };
  const withPrediction = rows.map((r, i) => [r, predictions[i]]);
  for (const t of types)
    typeRow(
      `wcxb ${t}`,
      withPrediction.filter(([r]) => r.dataset === 'wcxb-dev' && r.type === t),
      t,
    );
  const wcxb = withPrediction.filter(([r]) => r.dataset === 'wcxb-dev');
  typeLines.push(
    `| wcxb, all | ${wcxb.length} | ${(wcxb.filter(([r, p]) => p.type === r.type).length / wcxb.length).toFixed(2)} | |`,
  );
  for (const d of DATASETS.filter((d) => d !== 'wcxb-dev'))
    typeRow(
      `${d} (articles)`,
      withPrediction.filter(([r]) => r.dataset === d),
      'article',
    );
  out.push(typeLines.join('\n'));
  out.push('');
  out.push(
    `${((Date.now() - started) / 1000).toFixed(0)} s; Node ${process.version}, ${os.cpus()[0]?.model ?? 'cpu'} x ${os.cpus().length}.`,
  );
  const text = out.join('\n');
  console.log(text);
  if (opts.markdown) fs.writeFileSync(opts.markdown, `${text}\n`);

  if (opts.write) {
    const model = fit(usable);
    const trees = (m) => ({
      base: round(m.base),
      trees: m.trees.map((nodes) => nodes.map((node) => (node[0] === -1 ? [-1, round(node[1])] : node))),
    });
    const json = {
      features: STAGE_FEATURES,
      stage: trees(model.stage),
      pageType: { classes: CLASSES, models: model.types.map(trees) },
    };
    // One tree a line: a diff of a retrained model reads tree by tree.
    const text = JSON.stringify(json, null, 1).replace(
      /\[\s*(\[[^[\]]*\](?:,\s*\[[^[\]]*\])*)\s*\]/g,
      (_, nodes) => `[${nodes.replace(/\s+/g, '')}]`,
    );
    fs.writeFileSync(MODEL_JSON, `${text}\n`);
    console.log(`wrote ${path.relative(ROOT, MODEL_JSON)} (fitted on ${usable.length} pages)`);
  }
}

/** Weights to six decimals; a split's threshold stays exact, or a page on it could change sides. */
function round(x) {
  return Math.round(x * 1e6) / 1e6;
}

if (isMainThread) {
  await main().catch((error) => {
    console.error(`train-selector: ${error.message}`);
    process.exit(error instanceof UsageError ? 2 : 1);
  });
}
