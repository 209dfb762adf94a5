/** The contract of HealthStore (core/ports/store-port.ts): a ping that fails once the store is closed. */
import { describe, expect, it } from 'vitest';
import type { HealthStore } from '../../src/core/ports/store-port.js';
import type { Closable } from './contract-helpers.js';

export function healthContract(make: () => Promise<HealthStore & Closable>): void {
  describe('health (HealthStore)', () => {
    it('answers a ping, and refuses work once closed', async () => {
      const store = await make();
      let closed = false;
      try {
        await expect(store.ping()).resolves.toBeUndefined();
        closed = true;
        await store.close();
        await expect(store.ping()).rejects.toThrow();
      } finally {
        if (!closed) await store.close();
      }
    });
  });
}
