/**
 * Size, time, cancellation and concurrency limits of the GuardedFetcher. Tests that count
 * sockets start their own fixture site so that no other test's keep-alive socket counts.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { AppError } from '../../src/core/errors.js';
import { deadlineIn } from '../../src/core/request-context.js';
import { GuardedFetcher } from '../../src/net/guarded-fetcher.js';
import { fetchConfig } from '../helpers/fetch-config.js';
import { startFixtureSite, type FixtureSite } from '../helpers/fixture-site.js';

const MiB = 1024 * 1024;
let site: FixtureSite;
const cleanups: Array<() => Promise<void>> = [];

function fetcher(overrides: Parameters<typeof fetchConfig>[0] = {}): GuardedFetcher {
  const client = new GuardedFetcher(fetchConfig({ allowPrivateAddresses: true, ...overrides }));
  cleanups.push(() => client.close());
  return client;
}

async function freshSite(): Promise<FixtureSite> {
  const own = await startFixtureSite();
  cleanups.push(() => own.close());
  return own;
}

async function until(condition: () => boolean, ms = 2_000): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (condition()) return true;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return condition();
}

/** The caller's signal under the configured deadline (what a fetch without a context gets). */
const cancelledBy = (signal: AbortSignal) => ({ ctx: deadlineIn(fetchConfig().timeoutMs, signal) });

const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (e: unknown) => e as AppError,
  );

beforeAll(async () => {
  site = await startFixtureSite();
});
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});
afterAll(async () => {
  await site?.close();
});

describe('size cap (10 MiB of decoded body by default)', () => {
  it('refuses an announced Content-Length above the cap before reading any body', async () => {
    const client = fetcher();
    const error = await failure(client.fetch(`${site.origin}/huge-declared`));
    expect(error).toMatchObject({ code: 'too_large', statusCode: 200 });
    expect(error?.message).toMatch(/Content-Length 52428800 exceeds 10485760/);
    // The fixture holds the body back for 300 ms: no body byte written proves the headers
    // alone decided (a wall-clock bound would flake on a loaded machine).
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(site.bytesWritten('/huge-declared')).toBe(0);
  });

  it('refuses a 12 MiB chunked body once 10 MiB were counted, and closes the socket', async () => {
    const own = await freshSite();
    const client = fetcher();
    const error = await failure(client.fetch(`${own.origin}/huge-chunked`));
    expect(error).toMatchObject({ code: 'too_large', statusCode: 200 });
    expect(error?.message).toMatch(/exceeds 10485760 bytes/);
    expect(await until(() => own.openSockets() === 0)).toBe(true);
  });

  it('counts decoded bytes: a small gzip body over a small maxBytes fails', async () => {
    const client = fetcher();
    expect((await client.fetch(`${site.origin}/gzip`)).body.length).toBeGreaterThan(3_000);
    await expect(client.fetch(`${site.origin}/gzip`, { maxBytes: 1_000 })).rejects.toMatchObject({ code: 'too_large' });
    await expect(client.fetch(`${site.origin}/html`, { maxBytes: 1_000 })).rejects.toMatchObject({ code: 'too_large' });
  });

  it('stops a gzip bomb after ~maxBytes of output, quickly and with bounded memory', async () => {
    const client = fetcher();
    await client.fetch(`${site.origin}/gzip-bomb`, { truncateAt: 10 }); // builds the bomb once, outside the measurement
    const baseline = process.memoryUsage().arrayBuffers;
    let peak = baseline;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().arrayBuffers)), 2);
    const started = Date.now();
    const error = await failure(client.fetch(`${site.origin}/gzip-bomb`));
    clearInterval(sampler);
    peak = Math.max(peak, process.memoryUsage().arrayBuffers);
    expect(error).toMatchObject({ code: 'too_large', statusCode: 200 });
    expect(Date.now() - started).toBeLessThan(6_000);
    // Inflating the whole bomb would hold 100 MiB; the cap keeps it near 10 MiB.
    expect(peak - baseline).toBeLessThan(40 * MiB);
  });

  it('truncateAt cuts the body without an error (and skips the Content-Length refusal)', async () => {
    const client = fetcher();
    const chunked = await client.fetch(`${site.origin}/huge-chunked`, { truncateAt: 5_000 });
    expect(chunked.body.length).toBe(5_000);
    const declared = await client.fetch(`${site.origin}/huge-declared`, { truncateAt: 1_000 });
    expect(declared.body.length).toBe(1_000);
    const short = await client.fetch(`${site.origin}/text`, { truncateAt: 1_000_000 });
    expect(new TextDecoder().decode(short.body)).toMatch(/^Harbour office notes/);
  });
});

describe('time limits', () => {
  it('the overall deadline stops a slow drip', async () => {
    const own = await freshSite();
    const client = fetcher({ idleTimeoutMs: 10_000 });
    const started = Date.now();
    const error = await failure(client.fetch(`${own.origin}/slow-drip`, { ctx: deadlineIn(1_500) }));
    const elapsed = Date.now() - started;
    expect(error).toMatchObject({ code: 'timeout', retryable: true });
    expect(error?.message).toMatch(/within 1500 ms/);
    expect(elapsed).toBeGreaterThanOrEqual(1_400);
    expect(elapsed).toBeLessThan(8_000);
    expect(await until(() => own.openSockets() === 0)).toBe(true);
  });

  it('the config deadline applies when the caller gives none', async () => {
    const client = fetcher({ timeoutMs: 400, idleTimeoutMs: 10_000 });
    const started = Date.now();
    await expect(client.fetch(`${site.origin}/hang`)).rejects.toMatchObject({ code: 'timeout' });
    expect(Date.now() - started).toBeLessThan(6_000);
  });

  it('the idle timeout catches a server that never sends headers', async () => {
    const client = fetcher({ idleTimeoutMs: 300 });
    const started = Date.now();
    const error = await failure(client.fetch(`${site.origin}/hang`));
    expect(error).toMatchObject({ code: 'timeout', retryable: true });
    expect(error?.message).toMatch(/no response headers .* within 300 ms/);
    expect(Date.now() - started).toBeLessThan(6_000);
  });

  it('the idle timeout catches a body that stalls', async () => {
    const client = fetcher({ idleTimeoutMs: 300 });
    const error = await failure(client.fetch(`${site.origin}/hang-body`));
    expect(error).toMatchObject({ code: 'timeout', statusCode: 200 });
    expect(error?.message).toMatch(/stalled for 300 ms/);
  });

  it('the deadline also covers waiting for a per-host slot', async () => {
    const client = fetcher({ perHostConcurrency: 1 });
    const controller = new AbortController();
    const holder = failure(client.fetch(`${site.origin}/hang`, cancelledBy(controller.signal)));
    const started = Date.now();
    await expect(client.fetch(`${site.origin}/html`, { ctx: deadlineIn(300) })).rejects.toMatchObject({
      code: 'timeout',
    });
    expect(Date.now() - started).toBeLessThan(6_000);
    controller.abort();
    expect(await holder).toMatchObject({ code: 'cancelled' });
  });
});

describe('cancellation', () => {
  it('aborting while waiting for headers rejects with "cancelled" and closes the socket', async () => {
    const own = await freshSite();
    const client = fetcher();
    const controller = new AbortController();
    const pending = failure(client.fetch(`${own.origin}/hang`, cancelledBy(controller.signal)));
    expect(await until(() => own.openSockets() === 1)).toBe(true);
    controller.abort();
    expect(await pending).toMatchObject({ code: 'cancelled', retryable: false });
    expect(await until(() => own.openSockets() === 0)).toBe(true);
  });

  it('aborting while the body streams closes the socket too', async () => {
    const own = await freshSite();
    const client = fetcher();
    const controller = new AbortController();
    const pending = failure(client.fetch(`${own.origin}/slow-drip?interval=50`, cancelledBy(controller.signal)));
    expect(await until(() => own.bytesWritten('/slow-drip') > 3)).toBe(true);
    controller.abort(new Error('user went away'));
    expect(await pending).toMatchObject({ code: 'cancelled' });
    expect(await until(() => own.openSockets() === 0)).toBe(true);
  });

  it('an already aborted signal never connects', async () => {
    const own = await freshSite();
    const client = fetcher();
    await expect(client.fetch(`${own.origin}/html`, cancelledBy(AbortSignal.abort()))).rejects.toMatchObject({
      code: 'cancelled',
    });
    expect(own.connections()).toBe(0);
  });
});

describe('per-host concurrency cap', () => {
  it('lets at most perHostConcurrency requests reach one host at once', async () => {
    const own = await freshSite();
    const client = fetcher({ perHostConcurrency: 2 });
    const started = Date.now();
    const results = await Promise.all(Array.from({ length: 5 }, () => client.fetch(`${own.origin}/delay/150`)));
    expect(results.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
    expect(own.peakConcurrency('/delay/150')).toBe(2);
    expect(Date.now() - started).toBeGreaterThanOrEqual(3 * 150 - 20); // three rounds
  });

  it('bypassHostLimit skips the queue', async () => {
    const own = await freshSite();
    const client = fetcher({ perHostConcurrency: 1 });
    await Promise.all(
      Array.from({ length: 3 }, () => client.fetch(`${own.origin}/delay/100`, { bypassHostLimit: true })),
    );
    expect(own.peakConcurrency('/delay/100')).toBe(3);
  });

  it('releases the slot on every failure path', async () => {
    const client = fetcher({ perHostConcurrency: 1 });
    const origin = site.origin;
    await failure(client.fetch(`${origin}/huge-chunked`));
    await failure(client.fetch(`${origin}/huge-declared`));
    await failure(client.fetch(`${origin}/content-length-lie`));
    await failure(client.fetch(`${origin}/redirect/9`));
    await failure(
      client.fetch(`${origin}/html`, {
        onHead: () => {
          throw new Error('no');
        },
      }),
    );
    await failure(
      client.fetch(`${origin}/html`, {
        onFirstBytes: () => {
          throw new Error('no');
        },
      }),
    );
    await failure(client.fetch(`${origin}/hang`, { ctx: deadlineIn(200) }));
    await failure(client.fetch(`${origin}/hang`, cancelledBy(AbortSignal.timeout(100))));
    const ok = await client.fetch(`${origin}/html`, { ctx: deadlineIn(1_000) });
    expect(ok.status).toBe(200);
  });
});

describe('close()', () => {
  it('refuses new requests once closed', async () => {
    const client = new GuardedFetcher(fetchConfig({ allowPrivateAddresses: true }));
    await client.fetch(`${site.origin}/text`);
    await client.close();
    await client.close(); // idempotent
    await expect(client.fetch(`${site.origin}/text`)).rejects.toMatchObject({ code: 'cancelled' });
  });
});

describe('option sanitising', () => {
  it('ignores nonsensical per-request limits and uses the configured ones', async () => {
    const client = fetcher();
    const res = await client.fetch(`${site.origin}/text`, {
      ctx: { deadline: Number.NaN, signal: new AbortController().signal },
      maxBytes: Number.NaN,
    });
    expect(res.status).toBe(200);
    // A deadline beyond setTimeout's range must not fire at once.
    expect((await client.fetch(`${site.origin}/text`, { ctx: deadlineIn(2 ** 40) })).status).toBe(200);
  });
});
