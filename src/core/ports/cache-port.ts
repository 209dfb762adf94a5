/**
 * The cache ports: the store's caches (`CacheStores`, one view per namespace) and one
 * namespace's view (`CacheStore`), with a TTL per entry. Values are JSON: an adapter hands
 * back an equal value (deep-equal), never a shared reference.
 */

/** Cache namespaces, each with its own TTL set by its caller. */
export type CacheNamespace = 'page' | 'search' | 'robots';

export interface CacheStore<V> {
  get(key: string): Promise<V | undefined>;
  set(key: string, value: V, ttlMs: number): Promise<void>;
  close?(): Promise<void>;
}

/** The page, search and robots.txt caches: the composition root hands each reader its own namespace. */
export interface CacheStores {
  /** A cache view over one namespace; entries expire after the TTL given to `set` (0 = not stored). */
  cache<V>(namespace: CacheNamespace): CacheStore<V>;
}
