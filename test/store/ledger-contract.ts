/**
 * The contract of LedgerStore (core/ports/ledger-store.ts): holds, charges and usage records,
 * exact under concurrency. The ledger moves the balances of keys (KeyStore) in the same
 * atomic steps, so its tests set keys up through that port of the same store.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { KeyStore } from '../../src/core/ports/key-store.js';
import type { LedgerStore } from '../../src/core/ports/ledger-store.js';
import { keyRecord, sleep, type Closable } from './contract-helpers.js';

export function ledgerContract(make: () => Promise<LedgerStore & KeyStore & Closable>): void {
  describe('holds and charges (LedgerStore)', () => {
    let store: LedgerStore & KeyStore & Closable;
    beforeEach(async () => {
      store = await make();
    });
    afterEach(async () => {
      await store.close();
    });

    it('refuse unknown and revoked keys', async () => {
      const now = Date.now();
      expect(await store.reserve('key_none', 'r1', 1, 60_000, now)).toMatchObject({ ok: false, reason: 'unknown_key' });
      const k = keyRecord();
      await store.createKey(k);
      await store.revokeKey(k.id, new Date(now).toISOString());
      expect(await store.reserve(k.id, 'r1', 1, 60_000, now)).toMatchObject({ ok: false, reason: 'revoked' });
    });

    it('admit while the balance minus live holds covers the largest cost', async () => {
      const now = Date.now();
      const k = keyRecord({ balance: 5 });
      await store.createKey(k);
      expect(await store.reserve(k.id, 'r1', 4, 60_000, now)).toEqual({ ok: true, balance: 5 });
      expect(await store.reserve(k.id, 'r2', 4, 60_000, now)).toEqual({
        ok: false,
        reason: 'insufficient_credits',
        balance: 5,
        available: 1,
      });
      expect(await store.reserve(k.id, 'r2', 1, 60_000, now)).toEqual({ ok: true, balance: 5 });
      expect(await store.reserve(k.id, 'r3', 1, 60_000, now)).toEqual({
        ok: false,
        reason: 'insufficient_credits',
        balance: 5,
        available: 0,
      });
      await store.release(k.id, 'r2');
      expect(await store.reserve(k.id, 'r3', 1, 60_000, now)).toMatchObject({ ok: true });
      // Holds expire by themselves: a crashed instance's hold stops counting.
      expect(await store.reserve(k.id, 'r4', 1, 60_000, now + 60_001)).toMatchObject({ ok: true });
    });

    it('charge: drop the hold, debit, and write exactly one usage record', async () => {
      const now = Date.now();
      const k = keyRecord({ balance: 5 });
      await store.createKey(k);
      await store.reserve(k.id, 'r1', 5, 60_000, now);
      const at = new Date(now).toISOString();
      expect(await store.charge({ keyId: k.id, operation: 'crawl', credits: 2, requestId: 'r1', at })).toEqual({
        balance: 3,
        charged: true,
      });
      expect((await store.keyById(k.id))?.balance).toBe(3);
      expect(await store.usage({ keyId: k.id })).toEqual([
        { keyId: k.id, operation: 'crawl', credits: 2, requestId: 'r1', at },
      ]);
      // The hold is gone: 3 credits can be held again in full.
      expect(await store.reserve(k.id, 'r2', 3, 60_000, now)).toMatchObject({ ok: true });
      expect(await store.reserve(k.id, 'r3', 1, 60_000, now)).toMatchObject({
        ok: false,
        reason: 'insufficient_credits',
      });
    });

    it('refuse a request its balance cannot cover, and record 0-credit requests', async () => {
      const now = Date.now();
      const k = keyRecord({ balance: 1 });
      const unlimited = keyRecord({ balance: null });
      await store.createKey(k);
      await store.createKey(unlimited);
      expect(await store.reserve(k.id, 'r1', 5, 60_000, now)).toEqual({
        ok: false,
        reason: 'insufficient_credits',
        balance: 1,
        available: 1,
      });
      expect((await store.keyById(k.id))?.balance).toBe(1);
      await store.reserve(unlimited.id, 'u1', 4, 60_000, now);
      expect(
        await store.charge({
          keyId: unlimited.id,
          operation: 'search',
          credits: 0,
          requestId: 'u1',
          at: new Date(now).toISOString(),
        }),
      ).toEqual({ balance: null, charged: true });
      expect(await store.usage({ keyId: unlimited.id })).toHaveLength(1);
    });

    it('filter usage by key and time, oldest first', async () => {
      const a = keyRecord({ balance: null });
      const b = keyRecord({ balance: null });
      await store.createKey(a);
      await store.createKey(b);
      const times = ['2026-01-01T00:00:00.000Z', '2026-01-02T00:00:00.000Z', '2026-01-03T00:00:00.000Z'];
      for (const [i, at] of times.entries()) {
        await store.charge({
          keyId: i === 1 ? b.id : a.id,
          operation: i === 2 ? 'search' : 'crawl',
          credits: i + 1,
          requestId: `r${i}`,
          at,
        });
      }
      expect((await store.usage()).map((u) => u.requestId)).toEqual(['r0', 'r1', 'r2']);
      expect((await store.usage({ keyId: a.id })).map((u) => u.requestId)).toEqual(['r0', 'r2']);
      expect((await store.usage({ since: times[1] })).map((u) => u.requestId)).toEqual(['r1', 'r2']);
      expect((await store.usage({ keyId: a.id, since: times[1] })).map((u) => [u.operation, u.credits])).toEqual([
        ['search', 3],
      ]);
    });

    it('stay exact under 200 parallel reserve + charge pairs on one key', async () => {
      const k = keyRecord({ balance: 1000 });
      await store.createKey(k);
      const now = Date.now();
      const results = await Promise.all(
        Array.from({ length: 200 }, async (_, i) => {
          const admitted = await store.reserve(k.id, `p${i}`, 3, 60_000, now);
          if (!admitted.ok) return 0;
          await store.charge({
            keyId: k.id,
            operation: 'crawl',
            credits: 3,
            requestId: `p${i}`,
            at: new Date(now).toISOString(),
          });
          return 3;
        }),
      );
      const charged = results.reduce<number>((s, n) => s + n, 0);
      expect(charged).toBe(600);
      expect((await store.keyById(k.id))?.balance).toBe(400);
      const usage = await store.usage({ keyId: k.id });
      expect(usage).toHaveLength(200);
      expect(usage.reduce((s, u) => s + u.credits, 0)).toBe(600);
    });

    it('never overdraw when demand exceeds the balance', async () => {
      const k = keyRecord({ balance: 10 });
      await store.createKey(k);
      const now = Date.now();
      const results = await Promise.all(
        Array.from({ length: 200 }, async (_, i) => {
          const admitted = await store.reserve(k.id, `q${i}`, 4, 60_000, now);
          if (!admitted.ok) return 0;
          await sleep(2);
          await store.charge({
            keyId: k.id,
            operation: 'crawl',
            credits: 4,
            requestId: `q${i}`,
            at: new Date(now).toISOString(),
          });
          return 4;
        }),
      );
      const charged = results.reduce<number>((s, n) => s + n, 0);
      const balance = (await store.keyById(k.id))?.balance as number;
      expect(balance).toBe(10 - charged);
      // Holds of 4 out of 10: two admitted, the 2 left cover no third.
      expect(charged).toBe(8);
      expect(balance).toBe(2);
      expect((await store.usage({ keyId: k.id })).reduce((s, u) => s + u.credits, 0)).toBe(charged);
    });

    it("settle a job's page from its own hold, filed under the job, and only while that hold exists", async () => {
      const now = Date.now();
      const k = keyRecord({ balance: 10 });
      await store.createKey(k);
      await store.reserve(k.id, 'req_job#1', 5, 60_000, now, 'site:req_job');
      const at = new Date(now).toISOString();
      const page = {
        keyId: k.id,
        operation: 'site_crawl' as const,
        credits: 5,
        requestId: 'req_job',
        at,
        urls: ['https://a.test/'],
      };
      expect(await store.charge({ ...page, holdId: 'req_job#1', onlyIfHeld: true })).toEqual({
        balance: 5,
        charged: true,
      });
      expect(await store.heldCredits(k.id, now)).toBe(0);
      // Repeated (a kill between the charge and its mark): the hold is gone, nothing happens.
      expect(await store.charge({ ...page, holdId: 'req_job#1', onlyIfHeld: true })).toEqual({
        balance: 5,
        charged: false,
      });
      // Never held: nothing either.
      expect(await store.charge({ ...page, holdId: 'req_job#2', onlyIfHeld: true })).toEqual({
        balance: 5,
        charged: false,
      });
      expect((await store.keyById(k.id))?.balance).toBe(5);
      expect(await store.usage({ keyId: k.id })).toEqual([
        { keyId: k.id, operation: 'site_crawl', credits: 5, requestId: 'req_job', at, urls: ['https://a.test/'] },
      ]);
      // A restarted instance releases its own holds, not a job's.
      await store.reserve(k.id, 'req_job#3', 1, 60_000, now, 'site:req_job');
      expect(await store.releaseOwned('an-instance')).toBe(0);
      expect(await store.heldCredits(k.id, now)).toBe(1);
    });

    it('settle the hold a charge names (its request by default), on its own key only', async () => {
      const now = Date.now();
      const k = keyRecord({ balance: 10 });
      const other = keyRecord({ balance: 10 });
      await store.createKey(k);
      await store.createKey(other);
      const at = new Date(now).toISOString();
      const charge = { keyId: k.id, operation: 'site_crawl' as const, credits: 2, requestId: 'req_a', at };
      await store.reserve(k.id, 'req_a', 3, 60_000, now);
      await store.reserve(k.id, 'req_a#1', 2, 60_000, now);
      // Without onlyIfHeld a charge debits whether or not it finds its hold; it drops the one it names.
      expect(await store.charge({ ...charge, holdId: 'req_a#1' })).toEqual({ balance: 8, charged: true });
      expect(await store.heldCredits(k.id, now)).toBe(3);
      expect(await store.charge({ ...charge, holdId: 'req_a#1' })).toEqual({ balance: 6, charged: true });
      expect(await store.charge({ ...charge, operation: 'map', credits: 1 })).toEqual({ balance: 5, charged: true });
      expect(await store.heldCredits(k.id, now)).toBe(0);
      // onlyIfHeld without holdId: the request's own hold.
      await store.reserve(k.id, 'req_b', 1, 60_000, now);
      const b = { ...charge, requestId: 'req_b', credits: 1, onlyIfHeld: true };
      expect(await store.charge(b)).toEqual({ balance: 4, charged: true });
      expect(await store.charge(b)).toEqual({ balance: 4, charged: false });
      // Another key's hold of the same id is not this key's.
      await store.reserve(other.id, 'req_c', 1, 60_000, now);
      expect(await store.charge({ ...charge, requestId: 'req_c', onlyIfHeld: true })).toEqual({
        balance: 4,
        charged: false,
      });
      expect(await store.heldCredits(other.id, now)).toBe(1);
      expect((await store.usage({ keyId: k.id })).map((u) => [u.requestId, u.operation, u.credits])).toEqual([
        ['req_a', 'site_crawl', 2],
        ['req_a', 'site_crawl', 2],
        ['req_a', 'map', 1],
        ['req_b', 'site_crawl', 1],
      ]);
      expect(await store.usage({ keyId: other.id })).toEqual([]);
      // An unlimited key: nothing held, nothing charged, its balance still unlimited.
      const unlimited = keyRecord({ balance: null });
      await store.createKey(unlimited);
      expect(await store.charge({ ...charge, keyId: unlimited.id, onlyIfHeld: true })).toEqual({
        balance: null,
        charged: false,
      });
      await store.reserve(unlimited.id, 'req_a', 5, 60_000, now);
      expect(await store.charge({ ...charge, keyId: unlimited.id, onlyIfHeld: true })).toEqual({
        balance: null,
        charged: true,
      });
      expect(await store.usage({ keyId: unlimited.id })).toHaveLength(1);
    });
  });
}
