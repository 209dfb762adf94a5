import type { CacheNamespace, CacheStore, CacheStores } from '../../core/ports/cache-port.js';
import { LruCache } from '../../core/lru-cache.js';
import type { MemoryLifetime } from './memory-lifetime.js';

export interface MemoryCacheOptions {
  /** Entries kept per cache namespace (least recently used evicted beyond). */
  maxCacheEntries?: number;
  /** Clock for cache expiry (tests). */
  now?: () => number;
}

/** One bounded LRU of JSON texts per namespace. */
export class MemoryCache implements CacheStores {
  readonly #caches = new Map<CacheNamespace, LruCache<string, string>>();
  readonly #options: MemoryCacheOptions;
  readonly #lifetime: MemoryLifetime;

  constructor(options: MemoryCacheOptions, lifetime: MemoryLifetime) {
    this.#options = options;
    this.#lifetime = lifetime;
  }

  cache<V>(namespace: CacheNamespace): CacheStore<V> {
    let lru = this.#caches.get(namespace);
    if (!lru) {
      lru = new LruCache<string, string>({
        maxEntries: this.#options.maxCacheEntries ?? 10_000,
        ...(this.#options.now ? { now: this.#options.now } : {}),
      });
      this.#caches.set(namespace, lru);
    }
    const entries = lru;
    return {
      get: async (key) => {
        this.#lifetime.check();
        const text = entries.get(key);
        return text === undefined ? undefined : (JSON.parse(text) as V);
      },
      set: async (key, value, ttlMs) => {
        this.#lifetime.check();
        if (ttlMs > 0) entries.set(key, JSON.stringify(value), ttlMs);
      },
    };
  }

  /** Empties every namespace (the store's close). */
  clear(): void {
    for (const lru of this.#caches.values()) lru.clear();
  }
}
