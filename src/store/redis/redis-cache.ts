import type { Redis } from 'ioredis';
import type { CacheNamespace, CacheStore, CacheStores } from '../../core/ports/cache-port.js';

/** The caches as plain keys, each expiring by its Redis TTL. */
export class RedisCache implements CacheStores {
  readonly #redis: Redis;
  readonly #p: string;

  constructor(redis: Redis, prefix: string) {
    this.#redis = redis;
    this.#p = prefix;
  }

  cache<V>(namespace: CacheNamespace): CacheStore<V> {
    const at = (key: string) => `${this.#p}cache:${namespace}:${key}`;
    return {
      get: async (key) => {
        const text = await this.#redis.get(at(key));
        return text === null ? undefined : (JSON.parse(text) as V);
      },
      set: async (key, value, ttlMs) => {
        if (!(ttlMs > 0)) return;
        await this.#redis.set(at(key), JSON.stringify(value), 'PX', Math.ceil(ttlMs));
      },
    };
  }
}
