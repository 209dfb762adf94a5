/**
 * The conversion pool shared between keys (src/workers/convert-pool.ts over fair-queue.ts),
 * on real worker threads: a key that floods the pool does not hold another key's page
 * behind its queue; a task past the budget of one conversion (WEBSEARCH_CONVERT_TIMEOUT_MS)
 * fails `timeout` naming it while its URL's deadline keeps its own message, and the next
 * task converts; a waiting task whose request is cancelled leaves the queue at once; and
 * passages ranked on a worker are byte for byte those ranked on this thread.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { Caller } from '../../src/core/caller.js';
import { AppError } from '../../src/core/errors.js';
import { deadlineIn } from '../../src/core/request-context.js';
import type { ConvertInput } from '../../src/extract/index.js';
import { rankPassages, type PassagesInput } from '../../src/extract/passages/index.js';
import { ConvertPool, type ConvertPoolOptions } from '../../src/workers/convert-pool.js';
import { ARTICLE_HTML } from '../helpers/fixture-pages.js';
import { hostileBody } from '../../bench/fixtures/hostile-pages.mjs';

const pools: ConvertPool[] = [];
afterEach(async () => {
  await Promise.all(pools.splice(0).map((pool) => pool.close()));
});

function pool(options: Partial<ConvertPoolOptions> = {}): ConvertPool {
  const created = new ConvertPool({ threads: 1, maxQueue: 16, memoryMb: 256, timeoutMs: 60_000, ...options });
  pools.push(created);
  return created;
}

const keyed = (id: string): Caller => ({
  key: { id, name: id, hash: '0'.repeat(64), prefix: 'wsk_test', balance: null, createdAt: '2025-01-01T00:00:00Z' },
});
const as = (caller: Caller, ms = 60_000, signal?: AbortSignal) => ({ ...deadlineIn(ms, signal), caller });

const html = (body: string): ConvertInput => ({
  bytes: Buffer.from(`<!doctype html><html><head><title>Page</title></head><body>${body}</body></html>`),
  contentType: 'text/html; charset=utf-8',
  url: 'https://example.test/page',
  format: 'markdown',
  headers: {},
});
/** A page that takes a worker a while (tenths of a second to seconds, by the machine). */
const paragraphs = (n: number) => html(Array.from({ length: n }, (_, i) => `<p>paragraph ${i}</p>`).join(''));
const article = (): ConvertInput => html(ARTICLE_HTML);
/** 100,000 lists nested in each other's items: seconds of work on any machine (bench/fixtures/hostile-pages.mjs). */
const nestedLists = (): ConvertInput => ({ ...html(''), bytes: hostileBody('nested-lists') as Uint8Array });

/** Resolves once `check` holds (polled), failing the test after `ms`. */
async function until(check: () => boolean, ms = 20_000): Promise<void> {
  for (const end = Date.now() + ms; !check(); await new Promise((r) => setTimeout(r, 10)))
    if (Date.now() > end) throw new Error('the pool never reached the state waited for');
}

describe('a pool shared between keys', () => {
  it("starts another key's page before the flooding key's queue drains", async () => {
    const shared = pool();
    const done: string[] = [];
    const flood = ['A1', 'A2', 'A3', 'A4'].map((name) =>
      shared.convert(paragraphs(2_000), as(keyed('key_a'))).then(() => done.push(name)),
    );
    await until(() => shared.running === 1 && shared.waiting === 3);
    const other = shared.convert(article(), as(keyed('key_b'))).then(() => done.push('B1'));
    await Promise.all([...flood, other]);
    // One worker: A1 was on it; B1 came next, then A's others in their own order.
    expect(done).toEqual(['A1', 'B1', 'A2', 'A3', 'A4']);
  });

  it('keyless callers share one turn, as one key', async () => {
    const shared = pool();
    const done: string[] = [];
    const keyless = ['L1', 'L2', 'L3'].map((name) =>
      shared.convert(paragraphs(2_000), deadlineIn(60_000)).then(() => done.push(name)),
    );
    await until(() => shared.running === 1 && shared.waiting === 2);
    const other = shared.convert(article(), as(keyed('key_b'))).then(() => done.push('B1'));
    await Promise.all([...keyless, other]);
    expect(done).toEqual(['L1', 'B1', 'L2', 'L3']);
  });

  it('a full queue answers busy at once, naming the bounds', async () => {
    const shared = pool({ maxQueue: 1 });
    const running = shared.convert(paragraphs(2_000), as(keyed('key_a')));
    await until(() => shared.running === 1);
    const waiting = shared.convert(article(), as(keyed('key_a')));
    const refused = await shared.convert(article(), as(keyed('key_a'))).catch((e: unknown) => e);
    expect(refused).toMatchObject({ code: 'busy', message: expect.stringContaining('(1 at a time, 1 waiting)') });
    await Promise.all([running, waiting]);
  });

  it("a waiting task whose request is cancelled leaves the queue at once, and the key's next task takes its turn", async () => {
    const shared = pool();
    const first = shared.convert(paragraphs(2_000), as(keyed('key_a')));
    await until(() => shared.running === 1);
    const controller = new AbortController();
    const cancelled = shared.convert(article(), as(keyed('key_b'), 60_000, controller.signal)).catch((e: unknown) => e);
    const next = shared.convert(article(), as(keyed('key_b')));
    expect(shared.waiting).toBe(2);
    controller.abort(new AppError('cancelled', 'the client went away'));
    expect(await cancelled).toMatchObject({ code: 'cancelled' });
    // Gone from the queue while the first task still runs.
    expect(shared.waiting).toBe(1);
    expect(shared.running).toBe(1);
    await first;
    expect((await next).markdown.length).toBeGreaterThan(100);
  });

  it('a waiting task whose deadline passes leaves the queue with its timeout', async () => {
    const shared = pool();
    const first = shared.convert(paragraphs(2_000), as(keyed('key_a')));
    await until(() => shared.running === 1);
    const late = await shared.convert(article(), as(keyed('key_b'), 50)).catch((e: unknown) => e);
    expect(late).toMatchObject({ code: 'timeout', message: expect.stringContaining('not converted within') });
    expect(shared.waiting).toBe(0);
    await first;
  });
});

describe('the budget of one conversion (WEBSEARCH_CONVERT_TIMEOUT_MS)', () => {
  it('stops a conversion past it with timeout naming the setting, and the next converts', async () => {
    const bounded = pool({ timeoutMs: 2_000 });
    const error = await bounded.convert(nestedLists(), as(keyed('key_a'))).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({ code: 'timeout', retryable: true });
    expect((error as AppError).message).toMatch(/took more than 2000 ms.*WEBSEARCH_CONVERT_TIMEOUT_MS/);
    // Its worker was terminated and replaced: the next page converts (under the same budget,
    // which its new worker's start counts in: a text page, which loads no HTML cascade).
    const next = await bounded.convert(
      { ...html(''), bytes: Buffer.from('A short page after the stopped one.'), contentType: 'text/plain' },
      as(keyed('key_a')),
    );
    expect(next.markdown).toContain('A short page after the stopped one.');
  });

  it("leaves the URL's own deadline its own message when that ends first", async () => {
    const bounded = pool({ timeoutMs: 60_000 });
    const error = await bounded.convert(nestedLists(), as(keyed('key_a'), 1_000)).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'timeout' });
    expect((error as AppError).message).toMatch(/not converted within the \d+ ms left of its deadline/);
    expect((error as AppError).message).not.toContain('WEBSEARCH_CONVERT_TIMEOUT_MS');
  });

  it('bounds a passage ranking too', async () => {
    const bounded = pool({ timeoutMs: 20 });
    const markdown = Array.from({ length: 60_000 }, (_, i) => `Paragraph ${i} on tides and the harbour.\n`).join('\n');
    const error = await bounded
      .rankPassages({ markdown, query: 'harbour tides', max: 5 }, as(keyed('key_a')))
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'timeout' });
    expect((error as AppError).message).toMatch(
      /Ranking the page's passages took more than 20 ms.*WEBSEARCH_CONVERT_TIMEOUT_MS/,
    );
  });
});

describe('passages ranked on a worker', () => {
  /** A long page of sections, a table and a list: every kind of passage the splitter makes. */
  function longMarkdown(size: number): string {
    const words = ['harbour', 'tide', 'current', 'pilot', 'channel', 'buoy', 'estuary', 'ferry', 'dredge', 'quay'];
    const parts: string[] = [];
    for (let i = 0, length = 0; length < size; i++) {
      const w = (k: number) => words[(i * 7 + k) % words.length];
      const part =
        i % 9 === 0
          ? `## Section ${i}: the ${w(1)}\n\n| ${w(2)} | depth |\n| --- | --- |\n| ${w(3)} | ${i} m |\n| ${w(4)} | ${i + 1} m |\n`
          : i % 5 === 0
            ? `Items of the ${w(0)}:\n\n- the ${w(1)} at ${i}\n- the ${w(2)} near the ${w(3)}\n`
            : `The ${w(0)} by the ${w(1)} was ${i} metres deep when the ${w(2)} passed the ${w(3)}; [a ${w(4)}](https://example.test/${i}) says so.\n`;
      parts.push(part);
      length += part.length + 1;
    }
    return parts.join('\n');
  }

  it('are byte for byte those ranked on this thread', async () => {
    const shared = pool({ threads: 2 });
    const big = longMarkdown(3 * 1024 * 1024);
    const inputs: PassagesInput[] = [
      { markdown: big, query: 'how deep was the channel near the estuary', max: 10 },
      { markdown: big, query: 'ferry pilot', max: 3, language: 'en' },
      { markdown: longMarkdown(20_000), query: 'Gezeiten im Hafen', max: 5, language: 'de' },
      { markdown: '', query: 'anything', max: 5 },
      { markdown: longMarkdown(5_000), query: 'the of and', max: 5 },
    ];
    for (const input of inputs) {
      const pooled = await shared.rankPassages(input, as(keyed('key_a')));
      const local = rankPassages(input);
      expect(JSON.stringify(pooled)).toBe(JSON.stringify(local));
    }
    expect(rankPassages(inputs[0]!).length).toBe(10);
  });
});
