/**
 * The store on a Redis server (ioredis), for several instances behind a load balancer:
 * caches and suspensions expire by Redis TTLs, and each step that must be atomic across
 * instances (admission with its hold, a charge with its usage record, a revocation, a
 * rate-limit hit, keeping the longer suspension) is one Lua script, which Redis runs
 * without interleaving any other command. One object per port (redis/), each beside its
 * scripts, all on the one client.
 */
import type { Redis } from 'ioredis';
import { ComposedStore } from './composed-store.js';
import { RedisCache } from './redis/redis-cache.js';
import { RedisHostGate } from './redis/redis-host-gate.js';
import type { RedisStoreOptions } from './redis/redis-connection.js';
import { connectRedis } from './redis/redis-connection.js';
import { RedisKeys } from './redis/redis-keys.js';
import { RedisLedger } from './redis/redis-ledger.js';
import { RedisRateWindows } from './redis/redis-rate-windows.js';
import { RedisSiteJobs } from './redis/redis-site-jobs.js';
import { RedisSuspensions } from './redis/redis-suspensions.js';
import { reportingOutages } from './store-outage.js';

export type { RedisStoreOptions } from './redis/redis-connection.js';

export class RedisStore extends ComposedStore {
  readonly kind = 'redis' as const;
  readonly #redis: Redis;

  /** Connects, or throws a clear error naming the server. */
  static async connect(options: RedisStoreOptions): Promise<RedisStore> {
    const { redis, isOutage } = await connectRedis(options);
    return reportingOutages(new RedisStore(redis, options.prefix ?? 'wsm:'), 'Redis', isOutage, {
      ...(options.commandTimeoutMs !== undefined ? { timeoutMs: options.commandTimeoutMs } : {}),
    });
  }

  // TypeScript's `private`: ECMAScript has no private constructor; connect() is the way in.
  private constructor(redis: Redis, prefix: string) {
    super({
      cache: new RedisCache(redis, prefix),
      suspensions: new RedisSuspensions(redis, prefix),
      keys: new RedisKeys(redis, prefix),
      ledger: new RedisLedger(redis, prefix),
      rateWindows: new RedisRateWindows(redis, prefix),
      siteJobs: new RedisSiteJobs(redis, prefix),
      hostGate: new RedisHostGate(redis, prefix),
    });
    this.#redis = redis;
  }

  async ping(): Promise<void> {
    await this.#redis.ping();
  }

  async close(): Promise<void> {
    await this.#redis.quit().catch(() => this.#redis.disconnect());
  }
}
