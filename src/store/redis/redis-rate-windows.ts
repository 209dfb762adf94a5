import type { Redis } from 'ioredis';
import type { RateLimitHit, RateWindowStore } from '../../core/ports/rate-window-store.js';

/** KEYS: window counter. ARGV: window end (epoch ms). */
const HIT = `
local count = redis.call('INCR', KEYS[1])
if count == 1 then redis.call('PEXPIREAT', KEYS[1], ARGV[1]) end
return count
`;

interface Scripts {
  wsmHit(...args: (string | number)[]): Promise<number>;
}

/** Fixed-window counters, one key per bucket and window, expiring at the window's end. */
export class RedisRateWindows implements RateWindowStore {
  readonly #redis: Redis & Scripts;
  readonly #p: string;

  constructor(redis: Redis, prefix: string) {
    redis.defineCommand('wsmHit', { numberOfKeys: 1, lua: HIT });
    this.#redis = redis as Redis & Scripts;
    this.#p = prefix;
  }

  async hitRateLimit(bucket: string, windowMs: number, now: number): Promise<RateLimitHit> {
    const end = now - (now % windowMs) + windowMs;
    const count = await this.#redis.wsmHit(`${this.#p}rate:${bucket}:${end}`, end);
    return { count: Number(count), resetAt: end };
  }
}
