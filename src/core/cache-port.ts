/**
 * The cache port. The in-memory LRU adapter lives in store/memory-cache.ts; the durable
 * adapters (SQLite, Redis) implement the same interface.
 */
export interface CacheStore<V> {
  get(key: string): Promise<V | undefined>;
  set(key: string, value: V, ttlMs: number): Promise<void>;
  close?(): Promise<void>;
}
