/** The contract of SuspensionStore (core/ports/suspension-store.ts): the longer one kept, expiry, clearing. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SuspensionStore } from '../../src/core/ports/suspension-store.js';
import type { Closable } from './contract-helpers.js';

export function suspensionContract(make: () => Promise<SuspensionStore & Closable>): void {
  describe('engine suspensions (SuspensionStore)', () => {
    let store: SuspensionStore & Closable;
    beforeEach(async () => {
      store = await make();
    });
    afterEach(async () => {
      await store.close();
    });

    it('keep the longer one, expire, and clear', async () => {
      const now = Date.now();
      expect(await store.getSuspension('duckduckgo', now)).toBeUndefined();
      await store.putSuspension('duckduckgo', { reason: 'blocked', until: now + 60_000, cause: 'CAPTCHA' }, now);
      await store.putSuspension('duckduckgo', { reason: 'rate_limited', until: now + 1_000, cause: '429' }, now);
      expect(await store.getSuspension('duckduckgo', now)).toEqual({
        reason: 'blocked',
        until: now + 60_000,
        cause: 'CAPTCHA',
      });
      expect(await store.getSuspension('duckduckgo', now + 60_000)).toBeUndefined();
      await store.putSuspension('brave', { reason: 'rate_limited', until: now + 200, cause: '429' }, now);
      expect((await store.getSuspension('brave', now))?.reason).toBe('rate_limited');
      await store.clearSuspensions();
      expect(await store.getSuspension('duckduckgo', now)).toBeUndefined();
      expect(await store.getSuspension('brave', now)).toBeUndefined();
    });
  });
}
