/**
 * The bounded LRU lives in core (docs/architecture.md: core holds "the cache port and a
 * bounded LRU", so that store/ can use it without importing net/). Re-exported here for
 * net's own users.
 */
export { LruCache, type LruCacheOptions } from '../core/lru-cache.js';
