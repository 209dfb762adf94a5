/**
 * A small bounded LRU map with time-to-live, for in-process caches (robots.txt per
 * origin, extracted pages). A Map keeps insertion order, so re-inserting on access makes
 * the first key the least recently used one: O(1) get/set/evict, no dependency.
 * Expired entries are dropped lazily (on access, by prune(), or by LRU eviction).
 */

export interface LruCacheOptions {
  /** Entries kept at most; the least recently used one is evicted beyond it. */
  maxEntries: number;
  /** Default lifetime of an entry in ms (Infinity = until evicted). 0 = never stored. */
  ttlMs?: number;
  /** Clock in ms, injectable for tests. */
  now?: () => number;
}

interface Entry<V> {
  value: V;
  expiresAt: number;
}

export class LruCache<K, V> {
  readonly #map = new Map<K, Entry<V>>();
  readonly #maxEntries: number;
  readonly #ttlMs: number;
  readonly #now: () => number;

  constructor(options: LruCacheOptions) {
    if (!Number.isInteger(options.maxEntries) || options.maxEntries < 1) {
      throw new RangeError(`maxEntries must be a positive integer, got ${options.maxEntries}`);
    }
    const ttl = options.ttlMs ?? Number.POSITIVE_INFINITY;
    if (Number.isNaN(ttl) || ttl < 0) throw new RangeError(`ttlMs must be >= 0, got ${ttl}`);
    this.#maxEntries = options.maxEntries;
    this.#ttlMs = ttl;
    this.#now = options.now ?? Date.now;
  }

  /** Entries currently stored, expired ones not yet dropped included (see prune()). */
  get size(): number {
    return this.#map.size;
  }

  /** The live value for `key` (marking it most recently used), or undefined. */
  get(key: K): V | undefined {
    const entry = this.#map.get(key);
    if (!entry) return undefined;
    if (entry.expiresAt <= this.#now()) {
      this.#map.delete(key);
      return undefined;
    }
    this.#map.delete(key);
    this.#map.set(key, entry);
    return entry.value;
  }

  /** Whether a live entry exists; does not change recency. */
  has(key: K): boolean {
    const entry = this.#map.get(key);
    return entry !== undefined && entry.expiresAt > this.#now();
  }

  /** Stores `value` for `ttlMs` (default: the cache's TTL); a TTL of 0 stores nothing. */
  set(key: K, value: V, ttlMs: number = this.#ttlMs): this {
    this.#map.delete(key);
    if (!(ttlMs > 0)) return this;
    this.#map.set(key, { value, expiresAt: this.#now() + ttlMs });
    if (this.#map.size > this.#maxEntries) this.#evict();
    return this;
  }

  delete(key: K): boolean {
    return this.#map.delete(key);
  }

  clear(): void {
    this.#map.clear();
  }

  /** Drops every expired entry now; returns how many were dropped. */
  prune(): number {
    const now = this.#now();
    let dropped = 0;
    for (const [key, entry] of this.#map) {
      if (entry.expiresAt <= now) {
        this.#map.delete(key);
        dropped++;
      }
    }
    return dropped;
  }

  /**
   * Makes room by dropping the least recently used entries. Expired entries are not
   * hunted here (that would make every insert O(n)); they age towards the LRU end.
   */
  #evict(): void {
    while (this.#map.size > this.#maxEntries) {
      const oldest = this.#map.keys().next();
      if (oldest.done) return;
      this.#map.delete(oldest.value);
    }
  }
}
