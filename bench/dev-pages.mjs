// The benchmark dev pages (../shared/bench/extraction, or BENCH_DATA): the three dev splits
// of the main-content benchmarks, listed without their HTML and read one at a time, so a
// script's heap holds one page at a time. Shared by the extraction and pool benchmarks.
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { Worker } from 'node:worker_threads';

export const DATASETS = ['scrapinghub-dev', 'wcxb-dev', 'dragnet-dev'];

/** Each dataset's own metric (its `_dataset.json`): bag of words per page, or token shingles. */
export const METRICS = { 'scrapinghub-dev': 'scrapinghub', 'wcxb-dev': 'wcxb', 'dragnet-dev': 'wcxb' };

export class UsageError extends Error {}

/**
 * The options of a bench's command line, one at a time: its name, and readers of its
 * argument (`value`, `number`, `count`: a whole number from 0) that throw a UsageError
 * naming the option when it is missing or no such number.
 */
export function* commandLine(argv) {
  for (let i = 0; i < argv.length; i++) {
    const name = argv[i];
    const value = () => {
      const v = argv[++i];
      if (v === undefined) throw new UsageError(`${name} needs a value`);
      return v;
    };
    const number = () => {
      const n = Number(value());
      if (!Number.isFinite(n)) throw new UsageError(`${name} needs a number`);
      return n;
    };
    const count = () => {
      const n = number();
      if (!Number.isInteger(n) || n < 0) throw new UsageError(`${name} needs a whole number`);
      return n;
    };
    yield { name, value, number, count };
  }
}

/** A bench's --help: the comment lines that open its file (`metaUrl`: its import.meta.url). */
export function helpText(metaUrl) {
  const lines = fs.readFileSync(new URL(metaUrl), 'utf8').split('\n');
  return lines
    .slice(
      1,
      lines.findIndex((l) => l.startsWith('import')),
    )
    .map((l) => l.replace(/^\/\/ ?/, ''))
    .join('\n');
}

/**
 * Runs the worker part of a bench (`script`, its own file) on `workers` threads, worker w
 * given every page i with i % threads == w as `workerData.pages` beside `data`; a worker
 * posts `{ progress: 1 }` after each page and its result last. The results, in the
 * workers' order.
 */
export function runOnWorkers(script, pages, workers, data) {
  const shares = Array.from({ length: Math.min(workers, pages.length) }, () => []);
  pages.forEach((page, i) => shares[i % shares.length].push(page));
  let done = 0;
  return Promise.all(
    shares.map(
      (share) =>
        new Promise((resolve, reject) => {
          const worker = new Worker(script, { workerData: { ...data, pages: share } });
          worker.on('message', (message) => {
            if (message.progress) {
              done += message.progress;
              if (process.stderr.isTTY) process.stderr.write(`\r${done}/${pages.length} pages`);
            } else resolve(message);
          });
          worker.on('error', reject);
          worker.on('exit', (code) => code !== 0 && reject(new Error(`a worker exited with ${code}`)));
        }),
    ),
  ).finally(() => {
    if (process.stderr.isTTY) process.stderr.write('\n');
  });
}

/** Page descriptors: dataset, id, url, page type and the file holding the HTML. */
export function listPages(data) {
  const pages = [];
  for (const dataset of DATASETS) {
    const dir = path.join(data, dataset);
    if (!fs.existsSync(dir)) throw new UsageError(`no ${dataset}/ in ${data}: pass --data or BENCH_DATA`);
    for (const name of fs.readdirSync(dir).sort()) {
      if (!name.endsWith('.json') || name.startsWith('_')) continue;
      const id = name.slice(0, -5);
      const truth = JSON.parse(fs.readFileSync(path.join(dir, name), 'utf8'));
      const plain = path.join(dir, `${id}.html`);
      const file = fs.existsSync(plain) ? plain : fs.existsSync(`${plain}.gz`) ? `${plain}.gz` : null;
      if (file === null) continue;
      pages.push({ dataset, id, url: truth.url ?? '', type: truth.page_type ?? null, file });
    }
  }
  return pages;
}

/** A page's bytes, gunzipped when stored compressed. */
export function readBytes(file) {
  const bytes = fs.readFileSync(file);
  return file.endsWith('.gz') ? zlib.gunzipSync(bytes) : bytes;
}

export function readHtml(file) {
  return readBytes(file).toString('utf8');
}
