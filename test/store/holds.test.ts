/**
 * Holds of a request that never settles (issue 34, item 5): they end with the request's
 * deadline plus a margin, not minutes later, and an instance back from a crash drops the
 * holds it owned before its first admission, leaving other instances' holds alone.
 * Metering over the memory store, with an injected clock.
 */
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/core/config.js';
import type { ApiKeyRecord } from '../../src/core/ports/key-store.js';
import { ApiKeys } from '../../src/services/accounts/api-keys.js';
import { HOLD_MARGIN_MS, Metering } from '../../src/services/accounts/metering.js';
import { MemoryStore } from '../../src/store/memory-store.js';
import { testContext } from '../helpers/request-context.js';

const store = new MemoryStore();
let clock = Date.UTC(2026, 0, 1);

function instance(instanceId: string): Metering {
  const config = loadConfig({
    env: {},
    overrides: { auth: { rateLimitRequests: 0 }, store: { path: ':memory:' }, server: { instanceId } },
  });
  return new Metering({ ledger: store, rateWindows: store, config, now: () => clock });
}

/** A request that holds `max` credits and never finishes (its instance is gone). */
function stuck(metering: Metering, key: ApiKeyRecord, max: number, timeoutMs = 60_000): void {
  void metering
    .run(
      testContext({ caller: { key }, timeoutMs }),
      'crawl',
      max,
      () => new Promise<number>(() => undefined),
      (n) => n,
    )
    .catch(() => undefined);
}

const oneCredit = (metering: Metering, key: ApiKeyRecord) =>
  metering.run(
    testContext({ caller: { key } }),
    'crawl',
    1,
    async () => 1,
    (n) => n,
  );

describe('a hold whose request never settles', () => {
  it("expires at the request's deadline plus the margin", async () => {
    const { record } = await new ApiKeys(store, () => clock).create({ name: 'expiry', credits: 5 });
    const metering = instance('host-a:8080');
    stuck(metering, record, 5, 2_000);
    await new Promise((r) => setTimeout(r, 5));
    await expect(oneCredit(metering, record)).rejects.toMatchObject({ code: 'insufficient_credits', retryable: true });
    clock += 2_000 + HOLD_MARGIN_MS - 1_000;
    await expect(oneCredit(metering, record)).rejects.toMatchObject({ code: 'insufficient_credits' });
    clock += 2_000;
    await expect(oneCredit(metering, record)).resolves.toBe(1);
  });

  it('is released by its instance when it is back, and by no other', async () => {
    const { record } = await new ApiKeys(store, () => clock).create({ name: 'restart', credits: 30 });
    stuck(instance('host-a:8080'), record, 30);
    await new Promise((r) => setTimeout(r, 5));
    // Another instance on the same store: the hold may belong to a live request.
    await expect(oneCredit(instance('host-b:8080'), record)).rejects.toMatchObject({ code: 'insufficient_credits' });
    // host-a restarted (a new process, the same instance id): the key is usable at once.
    const restarted = instance('host-a:8080');
    await expect(oneCredit(restarted, record)).resolves.toBe(1);
    expect((await store.keyById(record.id))?.balance).toBe(29);
  });
});
