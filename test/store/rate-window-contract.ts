/** The contract of RateWindowStore (core/ports/rate-window-store.ts): fixed windows per bucket. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { RateWindowStore } from '../../src/core/ports/rate-window-store.js';
import type { Closable } from './contract-helpers.js';

export function rateWindowContract(make: () => Promise<RateWindowStore & Closable>): void {
  describe('rate limits (RateWindowStore)', () => {
    let store: RateWindowStore & Closable;
    beforeEach(async () => {
      store = await make();
    });
    afterEach(async () => {
      await store.close();
    });

    it('count requests in fixed windows and restart in the next one', async () => {
      const window = 60_000;
      const start = Math.floor(Date.now() / window) * window;
      expect(await store.hitRateLimit('key:a', window, start + 5)).toEqual({ count: 1, resetAt: start + window });
      expect(await store.hitRateLimit('key:a', window, start + 10)).toEqual({ count: 2, resetAt: start + window });
      expect(await store.hitRateLimit('key:b', window, start + 10)).toEqual({ count: 1, resetAt: start + window });
      expect(await store.hitRateLimit('key:a', window, start + window)).toEqual({
        count: 1,
        resetAt: start + 2 * window,
      });
    });
  });
}
