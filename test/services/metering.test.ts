/**
 * Metering around an operation: rate limit, admission by hold, one debit of exactly what
 * the result says, nothing charged for a failure, unmetered local callers.
 */
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/core/config.js';
import { AppError } from '../../src/core/errors.js';
import { ApiKeys } from '../../src/services/accounts/api-keys.js';
import { LOCAL_CALLER } from '../../src/core/caller.js';
import { Metering } from '../../src/services/accounts/metering.js';
import { testContext } from '../helpers/request-context.js';
import { MemoryStore } from '../../src/store/memory-store.js';

function setup(auth: { rateLimitRequests?: number; rateLimitWindowMs?: number } = {}) {
  const store = new MemoryStore();
  const config = loadConfig({
    env: {},
    overrides: { auth: { rateLimitRequests: 0, ...auth }, store: { path: ':memory:' } },
  });
  let now = Date.UTC(2026, 0, 1);
  const refused: string[] = [];
  const charged: number[] = [];
  const metering = new Metering({
    ledger: store,
    rateWindows: store,
    config,
    now: () => now,
    observer: { creditsCharged: (_op, n) => void charged.push(n), requestRefused: (code) => void refused.push(code) },
  });
  return {
    store,
    metering,
    keys: new ApiKeys(store, () => now),
    advance: (ms: number) => (now += ms),
    refused,
    charged,
  };
}

describe('Metering', () => {
  it('debits what the result says and records one usage line per request', async () => {
    const { store, metering, keys, charged } = setup();
    const { record } = await keys.create({ name: 'a', credits: 10 });
    const result = await metering.run(
      testContext({ caller: { key: record } }),
      'crawl',
      5,
      async () => ({ credits: 3 }),
      (r) => r.credits,
    );
    expect(result).toEqual({ credits: 3 });
    expect((await store.keyById(record.id))?.balance).toBe(7);
    expect(await store.usage({ keyId: record.id })).toMatchObject([
      { keyId: record.id, operation: 'crawl', credits: 3 },
    ]);
    expect(charged).toEqual([3]);
    // The hold is gone: the whole balance can be reserved again.
    expect(await store.reserve(record.id, 'probe', 7, 60_000, Date.now())).toMatchObject({ ok: true });
  });

  it('charges nothing for a failed operation and releases its hold', async () => {
    const { store, metering, keys } = setup();
    const { record } = await keys.create({ name: 'a', credits: 4 });
    await expect(
      metering.run(
        testContext({ caller: { key: record } }),
        'search',
        4,
        async () => Promise.reject(new AppError('engines_unavailable', 'all down')),
        () => 4,
      ),
    ).rejects.toMatchObject({
      code: 'engines_unavailable',
    });
    expect((await store.keyById(record.id))?.balance).toBe(4);
    expect(await store.usage({ keyId: record.id })).toEqual([]);
    await expect(
      metering.run(
        testContext({ caller: { key: record } }),
        'search',
        4,
        async () => 'ok',
        () => 1,
      ),
    ).resolves.toBe('ok');
  });

  it('refuses a spent key with insufficient_credits before doing any work', async () => {
    const { metering, keys, refused } = setup();
    const { record } = await keys.create({ name: 'a', credits: 0 });
    let worked = false;
    await expect(
      metering.run(
        testContext({ caller: { key: record } }),
        'crawl',
        1,
        async () => {
          worked = true;
        },
        () => 1,
      ),
    ).rejects.toMatchObject({ code: 'insufficient_credits' });
    expect(worked).toBe(false);
    expect(refused).toEqual(['insufficient_credits']);
  });

  it('never lets concurrent requests overdraw a key', async () => {
    const { store, metering, keys } = setup();
    const { record } = await keys.create({ name: 'a', credits: 3 });
    const outcomes = await Promise.allSettled(
      Array.from({ length: 20 }, () =>
        metering.run(
          testContext({ caller: { key: record } }),
          'crawl',
          2,
          () => new Promise<number>((r) => setTimeout(() => r(2), 5)),
          (n) => n,
        ),
      ),
    );
    const done = outcomes.filter((o) => o.status === 'fulfilled').length;
    const balance = (await store.keyById(record.id))?.balance as number;
    // Each holds 2 of 3: one at a time, and never a second once the first has charged.
    expect(done).toBe(1);
    expect(balance).toBe(1);
    expect(
      outcomes
        .filter((o) => o.status === 'rejected')
        .every((o) => (o as PromiseRejectedResult).reason.code === 'insufficient_credits'),
    ).toBe(true);
  });

  it('says when a positive balance is refused because requests in flight hold it', async () => {
    const { metering, keys } = setup();
    const { record } = await keys.create({ name: 'a', credits: 3 });
    let finish: () => void = () => undefined;
    const first = metering.run(
      testContext({ caller: { key: record } }),
      'crawl',
      3,
      () => new Promise<number>((r) => (finish = () => r(1))),
      (n) => n,
    );
    await new Promise((r) => setTimeout(r, 5));
    const error = await metering
      .run(
        testContext({ caller: { key: record } }),
        'crawl',
        1,
        async () => 1,
        (n) => n,
      )
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'insufficient_credits', retryable: true });
    expect((error as AppError).message).toMatch(
      /needs up to 1 credit .*; the key has 0 available: 3 of its 3 are held by its requests in progress/,
    );
    finish();
    await first;
    await expect(
      metering.run(
        testContext({ caller: { key: record } }),
        'crawl',
        1,
        async () => 1,
        (n) => n,
      ),
    ).resolves.toBe(1);
  });

  it('releases the hold when the debit itself fails (nothing charged)', async () => {
    const { store, metering, keys } = setup();
    const { record } = await keys.create({ name: 'a', credits: 2 });
    const charge = store.charge.bind(store);
    store.charge = async () => Promise.reject(new Error('store went away'));
    await expect(
      metering.run(
        testContext({ caller: { key: record } }),
        'crawl',
        2,
        async () => 2,
        (n) => n,
      ),
    ).rejects.toThrow('store went away');
    store.charge = charge;
    expect((await store.keyById(record.id))?.balance).toBe(2);
    expect(await store.reserve(record.id, 'probe', 2, 60_000, Date.now())).toMatchObject({ ok: true });
  });

  it('fails a short deadline with store_unavailable when the store is slow before the work, and drops a hold that lands late', async () => {
    const { store, metering, keys } = setup();
    const { record } = await keys.create({ name: 'a', credits: 5 });
    // One connection keeps the order of its commands (Redis): a hold that lands after 1 s,
    // then whatever was sent after it.
    let queue: Promise<unknown> = Promise.resolve();
    const inOrder = <T>(step: () => Promise<T>): Promise<T> => {
      const next = queue.then(step);
      queue = next.catch(() => undefined);
      return next;
    };
    const [reserve, release] = [store.reserve.bind(store), store.release.bind(store)];
    store.reserve = (...args) =>
      inOrder(async () => (await new Promise((r) => setTimeout(r, 1_000)), reserve(...args)));
    store.release = (...args) => inOrder(() => release(...args));
    let worked = false;
    const started = performance.now();
    await expect(
      metering.run(
        testContext({ caller: { key: record }, timeoutMs: 300 }),
        'crawl',
        5,
        async () => (worked = true),
        () => 1,
      ),
    ).rejects.toMatchObject({ code: 'store_unavailable', retryAfter: 5 });
    // Inside its deadline, not after the store's own bound (2 s) nor the store's answer (1 s).
    expect(performance.now() - started).toBeLessThan(800);
    expect(worked).toBe(false);
    await new Promise((r) => setTimeout(r, 1_200));
    await queue;
    expect(await store.heldCredits(record.id, Date.UTC(2026, 0, 1))).toBe(0);
  });

  it('refuses a key revoked after it authenticated', async () => {
    const { metering, keys } = setup();
    const { record } = await keys.create({ name: 'a' });
    await keys.revoke(record.id);
    await expect(
      metering.run(
        testContext({ caller: { key: record } }),
        'crawl',
        1,
        async () => 1,
        () => 1,
      ),
    ).rejects.toMatchObject({ code: 'unauthorized' });
  });

  it('rate-limits per key and window, with a Retry-After to the end of the window', async () => {
    const { metering, keys, advance, refused } = setup({ rateLimitRequests: 2, rateLimitWindowMs: 10_000 });
    const a = (await keys.create({ name: 'a' })).record;
    const b = (await keys.create({ name: 'b' })).record;
    const call = (key: typeof a) =>
      metering.run(
        testContext({ caller: { key } }),
        'search',
        1,
        async () => 'ok',
        () => 0,
      );
    await call(a);
    await call(a);
    const error = await call(a).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'rate_limited' });
    expect((error as AppError).retryAfter).toBeGreaterThanOrEqual(1);
    expect((error as AppError).retryAfter).toBeLessThanOrEqual(10);
    await expect(call(b)).resolves.toBe('ok');
    advance(10_000);
    await expect(call(a)).resolves.toBe('ok');
    expect(refused).toEqual(['rate_limited']);
  });

  it('does not meter a local caller', async () => {
    const { store, metering } = setup({ rateLimitRequests: 1 });
    for (let i = 0; i < 3; i++)
      await expect(
        metering.run(
          testContext({ caller: LOCAL_CALLER }),
          'crawl',
          1,
          async () => i,
          () => 1,
        ),
      ).resolves.toBe(i);
    expect(await store.usage()).toEqual([]);
  });
});

describe('ApiKeys', () => {
  it('stores only a hash, shows a prefix, and authenticates by the secret', async () => {
    const { store, keys } = setup();
    const { secret, record } = await keys.create({ name: ' team ', credits: 5 });
    expect(secret).toMatch(/^wsk_[A-Za-z0-9_-]{43}$/);
    expect(record).toMatchObject({ name: 'team', balance: 5, prefix: secret.slice(0, 10) });
    expect(JSON.stringify(await store.listKeys())).not.toContain(secret.slice(10));
    expect((await keys.authenticate(secret)).id).toBe(record.id);
    await expect(keys.authenticate(`${secret}x`)).rejects.toMatchObject({ code: 'unauthorized' });
    await expect(keys.authenticate('')).rejects.toMatchObject({ code: 'unauthorized' });
    await keys.revoke(record.prefix);
    await expect(keys.authenticate(secret)).rejects.toMatchObject({
      code: 'unauthorized',
      message: 'The API key was revoked.',
    });
  });

  it('refuses bad credit amounts and unknown keys with clear errors', async () => {
    const { keys } = setup();
    await expect(keys.create({ credits: -1 })).rejects.toMatchObject({ code: 'invalid_request' });
    await expect(keys.create({ credits: 1.5 })).rejects.toMatchObject({ code: 'invalid_request' });
    const { record } = await keys.create({ credits: 1 });
    await expect(keys.topUp(record.id, 0)).rejects.toMatchObject({ code: 'invalid_request' });
    await expect(keys.topUp('key_missing', 5)).rejects.toMatchObject({ code: 'not_found' });
    expect((await keys.topUp(record.id, 4)).balance).toBe(5);
    expect(await keys.count()).toBe(1);
  });
});
