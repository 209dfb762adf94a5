/**
 * The cache port: one namespace of the store (store-port.ts `cache(namespace)`), with a
 * TTL per entry.
 */
export interface CacheStore<V> {
  get(key: string): Promise<V | undefined>;
  set(key: string, value: V, ttlMs: number): Promise<void>;
  close?(): Promise<void>;
}
