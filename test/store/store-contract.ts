/**
 * The contract of the store port, run unchanged against every adapter (memory, SQLite,
 * Redis): caches with TTLs, suspensions, keys, holds, charges, usage, rate limits.
 */
import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ApiKeyRecord, Store } from '../../src/core/store-port.js';

let seq = 0;
function keyRecord(overrides: Partial<ApiKeyRecord> = {}): ApiKeyRecord {
  seq += 1;
  const id = `key_${String(seq).padStart(4, '0')}_${randomUUID().slice(0, 8)}`;
  return {
    id,
    name: `key ${seq}`,
    hash: randomUUID().replace(/-/g, '').repeat(2),
    prefix: `wsk_${id.slice(-6)}`,
    balance: 10,
    createdAt: new Date(Date.UTC(2026, 0, 1, 0, 0, seq)).toISOString(),
    ...overrides,
  };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Registers the contract's tests for stores made by `make` (a fresh, empty store each time). */
export function storeContract(name: string, make: () => Promise<Store>): void {
  describe(`${name}: the store contract`, () => {
    let store: Store;
    beforeEach(async () => {
      store = await make();
    });
    afterEach(async () => {
      await store.close();
    });

    describe('caches', () => {
      it('misses, stores, returns an equal copy, and keeps namespaces apart', async () => {
        const pages = store.cache<{ title: string; tags: string[] }>('page');
        const search = store.cache<{ title: string; tags: string[] }>('search');
        expect(await pages.get('a')).toBeUndefined();
        const value = { title: 'Ünïcode ✓', tags: ['x', 'y'] };
        await pages.set('a', value, 60_000);
        const got = await pages.get('a');
        expect(got).toEqual(value);
        expect(got).not.toBe(value);
        (got as { tags: string[] }).tags.push('z');
        expect(await pages.get('a')).toEqual(value);
        expect(await search.get('a')).toBeUndefined();
        await pages.set('a', { title: 'second', tags: [] }, 60_000);
        expect((await pages.get('a'))?.title).toBe('second');
      });

      it('expires entries after their TTL, and stores nothing for a TTL of 0', async () => {
        const cache = store.cache<number>('robots');
        await cache.set('short', 1, 120);
        await cache.set('long', 2, 60_000);
        await cache.set('never', 3, 0);
        expect(await cache.get('short')).toBe(1);
        expect(await cache.get('never')).toBeUndefined();
        await sleep(250);
        expect(await cache.get('short')).toBeUndefined();
        expect(await cache.get('long')).toBe(2);
      });
    });

    describe('engine suspensions', () => {
      it('keep the longer one, expire, and clear', async () => {
        const now = Date.now();
        expect(await store.getSuspension('duckduckgo', now)).toBeUndefined();
        await store.putSuspension('duckduckgo', { reason: 'blocked', until: now + 60_000, cause: 'CAPTCHA' }, now);
        await store.putSuspension('duckduckgo', { reason: 'rate_limited', until: now + 1_000, cause: '429' }, now);
        expect(await store.getSuspension('duckduckgo', now)).toEqual({ reason: 'blocked', until: now + 60_000, cause: 'CAPTCHA' });
        expect(await store.getSuspension('duckduckgo', now + 60_000)).toBeUndefined();
        await store.putSuspension('brave', { reason: 'rate_limited', until: now + 200, cause: '429' }, now);
        expect((await store.getSuspension('brave', now))?.reason).toBe('rate_limited');
        await store.clearSuspensions();
        expect(await store.getSuspension('duckduckgo', now)).toBeUndefined();
        expect(await store.getSuspension('brave', now)).toBeUndefined();
      });
    });

    describe('keys', () => {
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

    describe('holds and charges', () => {
      it('refuse unknown and revoked keys', async () => {
        const now = Date.now();
        expect(await store.reserve('key_none', 'r1', 1, 60_000, now)).toMatchObject({ ok: false, reason: 'unknown_key' });
        const k = keyRecord();
        await store.createKey(k);
        await store.revokeKey(k.id, new Date(now).toISOString());
        expect(await store.reserve(k.id, 'r1', 1, 60_000, now)).toMatchObject({ ok: false, reason: 'revoked' });
      });

      it('admit while the balance minus live holds is above zero', async () => {
        const now = Date.now();
        const k = keyRecord({ balance: 5 });
        await store.createKey(k);
        expect(await store.reserve(k.id, 'r1', 4, 60_000, now)).toEqual({ ok: true, balance: 5 });
        expect(await store.reserve(k.id, 'r2', 4, 60_000, now)).toEqual({ ok: true, balance: 5 });
        expect(await store.reserve(k.id, 'r3', 1, 60_000, now)).toEqual({ ok: false, reason: 'insufficient_credits', balance: 5 });
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
        expect(await store.charge({ keyId: k.id, operation: 'crawl', credits: 2, requestId: 'r1', at })).toEqual({ balance: 3 });
        expect((await store.keyById(k.id))?.balance).toBe(3);
        expect(await store.usage({ keyId: k.id })).toEqual([{ keyId: k.id, operation: 'crawl', credits: 2, requestId: 'r1', at }]);
        // The hold is gone: 3 credits can be held again in full.
        expect(await store.reserve(k.id, 'r2', 3, 60_000, now)).toMatchObject({ ok: true });
        expect(await store.reserve(k.id, 'r3', 1, 60_000, now)).toMatchObject({ ok: false, reason: 'insufficient_credits' });
      });

      it('take a balance below zero by the crossing request only, and record 0-credit requests', async () => {
        const now = Date.now();
        const k = keyRecord({ balance: 1 });
        const unlimited = keyRecord({ balance: null });
        await store.createKey(k);
        await store.createKey(unlimited);
        await store.reserve(k.id, 'r1', 5, 60_000, now);
        expect(await store.charge({ keyId: k.id, operation: 'crawl', credits: 5, requestId: 'r1', at: new Date(now).toISOString() })).toEqual({ balance: -4 });
        expect(await store.reserve(k.id, 'r2', 1, 60_000, now)).toMatchObject({ ok: false, reason: 'insufficient_credits', balance: -4 });
        await store.reserve(unlimited.id, 'u1', 4, 60_000, now);
        expect(await store.charge({ keyId: unlimited.id, operation: 'search', credits: 0, requestId: 'u1', at: new Date(now).toISOString() })).toEqual({ balance: null });
        expect(await store.usage({ keyId: unlimited.id })).toHaveLength(1);
      });

      it('filter usage by key and time, oldest first', async () => {
        const a = keyRecord({ balance: null });
        const b = keyRecord({ balance: null });
        await store.createKey(a);
        await store.createKey(b);
        const times = ['2026-01-01T00:00:00.000Z', '2026-01-02T00:00:00.000Z', '2026-01-03T00:00:00.000Z'];
        for (const [i, at] of times.entries()) {
          await store.charge({ keyId: i === 1 ? b.id : a.id, operation: i === 2 ? 'search' : 'crawl', credits: i + 1, requestId: `r${i}`, at });
        }
        expect((await store.usage()).map((u) => u.requestId)).toEqual(['r0', 'r1', 'r2']);
        expect((await store.usage({ keyId: a.id })).map((u) => u.requestId)).toEqual(['r0', 'r2']);
        expect((await store.usage({ since: times[1] })).map((u) => u.requestId)).toEqual(['r1', 'r2']);
        expect((await store.usage({ keyId: a.id, since: times[1] })).map((u) => [u.operation, u.credits])).toEqual([['search', 3]]);
      });

      it('stay exact under 200 parallel reserve + charge pairs on one key', async () => {
        const k = keyRecord({ balance: 1000 });
        await store.createKey(k);
        const now = Date.now();
        const results = await Promise.all(
          Array.from({ length: 200 }, async (_, i) => {
            const admitted = await store.reserve(k.id, `p${i}`, 3, 60_000, now);
            if (!admitted.ok) return 0;
            await store.charge({ keyId: k.id, operation: 'crawl', credits: 3, requestId: `p${i}`, at: new Date(now).toISOString() });
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

      it('never overdraw by more than one request when demand exceeds the balance', async () => {
        const k = keyRecord({ balance: 10 });
        await store.createKey(k);
        const now = Date.now();
        const results = await Promise.all(
          Array.from({ length: 200 }, async (_, i) => {
            const admitted = await store.reserve(k.id, `q${i}`, 4, 60_000, now);
            if (!admitted.ok) return 0;
            await sleep(2);
            await store.charge({ keyId: k.id, operation: 'crawl', credits: 4, requestId: `q${i}`, at: new Date(now).toISOString() });
            return 4;
          }),
        );
        const charged = results.reduce<number>((s, n) => s + n, 0);
        const balance = (await store.keyById(k.id))?.balance as number;
        expect(balance).toBe(10 - charged);
        expect(balance).toBeGreaterThanOrEqual(-4);
        expect(balance).toBeLessThanOrEqual(0);
        expect((await store.usage({ keyId: k.id })).reduce((s, u) => s + u.credits, 0)).toBe(charged);
      });
    });

    describe('rate limits', () => {
      it('count requests in fixed windows and restart in the next one', async () => {
        const window = 60_000;
        const start = Math.floor(Date.now() / window) * window;
        expect(await store.hitRateLimit('key:a', window, start + 5)).toEqual({ count: 1, resetAt: start + window });
        expect(await store.hitRateLimit('key:a', window, start + 10)).toEqual({ count: 2, resetAt: start + window });
        expect(await store.hitRateLimit('key:b', window, start + 10)).toEqual({ count: 1, resetAt: start + window });
        expect(await store.hitRateLimit('key:a', window, start + window)).toEqual({ count: 1, resetAt: start + 2 * window });
      });
    });

    it('answers a ping, and refuses work once closed', async () => {
      await expect(store.ping()).resolves.toBeUndefined();
      await store.close();
      await expect(store.ping()).rejects.toThrow();
      store = await make();
    });
  });
}
