// In-process scoring of the benchmark dev pages with the datasets' own scorer (score.mjs
// exports its metrics): per-page figures and the aggregates the scorer prints, plus the
// two fixed halves of each split that the ablation bench compares. Shared by the
// ablation bench and any script that weighs a rule on the dev pages.
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { DATASETS, METRICS, UsageError, listPages } from './dev-pages.mjs';

/** The 32-bit FNV-1a hash of a page id: a fixed order, unrelated to the datasets' own split rule. */
export function idHash(id) {
  let hash = 0x811c9dc5;
  for (let i = 0; i < id.length; i++) {
    hash ^= id.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash;
}

/**
 * Each page's half of its split, 'A' or 'B': within each dataset and page type, pages in
 * the order of their id's hash, alternately A and B. Stratified by type because the types'
 * F1 differ widely (WCXB articles about 0.95, products about 0.76): halves with different
 * mixes of types would differ for that alone, whatever the rules do.
 */
export function assignHalves(pages) {
  const groups = new Map();
  for (const page of pages) {
    const key = `${page.dataset}\u0000${page.type ?? ''}`;
    if (!groups.has(key)) groups.set(key, []);
    groups.get(key).push(page);
  }
  const halves = new Map();
  for (const group of groups.values()) {
    group.sort((a, b) => idHash(a.id) - idHash(b.id) || (a.id < b.id ? -1 : 1));
    group.forEach((page, i) => halves.set(`${page.dataset}/${page.id}`, i % 2 === 0 ? 'A' : 'B'));
  }
  return halves;
}

/** The scorer module's metrics, loaded from the data folder. */
export async function loadScorer(data) {
  const file = path.join(data, 'score.mjs');
  if (!fs.existsSync(file)) throw new UsageError(`no score.mjs in ${data}: pass --data or BENCH_DATA`);
  return import(pathToFileURL(file).href);
}

/** Every dev page with its ground truth: { dataset, id, url, type, file, half, truth, with, without }. */
export function loadTruths(data) {
  const pages = listPages(data);
  const halves = assignHalves(pages);
  return pages.map((page) => {
    const truth = JSON.parse(fs.readFileSync(path.join(data, page.dataset, `${page.id}.json`), 'utf8'));
    return {
      ...page,
      half: halves.get(`${page.dataset}/${page.id}`),
      truth: truth.articleBody || '',
      with: truth.with,
      without: truth.without,
    };
  });
}

/**
 * One page's figures for a Markdown output, as score.mjs computes them with `--text md`
 * (Markdown syntax stripped first), by the dataset's metric (METRICS): scrapinghub rows
 * carry tp/fp/fn, wcxb-metric rows (WCXB, dragnet) f1 and the boilerplate snippet rates
 * (1 where a page has no snippets, as on dragnet).
 */
export function scorePage(scorer, page, markdown) {
  const text = scorer.markdownToText(markdown);
  if (METRICS[page.dataset] === 'wcxb') return scorer.scorePageWcxb(page.truth, text, page);
  const row = scorer.scorePageScrapinghub(page.truth, text);
  const f1 = row.precision + row.recall > 0 ? (2 * row.precision * row.recall) / (row.precision + row.recall) : 0;
  return { ...row, f1 };
}

/** The dataset's F1 over rows, the way the scorer aggregates it. */
export function aggregateF1(scorer, dataset, rows) {
  if (rows.length === 0) return NaN;
  return METRICS[dataset] === 'wcxb' ? scorer.wcxbAggregate(rows).f1 : scorer.scrapinghubAggregate(rows).f1;
}

/**
 * The figures the ablation bench and the gate read from per-page rows
 * ({ page, row } pairs): F1 per dataset, per dataset half, and per WCXB page type.
 */
export function summarise(scorer, scored) {
  const out = {};
  const group = (key, filter) => {
    const rows = scored.filter(filter);
    if (rows.length > 0)
      out[key] = aggregateF1(
        scorer,
        rows[0].page.dataset,
        rows.map((s) => s.row),
      );
  };
  for (const dataset of DATASETS) {
    group(dataset, (s) => s.page.dataset === dataset);
    for (const half of ['A', 'B'])
      group(`${dataset}:${half}`, (s) => s.page.dataset === dataset && s.page.half === half);
  }
  const types = [...new Set(scored.filter((s) => s.page.dataset === 'wcxb-dev').map((s) => s.page.type))].sort();
  for (const type of types) group(`type:${type}`, (s) => s.page.dataset === 'wcxb-dev' && s.page.type === type);
  return out;
}
