/**
 * The one bound on every store call (security issue, item 5): a store that does not answer
 * fails the call with store_unavailable after the store timeout, on the store's own
 * methods and on the objects they hand back (a cache namespace, the site jobs' port), as a
 * store that is down already does; an answer in time, or a statement's own error, passes.
 */
import { describe, expect, it } from 'vitest';
import { reportingOutages, STORE_RETRY_AFTER_S } from '../../src/store/store-outage.js';

const never = () => new Promise<never>(() => undefined);

function fakeStore() {
  return {
    ping: never,
    close: () => new Promise<void>((resolve) => setTimeout(resolve, 150)),
    answers: async () => 'ok',
    wrong: async () => Promise.reject(new Error('a statement error')),
    cache: () => ({ get: never }),
    siteJobs: { getJob: never },
  };
}

describe('reportingOutages with a timeout', () => {
  const store = reportingOutages(fakeStore(), 'Test', () => false, { timeoutMs: 50 });

  it.each([
    ['a method', () => store.ping()],
    ['an object a method hands back', () => store.cache().get()],
    ['a port held as a property', () => store.siteJobs.getJob()],
  ])('fails %s that does not answer with store_unavailable', async (_what, call) => {
    const started = performance.now();
    await expect(call()).rejects.toMatchObject({ code: 'store_unavailable', retryAfter: STORE_RETRY_AFTER_S });
    expect(performance.now() - started).toBeLessThan(1_000);
  });

  it('passes answers and errors that come in time, and lets close take its time', async () => {
    await expect(store.answers()).resolves.toBe('ok');
    await expect(store.wrong()).rejects.toThrow('a statement error');
    await expect(store.close()).resolves.toBeUndefined();
  });
});
