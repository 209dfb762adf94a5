import { describe, expect, it } from 'vitest';
import { LruCache } from '../../src/net/lru-cache.js';

function clock(start = 1_000) {
  let now = start;
  return { now: () => now, advance: (ms: number) => (now += ms) };
}

describe('LruCache', () => {
  it('stores, reads, deletes and clears', () => {
    const cache = new LruCache<string, number>({ maxEntries: 3 });
    cache.set('a', 1).set('b', 2);
    expect(cache.get('a')).toBe(1);
    expect(cache.get('missing')).toBeUndefined();
    expect(cache.size).toBe(2);
    expect(cache.has('b')).toBe(true);
    expect(cache.delete('b')).toBe(true);
    expect(cache.delete('b')).toBe(false);
    expect(cache.get('b')).toBeUndefined();
    cache.clear();
    expect(cache.size).toBe(0);
  });

  it('evicts the least recently used entry when full; get() refreshes recency', () => {
    const cache = new LruCache<string, number>({ maxEntries: 3 });
    cache.set('a', 1).set('b', 2).set('c', 3);
    cache.get('a'); // b is now the least recently used
    cache.set('d', 4);
    expect(cache.size).toBe(3);
    expect(cache.get('b')).toBeUndefined();
    expect([cache.get('a'), cache.get('c'), cache.get('d')]).toEqual([1, 3, 4]);
  });

  it('re-setting a key replaces its value and makes it most recent', () => {
    const cache = new LruCache<string, number>({ maxEntries: 2 });
    cache.set('a', 1).set('b', 2).set('a', 10).set('c', 3);
    expect(cache.get('a')).toBe(10);
    expect(cache.get('b')).toBeUndefined();
    expect(cache.size).toBe(2);
  });

  it('expires entries after the default TTL', () => {
    const t = clock();
    const cache = new LruCache<string, string>({ maxEntries: 10, ttlMs: 100, now: t.now });
    cache.set('k', 'v');
    t.advance(99);
    expect(cache.get('k')).toBe('v');
    t.advance(1);
    expect(cache.has('k')).toBe(false);
    expect(cache.get('k')).toBeUndefined();
    expect(cache.size).toBe(0); // dropped on access
  });

  it('honours a per-entry TTL and treats 0 as "do not store"', () => {
    const t = clock();
    const cache = new LruCache<string, string>({ maxEntries: 10, ttlMs: 1_000, now: t.now });
    cache.set('short', 's', 10).set('long', 'l').set('none', 'n', 0);
    expect(cache.get('none')).toBeUndefined();
    t.advance(10);
    expect(cache.get('short')).toBeUndefined();
    expect(cache.get('long')).toBe('l');
  });

  it('keeps entries forever without a TTL', () => {
    const t = clock();
    const cache = new LruCache<string, number>({ maxEntries: 2, now: t.now });
    cache.set('a', 1);
    t.advance(10 * 365 * 24 * 3600_000);
    expect(cache.get('a')).toBe(1);
  });

  it('prune() drops expired entries and reports how many', () => {
    const t = clock();
    const cache = new LruCache<number, number>({ maxEntries: 10, ttlMs: 50, now: t.now });
    cache.set(1, 1).set(2, 2);
    t.advance(30);
    cache.set(3, 3);
    t.advance(30);
    expect(cache.size).toBe(3);
    expect(cache.prune()).toBe(2);
    expect(cache.size).toBe(1);
    expect(cache.get(3)).toBe(3);
  });

  it('works with non-string keys (identity)', () => {
    const cache = new LruCache<object, string>({ maxEntries: 2 });
    const key = {};
    cache.set(key, 'x');
    expect(cache.get(key)).toBe('x');
    expect(cache.get({})).toBeUndefined();
  });

  it('rejects nonsensical bounds', () => {
    expect(() => new LruCache({ maxEntries: 0 })).toThrow(RangeError);
    expect(() => new LruCache({ maxEntries: 1.5 })).toThrow(RangeError);
    expect(() => new LruCache({ maxEntries: 1, ttlMs: -1 })).toThrow(RangeError);
  });

  it('stays bounded under churn', () => {
    const cache = new LruCache<number, number>({ maxEntries: 100 });
    for (let i = 0; i < 10_000; i++) cache.set(i, i);
    expect(cache.size).toBe(100);
    expect(cache.get(9_999)).toBe(9_999);
    expect(cache.get(9_899)).toBeUndefined();
  });
});
