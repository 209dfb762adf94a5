/** The contract of KeyStore (core/ports/key-store.ts): lookups, order, count, revocation, top-ups. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { KeyStore } from '../../src/core/ports/key-store.js';
import { keyRecord, type Closable } from './contract-helpers.js';

export function keyContract(make: () => Promise<KeyStore & Closable>): void {
  describe('keys (KeyStore)', () => {
    let store: KeyStore & Closable;
    beforeEach(async () => {
      store = await make();
    });
    afterEach(async () => {
      await store.close();
    });

    it('are found by hash and by id, listed in creation order, counted, revoked once', async () => {
      const a = keyRecord();
      const b = keyRecord({ balance: null });
      await store.createKey(b);
      await store.createKey(a);
      expect(await store.keyByHash(a.hash)).toEqual(a);
      expect(await store.keyById(b.id)).toEqual(b);
      expect(await store.keyByHash('0'.repeat(64))).toBeUndefined();
      expect(await store.keyById('key_none')).toBeUndefined();
      expect((await store.listKeys()).map((k) => k.id)).toEqual([a.id, b.id]);
      expect(await store.keyCount()).toBe(2);
      expect(await store.revokeKey(a.id, '2026-02-01T00:00:00.000Z')).toBe(true);
      expect(await store.revokeKey(a.id, '2026-03-01T00:00:00.000Z')).toBe(true);
      expect((await store.keyById(a.id))?.revokedAt).toBe('2026-02-01T00:00:00.000Z');
      expect(await store.revokeKey('key_none', '2026-02-01T00:00:00.000Z')).toBe(false);
      expect(await store.keyCount()).toBe(2);
    });

    it('refuse a second key with the same hash or the same id, keeping the first', async () => {
      const a = keyRecord();
      await store.createKey(a);
      await expect(store.createKey(keyRecord({ hash: a.hash }))).rejects.toThrow();
      await expect(store.createKey(keyRecord({ id: a.id, balance: 999 }))).rejects.toThrow();
      expect(await store.keyById(a.id)).toEqual(a);
      expect(await store.listKeys()).toHaveLength(1);
    });

    it('top up a limited key and leave an unlimited one unlimited', async () => {
      const limited = keyRecord({ balance: 3 });
      const unlimited = keyRecord({ balance: null });
      await store.createKey(limited);
      await store.createKey(unlimited);
      expect((await store.topUp(limited.id, 7))?.balance).toBe(10);
      expect((await store.topUp(unlimited.id, 7))?.balance).toBeNull();
      expect(await store.topUp('key_none', 7)).toBeUndefined();
    });
  });
}
