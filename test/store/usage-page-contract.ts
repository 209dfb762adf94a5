/**
 * The contract of a key holder's own view of the ledger (LedgerStore.usagePage,
 * heldCredits; GET /api/usage): records newest first in pages that neither skip nor repeat
 * while new records arrive, what each request was about (URLs or query), and the credits
 * held by requests in progress, live holds only.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { KeyStore } from '../../src/core/ports/key-store.js';
import type { LedgerStore } from '../../src/core/ports/ledger-store.js';
import { keyRecord, type Closable } from './contract-helpers.js';

export function usagePageContract(make: () => Promise<LedgerStore & KeyStore & Closable>): void {
  describe("a key's usage pages and holds (LedgerStore)", () => {
    let store: LedgerStore & KeyStore & Closable;
    beforeEach(async () => {
      store = await make();
    });
    afterEach(async () => {
      await store.close();
    });

    it('page one key newest first, without skipping or repeating as records arrive', async () => {
      const a = keyRecord({ balance: null });
      const b = keyRecord({ balance: null });
      await store.createKey(a);
      await store.createKey(b);
      const at = (i: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString();
      for (let i = 0; i < 5; i++) {
        await store.charge({ keyId: a.id, operation: 'crawl', credits: 1, requestId: `a${i}`, at: at(i) });
        await store.charge({ keyId: b.id, operation: 'search', credits: 1, requestId: `b${i}`, at: at(i) });
      }
      const first = await store.usagePage(a.id, { limit: 2 });
      expect(first.records.map((r) => r.requestId)).toEqual(['a4', 'a3']);
      // Places among the key's own records: nothing of b's five in between shows.
      expect(first.records.map((r) => r.seq)).toEqual([5, 4]);
      expect(first.next).toBe(4);
      // A record written between two pages goes on top; the next page still starts at a2.
      await store.charge({ keyId: a.id, operation: 'crawl', credits: 1, requestId: 'a5', at: at(9) });
      const second = await store.usagePage(a.id, { limit: 2, before: first.next as number });
      expect(second.records.map((r) => r.requestId)).toEqual(['a2', 'a1']);
      expect(second.records.map((r) => r.seq)).toEqual([3, 2]);
      expect((await store.usagePage(b.id, { limit: 1 })).records.map((r) => [r.requestId, r.seq])).toEqual([['b4', 5]]);
      const third = await store.usagePage(a.id, { limit: 2, before: second.next as number });
      expect(third.records.map((r) => r.requestId)).toEqual(['a0']);
      expect(third.next).toBeUndefined();
      expect((await store.usagePage(a.id, { limit: 10 })).records.map((r) => r.requestId)).toEqual([
        'a5',
        'a4',
        'a3',
        'a2',
        'a1',
        'a0',
      ]);
      expect(await store.usagePage('key_none', { limit: 10 })).toEqual({ records: [] });
    });

    it('keep the URLs or the query a request was about', async () => {
      const a = keyRecord({ balance: 10 });
      await store.createKey(a);
      const at = new Date().toISOString();
      await store.charge({
        keyId: a.id,
        operation: 'crawl',
        credits: 2,
        requestId: 'r1',
        at,
        urls: ['https://a/', 'https://b/'],
      });
      await store.charge({ keyId: a.id, operation: 'search', credits: 1, requestId: 'r2', at, query: 'tide tables' });
      await store.charge({ keyId: a.id, operation: 'search', credits: 0, requestId: 'r3', at });
      const page = await store.usagePage(a.id, { limit: 5 });
      expect(page.records.map(({ seq: _seq, ...r }) => r)).toEqual([
        { keyId: a.id, operation: 'search', credits: 0, requestId: 'r3', at },
        { keyId: a.id, operation: 'search', credits: 1, requestId: 'r2', at, query: 'tide tables' },
        { keyId: a.id, operation: 'crawl', credits: 2, requestId: 'r1', at, urls: ['https://a/', 'https://b/'] },
      ]);
      // The operator's listing reads the same records.
      expect((await store.usage({ keyId: a.id }))[0]).toMatchObject({ urls: ['https://a/', 'https://b/'] });
    });

    it('count the credits of live holds only', async () => {
      const now = Date.now();
      const a = keyRecord({ balance: 10 });
      await store.createKey(a);
      expect(await store.heldCredits(a.id, now)).toBe(0);
      await store.reserve(a.id, 'r1', 3, 60_000, now);
      await store.reserve(a.id, 'r2', 4, 1_000, now);
      expect(await store.heldCredits(a.id, now)).toBe(7);
      expect(await store.heldCredits(a.id, now + 1_000)).toBe(3);
      await store.charge({
        keyId: a.id,
        operation: 'crawl',
        credits: 1,
        requestId: 'r1',
        at: new Date(now).toISOString(),
      });
      expect(await store.heldCredits(a.id, now)).toBe(4);
      expect(await store.heldCredits('key_none', now)).toBe(0);
    });
  });
}
