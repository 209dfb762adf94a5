/** The contract of CacheStores (core/ports/cache-port.ts): namespaces, equal copies, TTLs. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CacheStores } from '../../src/core/ports/cache-port.js';
import { sleep, type Closable } from './contract-helpers.js';

export function cacheContract(make: () => Promise<CacheStores & Closable>): void {
  describe('caches (CacheStores)', () => {
    let store: CacheStores & Closable;
    beforeEach(async () => {
      store = await make();
    });
    afterEach(async () => {
      await store.close();
    });

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
}
