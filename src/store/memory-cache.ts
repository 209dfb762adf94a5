/**
 * The in-memory cache adapter: a bounded LRU with per-entry TTL. Used when no durable
 * store is configured (single process, nothing survives a restart).
 */
import { LruCache } from '../core/lru-cache.js';
import type { CacheStore } from '../core/cache-port.js';

export class MemoryCache<V> implements CacheStore<V> {
  private readonly lru: LruCache<string, V>;

  constructor(maxEntries: number) {
    this.lru = new LruCache<string, V>({ maxEntries });
  }

  async get(key: string): Promise<V | undefined> {
    return this.lru.get(key);
  }

  async set(key: string, value: V, ttlMs: number): Promise<void> {
    this.lru.set(key, value, ttlMs);
  }

  async close(): Promise<void> {
    this.lru.clear();
  }
}
