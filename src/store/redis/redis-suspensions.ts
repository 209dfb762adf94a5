import type { Redis } from 'ioredis';
import type { StoredSuspension, SuspensionStore } from '../../core/ports/suspension-store.js';

/** KEYS: suspension. ARGV: JSON, until (epoch ms). Keeps the later of the stored and the new one. */
const SUSPEND = `
local raw = redis.call('GET', KEYS[1])
if raw and tonumber(cjson.decode(raw)['until']) >= tonumber(ARGV[2]) then return 0 end
redis.call('SET', KEYS[1], ARGV[1], 'PXAT', ARGV[2])
return 1
`;

interface Scripts {
  wsmSuspend(...args: (string | number)[]): Promise<number>;
}

/** Engine suspensions, one key each, expiring by their Redis TTL at `until`. */
export class RedisSuspensions implements SuspensionStore {
  readonly #redis: Redis & Scripts;
  readonly #p: string;

  constructor(redis: Redis, prefix: string) {
    redis.defineCommand('wsmSuspend', { numberOfKeys: 1, lua: SUSPEND });
    this.#redis = redis as Redis & Scripts;
    this.#p = prefix;
  }

  async getSuspension(engine: string, now: number): Promise<StoredSuspension | undefined> {
    const text = await this.#redis.get(`${this.#p}suspension:${engine}`);
    if (text === null) return undefined;
    const s = JSON.parse(text) as StoredSuspension;
    return now < s.until ? s : undefined;
  }

  async putSuspension(engine: string, suspension: StoredSuspension, now: number): Promise<void> {
    if (suspension.until <= now) return;
    await this.#redis.wsmSuspend(`${this.#p}suspension:${engine}`, JSON.stringify(suspension), suspension.until);
  }

  async clearSuspensions(): Promise<void> {
    let cursor = '0';
    do {
      const [next, keys] = await this.#redis.scan(cursor, 'MATCH', `${this.#p}suspension:*`, 'COUNT', 500);
      if (keys.length > 0) await this.#redis.del(...keys);
      cursor = next;
    } while (cursor !== '0');
  }
}
