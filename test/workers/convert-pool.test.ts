/**
 * The converter port's two adapters: the worker pool gives exactly what `convert` gives on
 * this thread, for every converter (HTML cascade, Markdown, text, CSV, JSON, XML, HTML
 * format), and the converter's own errors keep their code across the thread boundary.
 */
import { afterAll, describe, expect, it } from 'vitest';
import * as pages from '../helpers/fixture-pages.js';
import { ConvertPool, LARGE_INPUT_BYTES, workerEntry, youngGenerationMb } from '../../src/workers/convert-pool.js';
import { collectGarbage } from '../../src/workers/collect-garbage.js';
import { InThreadConverter } from '../../src/workers/in-thread-converter.js';
import type { ConvertInput } from '../../src/extract/index.js';
import { AppError } from '../../src/core/errors.js';
import { deadlineIn } from '../../src/core/request-context.js';
import { rankPassages } from '../../src/extract/passages/index.js';

const pool = new ConvertPool({ threads: 2, maxQueue: 16, memoryMb: 256, timeoutMs: 30_000 });
const inThread = new InThreadConverter();
afterAll(() => pool.close());

const input = (
  body: string,
  contentType: string | null,
  format: 'markdown' | 'html' = 'markdown',
  url = 'https://example.test/page',
): ConvertInput => ({
  bytes: Buffer.from(body, 'utf8'),
  contentType,
  url,
  format,
  headers: {},
});

const CASES: [string, ConvertInput][] = [
  ['article (HTML cascade)', input(pages.ARTICLE_HTML, 'text/html; charset=utf-8')],
  ['product page', input(pages.PRODUCT_HTML, 'text/html')],
  ['formulas', input(pages.FORMULAS_HTML, 'text/html')],
  ['format html', input(pages.ARTICLE_HTML, 'text/html', 'html')],
  ['text', input(pages.TEXT_PAGE, 'text/plain')],
  ['markdown', input(pages.MARKDOWN_PAGE, 'text/markdown')],
  ['csv', input(pages.CSV_PAGE, 'text/csv')],
  ['json', input(pages.JSON_PAGE, 'application/json')],
  ['rss', input(pages.RSS_PAGE, 'application/rss+xml')],
  ['sitemap', input(pages.SITEMAP_PAGE, 'application/xml')],
  ['xhtml', input(pages.XHTML_PAGE, 'application/xhtml+xml')],
  ['no content type (sniffed)', input(pages.SMALL_PAGE('Sniffed', 'A page served without a type.'), null)],
];

describe('ConvertPool', () => {
  it.each(CASES)('%s: the same output as on this thread', async (_name, page) => {
    const [pooled, local] = await Promise.all([
      pool.convert(page, deadlineIn(20_000)),
      inThread.convert(page, deadlineIn(20_000)),
    ]);
    expect(pooled).toEqual(local);
    expect(pooled.markdown.length + (pooled.html?.length ?? 0)).toBeGreaterThan(20);
  });

  it.each([
    ['blocked', input(pages.CHALLENGE_HTML, 'text/html')],
    ['unsupported_content_type', input('%PDF-1.7\n%\u00e2\u00e3\n1 0 obj', 'application/pdf')],
  ])("keeps the converter's error code %s", async (code, page) => {
    const error = await pool.convert(page, deadlineIn(20_000)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).code).toBe(code);
  });

  it('a cancelled call is refused before it is queued', async () => {
    const error = await pool
      .convert(input(pages.ARTICLE_HTML, 'text/html'), deadlineIn(5_000, AbortSignal.abort()))
      .catch((e: unknown) => e);
    expect((error as AppError).code).toBe('cancelled');
  });

  it("bounds each worker's heap: the configured old generation and a young one of an eighth of it, at most 64 MB", async () => {
    await pool.convert(input(pages.ARTICLE_HTML, 'text/html'), deadlineIn(20_000));
    expect(pool.threads.length).toBeGreaterThan(0);
    for (const worker of pool.threads)
      expect(worker.resourceLimits).toMatchObject({ maxOldGenerationSizeMb: 256, maxYoungGenerationSizeMb: 32 });
    expect([32, 512, 8192].map(youngGenerationMb)).toEqual([4, 64, 64]);
  });

  it('finds its worker in dist/ from the sources and beside itself when built', () => {
    expect(workerEntry('file:///p/src/workers/convert-pool.ts').pathname).toBe(
      '/p/dist/workers/convert-worker-entry.cjs',
    );
    expect(workerEntry('file:///p/dist/workers/convert-pool.js').pathname).toBe(
      '/p/dist/workers/convert-worker-entry.cjs',
    );
  });
});

describe('ConvertPool, memory after a huge page', () => {
  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
  const large = input(
    `${'A line of a large plain-text page.\n'.repeat(Math.ceil(LARGE_INPUT_BYTES / 35) + 10)}`,
    'text/plain',
  );

  it('reaches a full collection on this Node', () => {
    expect(typeof collectGarbage).toBe('function');
    expect(() => collectGarbage!()).not.toThrow();
  });

  /** A pool whose main-thread collections are counted instead of run. */
  function watchedPool(afterMs: number): { pool: ConvertPool; collections: () => number } {
    let collections = 0;
    const pool = new ConvertPool(
      { threads: 2, maxQueue: 4, memoryMb: 256, timeoutMs: 30_000 },
      { collect: () => collections++, afterMs },
    );
    return { pool, collections: () => collections };
  }

  it('collects on the main thread once the pool is idle after a page of 1 MiB or more, not after small ones', async () => {
    const { pool: watched, collections } = watchedPool(50);
    try {
      await watched.convert(input(pages.ARTICLE_HTML, 'text/html'), deadlineIn(20_000));
      await sleep(200);
      expect(collections()).toBe(0);
      expect(large.bytes.length).toBeGreaterThanOrEqual(LARGE_INPUT_BYTES);
      await watched.convert(large, deadlineIn(20_000));
      await watched.convert(large, deadlineIn(20_000));
      expect(collections()).toBe(0);
      await sleep(300);
      // Two huge pages in a row, one collection.
      expect(collections()).toBe(1);
    } finally {
      await watched.close();
    }
  });

  it('waits while the pool is converting', async () => {
    const { pool: watched, collections } = watchedPool(50);
    try {
      await watched.convert(large, deadlineIn(20_000));
      const busy = input(
        `<html><body>${'<div><p>A paragraph that keeps the worker busy for a while.</p></div>'.repeat(40_000)}</body></html>`,
        'text/html',
      );
      await watched.convert(busy, deadlineIn(60_000));
      expect(collections()).toBe(0);
      await sleep(300);
      expect(collections()).toBe(1);
    } finally {
      await watched.close();
    }
  });

  it('a closed pool collects nothing', async () => {
    const { pool: watched, collections } = watchedPool(30);
    await watched.convert(large, deadlineIn(20_000));
    await watched.close();
    await sleep(150);
    expect(collections()).toBe(0);
  });
});

describe('InThreadConverter', () => {
  it('refuses work whose deadline or caller is already gone', async () => {
    const page = input(pages.ARTICLE_HTML, 'text/html');
    expect(((await inThread.convert(page, deadlineIn(0)).catch((e: unknown) => e)) as AppError).code).toBe('timeout');
    expect(
      ((await inThread.convert(page, deadlineIn(1000, AbortSignal.abort())).catch((e: unknown) => e)) as AppError).code,
    ).toBe('cancelled');
  });

  it('ranks passages on this thread as the ranker does, and refuses a ranking whose deadline or caller is gone', async () => {
    const ranking = {
      markdown: '# Tides\n\nThe tide turns twice a day.\n\n## Ferries\n\nThe ferry leaves at noon.',
      query: 'ferry',
      max: 1,
    };
    const ranked = await inThread.rankPassages(ranking, deadlineIn(1000));
    expect(ranked).toEqual(rankPassages(ranking));
    expect(ranked.map((p) => p.text)).toEqual(['The ferry leaves at noon.']);
    expect(await inThread.rankPassages(ranking, deadlineIn(0)).catch((e: AppError) => e.code)).toBe('timeout');
    expect(
      await inThread.rankPassages(ranking, deadlineIn(1000, AbortSignal.abort())).catch((e: AppError) => e.code),
    ).toBe('cancelled');
  });
});
