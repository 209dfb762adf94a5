/**
 * The pool sized for the stdio server (issue 34, item 11): one small-heap worker, started
 * on the first page, stopped once idle so its heap goes back to the system, started again
 * by the next page; and the main thread collected once the pool is idle. The `serve` pool
 * keeps its warm workers and large young generation.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { deadlineIn } from '../../src/core/request-context.js';
import { ConvertPool, FOOTPRINT_YOUNG_GENERATION_MB, youngGenerationMb } from '../../src/workers/convert-pool.js';
import * as pages from '../helpers/fixture-pages.js';

const article = {
  bytes: Buffer.from(pages.ARTICLE_HTML, 'utf8'),
  contentType: 'text/html',
  url: 'https://example.test/a',
  format: 'markdown' as const,
  headers: {},
};
const pools: ConvertPool[] = [];
afterEach(async () => {
  await Promise.all(pools.splice(0).map((p) => p.close()));
});

const waitFor = async (check: () => boolean, ms: number) => {
  for (const end = Date.now() + ms; !check() && Date.now() < end;) await new Promise((r) => setTimeout(r, 25));
  return check();
};

describe('a footprint pool', () => {
  it('runs one small worker, stops it once idle and starts it again for the next page', async () => {
    let collections = 0;
    const pool = new ConvertPool(
      { threads: 1, maxQueue: 8, memoryMb: 512, timeoutMs: 20_000, sizing: 'footprint', idleTimeoutMs: 200 },
      { collect: () => collections++, afterMs: 50 },
    );
    pools.push(pool);
    expect(pool.threads).toHaveLength(0);
    const first = await pool.convert(article, deadlineIn(20_000));
    expect(first.markdown.length).toBeGreaterThan(20);
    expect(pool.threads).toHaveLength(1);
    expect(pool.threads[0]?.resourceLimits).toMatchObject({
      maxOldGenerationSizeMb: 512,
      maxYoungGenerationSizeMb: FOOTPRINT_YOUNG_GENERATION_MB,
    });
    expect(await waitFor(() => pool.threads.length === 0, 5_000)).toBe(true);
    // A small page too: the main thread is collected once the pool is idle.
    expect(collections).toBeGreaterThan(0);
    const again = await pool.convert(article, deadlineIn(20_000));
    expect(again).toEqual(first);
  });

  it('leaves the serve pool warm, with its large young generation', async () => {
    const pool = new ConvertPool({ threads: 1, maxQueue: 8, memoryMb: 512, timeoutMs: 20_000, idleTimeoutMs: 200 });
    pools.push(pool);
    await pool.convert(article, deadlineIn(20_000));
    await new Promise((r) => setTimeout(r, 600));
    expect(pool.threads).toHaveLength(1);
    expect(pool.threads[0]?.resourceLimits?.maxYoungGenerationSizeMb).toBe(youngGenerationMb(512));
  });
});
