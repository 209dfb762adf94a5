/**
 * Admission covers the largest cost, balances stay whole (issue 34, items 4, 5 and 8), in
 * every store: a request is admitted only when the balance less the live holds covers
 * its largest possible cost, so no balance goes below zero under concurrency (two
 * connections or clients, as two instances would be); a restarted instance drops the
 * holds it owned; a top-up never takes a balance past 2^53 - 1.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { KeyStore } from '../../src/core/ports/key-store.js';
import type { LedgerStore } from '../../src/core/ports/ledger-store.js';
import { MAX_BALANCE } from '../../src/core/pricing.js';
import { MemoryStore } from '../../src/store/memory-store.js';
import { RedisStore } from '../../src/store/redis-store.js';
import { SqliteStore } from '../../src/store/sqlite-store.js';
import { redisSuite } from '../helpers/redis-server.js';
import { keyRecord, sleep, type Closable } from './contract-helpers.js';

type TestStore = LedgerStore & KeyStore & Closable;

/** `open()` gives one connection; a second call on the same name gives another to the same data. */
function admissionSuite(name: string, open: (shared: string) => Promise<TestStore>): void {
  describe(`admission and balances: ${name}`, () => {
    const opened: TestStore[] = [];
    const connect = async (shared: string) => {
      const store = await open(shared);
      opened.push(store);
      return store;
    };
    afterEach(async () => {
      for (const store of opened.splice(0)) await store.close();
    });

    it('refuses a request its free credits do not cover, saying what is free, and leaves the balance', async () => {
      const store = await connect(randomUUID());
      const k = keyRecord({ balance: 1 });
      await store.createKey(k);
      const now = Date.now();
      // A 1-credit key and a 50-credit stealth request: refused, not run to -49.
      expect(await store.reserve(k.id, 'stealth', 50, 60_000, now)).toEqual({
        ok: false,
        reason: 'insufficient_credits',
        balance: 1,
        available: 1,
      });
      // A hold's time need not be whole milliseconds (a deadline less now).
      expect(await store.reserve(k.id, 'plain', 1, 60_000.4, now + 0.3)).toEqual({ ok: true, balance: 1 });
      expect(await store.charge({ keyId: k.id, operation: 'crawl', credits: 1, requestId: 'plain', at: '' })).toEqual({
        balance: 0,
        charged: true,
      });
      expect(await store.reserve(k.id, 'next', 1, 60_000, now)).toMatchObject({ ok: false, available: 0 });
    });

    it('never goes below zero with concurrent requests of mixed costs from two connections', async () => {
      const shared = randomUUID();
      const a = await connect(shared);
      const b = await connect(shared);
      const k = keyRecord({ balance: 23 });
      await a.createKey(k);
      const now = Date.now();
      const costs = [1, 4, 5, 10, 2];
      const results = await Promise.all(
        Array.from({ length: 120 }, async (_, i) => {
          const store = i % 2 ? a : b;
          const max = costs[i % costs.length] as number;
          const admitted = await store.reserve(k.id, `q${i}`, max, 60_000, now);
          if (!admitted.ok) return 0;
          await sleep(i % 3);
          // Some deliver less than their largest cost (cache hits, failures).
          const credits = i % 4 === 0 ? 0 : max;
          const { balance } = await store.charge({
            keyId: k.id,
            operation: 'crawl',
            credits,
            requestId: `q${i}`,
            at: '',
          });
          expect(balance).toBeGreaterThanOrEqual(0);
          return credits;
        }),
      );
      const charged = results.reduce((s, n) => s + n, 0);
      const balance = (await a.keyById(k.id))?.balance as number;
      expect(balance).toBe(23 - charged);
      expect(balance).toBeGreaterThanOrEqual(0);
      expect((await b.usage({ keyId: k.id })).reduce((s, u) => s + u.credits, 0)).toBe(charged);
    });

    it("releases an owner's holds on every key and no one else's", async () => {
      const store = await connect(randomUUID());
      const k1 = keyRecord({ balance: 5 });
      const k2 = keyRecord({ balance: 5 });
      await store.createKey(k1);
      await store.createKey(k2);
      const now = Date.now();
      await store.reserve(k1.id, 'dead-1', 5, 600_000, now, 'host-a:8080');
      await store.reserve(k2.id, 'dead-2', 3, 600_000, now, 'host-a:8080');
      await store.reserve(k2.id, 'alive', 2, 600_000, now, 'host-b:8080');
      expect(await store.reserve(k1.id, 'probe', 1, 60_000, now)).toMatchObject({ ok: false, available: 0 });
      expect(await store.releaseOwned('host-a:8080')).toBe(2);
      expect(await store.releaseOwned('host-a:8080')).toBe(0);
      expect(await store.reserve(k1.id, 'probe', 5, 60_000, now)).toMatchObject({ ok: true });
      // host-b's request is still running: its 2 stay held.
      expect(await store.reserve(k2.id, 'probe2', 4, 60_000, now)).toMatchObject({ ok: false, available: 3 });
      // A charge drops the hold and its owner, so a later release finds nothing of it.
      await store.charge({ keyId: k2.id, operation: 'crawl', credits: 2, requestId: 'alive', at: '' });
      expect(await store.releaseOwned('host-b:8080')).toBe(0);
    });

    it('refuses a top-up past 2^53 - 1 and changes nothing', async () => {
      const store = await connect(randomUUID());
      const k = keyRecord({ balance: MAX_BALANCE - 5 });
      await store.createKey(k);
      expect((await store.topUp(k.id, 5))?.balance).toBe(MAX_BALANCE);
      const refused = await store.topUp(k.id, 1).catch((err: unknown) => err);
      expect(refused).toMatchObject({ code: 'invalid_request', details: [{ path: 'credits' }] });
      expect((refused as Error).message).toMatch(/past 9007199254740991 credits/);
      expect((await store.keyById(k.id))?.balance).toBe(MAX_BALANCE);
      const low = keyRecord({ balance: 2 });
      await store.createKey(low);
      await expect(store.topUp(low.id, MAX_BALANCE - 1)).rejects.toMatchObject({ code: 'invalid_request' });
      expect((await store.topUp(low.id, MAX_BALANCE - 2))?.balance).toBe(MAX_BALANCE);
    });
  });
}

const memories = new Map<string, MemoryStore>();
admissionSuite('memory', async (shared) => {
  // One process's memory: both "connections" are the same store, closed once.
  const store = memories.get(shared) ?? new MemoryStore();
  const first = !memories.has(shared);
  memories.set(shared, store);
  if (first) return store;
  const noClose = async () => undefined;
  return new Proxy(store, {
    get: (target, property) => {
      if (property === 'close') return noClose;
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
});

const dir = mkdtempSync(join(tmpdir(), 'admission-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
admissionSuite('sqlite', async (shared) => SqliteStore.open(join(dir, `${shared}.db`)));

redisSuite('admission on Redis', (redis) => {
  admissionSuite('redis', async (shared) => RedisStore.connect({ url: redis().url, prefix: `adm-${shared}:` }));
});
