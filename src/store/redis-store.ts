/**
 * The store on a Redis server (ioredis), for several instances behind a load balancer:
 * caches and suspensions expire by Redis TTLs, and each step that must be atomic across
 * instances (admission with its hold, a charge with its usage record, a revocation, a
 * rate-limit hit, keeping the longer suspension) is one Lua script, which Redis runs
 * without interleaving any other command.
 */
import { Redis, ReplyError } from 'ioredis';
import type { CacheNamespace, CacheStore } from '../core/cache-port.js';
import type { ApiKeyRecord } from '../core/key-store.js';
import type { ChargeInput, ReserveResult, UsagePage, UsageRecord } from '../core/ledger-store.js';
import { usageSubject } from '../core/ledger-store.js';
import type { RateLimitHit } from '../core/rate-window-store.js';
import type { Store } from '../core/store-port.js';
import { balanceTooLarge, MAX_BALANCE } from '../core/pricing.js';
import type { StoredSuspension } from '../core/suspension-store.js';
import { reportingOutages } from './store-outage.js';

/**
 * KEYS: record, balance, holds (zset: request -> expiry), hold credits (hash), hold owners
 * (hash). ARGV: request, credits, now, expires, owner ('' = none). The credits still
 * available go back as a Lua number, which Redis answers as an exact integer.
 */
const RESERVE = `
local raw = redis.call('GET', KEYS[1])
if not raw then return {0, 'unknown_key'} end
if cjson.decode(raw).revokedAt then return {0, 'revoked'} end
local expired = redis.call('ZRANGEBYSCORE', KEYS[3], '-inf', ARGV[3])
if #expired > 0 then
  redis.call('ZREMRANGEBYSCORE', KEYS[3], '-inf', ARGV[3])
  redis.call('HDEL', KEYS[4], unpack(expired))
  redis.call('HDEL', KEYS[5], unpack(expired))
end
local balance = redis.call('GET', KEYS[2])
if balance then
  local held = 0
  for _, credits in ipairs(redis.call('HVALS', KEYS[4])) do held = held + tonumber(credits) end
  local available = tonumber(balance) - held
  if available < tonumber(ARGV[2]) or available <= 0 then return {0, 'insufficient_credits', balance, available} end
end
redis.call('ZADD', KEYS[3], ARGV[4], ARGV[1])
redis.call('HSET', KEYS[4], ARGV[1], ARGV[2])
if ARGV[5] ~= '' then redis.call('HSET', KEYS[5], ARGV[1], ARGV[5]) end
local last = redis.call('ZRANGE', KEYS[3], -1, -1, 'WITHSCORES')
redis.call('PEXPIREAT', KEYS[3], last[2])
redis.call('PEXPIREAT', KEYS[4], last[2])
if redis.call('EXISTS', KEYS[5]) == 1 then redis.call('PEXPIREAT', KEYS[5], last[2]) end
return {1, balance or ''}
`;

/** KEYS: holds, hold credits, hold owners (of one key). ARGV: owner. Drops that owner's holds. */
const RELEASE_OWNED = `
local released = 0
local owners = redis.call('HGETALL', KEYS[3])
for i = 1, #owners, 2 do
  if owners[i + 1] == ARGV[1] then
    redis.call('ZREM', KEYS[1], owners[i])
    redis.call('HDEL', KEYS[2], owners[i])
    redis.call('HDEL', KEYS[3], owners[i])
    released = released + 1
  end
end
return released
`;

/** KEYS: balance, holds, hold credits, usage (all), usage (this key), hold owners. ARGV: request, credits, record JSON. */
const CHARGE = `
redis.call('ZREM', KEYS[2], ARGV[1])
redis.call('HDEL', KEYS[3], ARGV[1])
redis.call('HDEL', KEYS[6], ARGV[1])
local balance = ''
if redis.call('EXISTS', KEYS[1]) == 1 then balance = redis.call('DECRBY', KEYS[1], ARGV[2]) end
redis.call('RPUSH', KEYS[4], ARGV[3])
redis.call('RPUSH', KEYS[5], ARGV[3])
return balance
`;

/** KEYS: record, hash -> id, balance, key list. ARGV: id, record JSON, balance ('' = unlimited), created (ms). */
const CREATE_KEY = `
if redis.call('EXISTS', KEYS[1]) == 1 or redis.call('EXISTS', KEYS[2]) == 1 then return 0 end
redis.call('SET', KEYS[1], ARGV[2])
redis.call('SET', KEYS[2], ARGV[1])
if ARGV[3] ~= '' then redis.call('SET', KEYS[3], ARGV[3]) end
redis.call('ZADD', KEYS[4], ARGV[4], ARGV[1])
return 1
`;

/** KEYS: record. ARGV: time. */
const REVOKE = `
local raw = redis.call('GET', KEYS[1])
if not raw then return 0 end
local record = cjson.decode(raw)
if not record.revokedAt then
  record.revokedAt = ARGV[1]
  redis.call('SET', KEYS[1], cjson.encode(record))
end
return 1
`;

/**
 * KEYS: balance. ARGV: credits, the largest balance. A top-up of a key without a balance
 * (unlimited or unknown) does nothing; one past the largest balance changes nothing. Both
 * are below 2^53, so the comparison is exact in Lua's doubles.
 */
const TOP_UP = `
local balance = redis.call('GET', KEYS[1])
if not balance then return {'none'} end
if tonumber(balance) > tonumber(ARGV[2]) - tonumber(ARGV[1]) then return {'over', balance} end
return {'ok', redis.call('INCRBY', KEYS[1], ARGV[1])}
`;

/** KEYS: suspension. ARGV: JSON, until (epoch ms). Keeps the later of the stored and the new one. */
const SUSPEND = `
local raw = redis.call('GET', KEYS[1])
if raw and tonumber(cjson.decode(raw)['until']) >= tonumber(ARGV[2]) then return 0 end
redis.call('SET', KEYS[1], ARGV[1], 'PXAT', ARGV[2])
return 1
`;

/** KEYS: window counter. ARGV: window end (epoch ms). */
const HIT = `
local count = redis.call('INCR', KEYS[1])
if count == 1 then redis.call('PEXPIREAT', KEYS[1], ARGV[1]) end
return count
`;

interface Scripts {
  wsmCreateKey(...args: (string | number)[]): Promise<number>;
  wsmReserve(...args: (string | number)[]): Promise<[number, string, string?, number?]>;
  wsmReleaseOwned(...args: (string | number)[]): Promise<number>;
  wsmCharge(...args: (string | number)[]): Promise<number | string>;
  wsmRevoke(...args: (string | number)[]): Promise<number>;
  wsmTopUp(...args: (string | number)[]): Promise<[string, (number | string)?]>;
  wsmSuspend(...args: (string | number)[]): Promise<number>;
  wsmHit(...args: (string | number)[]): Promise<number>;
}

export interface RedisStoreOptions {
  url: string;
  /** Prepended to every key, so deployments can share one Redis. */
  prefix?: string;
  /** How long connecting may take before the store is called unreachable. */
  connectTimeoutMs?: number;
}

type KeyJson = Omit<ApiKeyRecord, 'balance'>;

export class RedisStore implements Store {
  readonly kind = 'redis' as const;
  readonly #redis: Redis & Scripts;
  readonly #p: string;

  /** Connects, or throws a clear error naming the server. */
  static async connect(options: RedisStoreOptions): Promise<RedisStore> {
    // Fail fast rather than queue: a request while Redis is away gets an error at once
    // (and /healthz a 503) instead of hanging until the connection returns.
    const redis = new Redis(options.url, {
      lazyConnect: true,
      enableOfflineQueue: false,
      maxRetriesPerRequest: 1,
      connectTimeout: options.connectTimeoutMs ?? 5_000,
      retryStrategy: (attempt) => Math.min(attempt * 200, 2_000),
    });
    redis.on('error', () => undefined); // reported by the commands that fail; the client reconnects by itself
    try {
      await redis.connect();
    } catch (err) {
      redis.disconnect();
      throw new Error(`cannot reach Redis at ${redactUrl(options.url)}: ${(err as Error).message}`, { cause: err });
    }
    // A command failing while the client is not connected (refused, reset, timed out) is
    // an outage; Redis's own answers to a command (ReplyError) are not.
    const isOutage = (err: unknown) => !(err instanceof ReplyError) && redis.status !== 'ready';
    return reportingOutages(new RedisStore(redis, options.prefix ?? 'wsm:'), 'Redis', isOutage);
  }

  // TypeScript's `private`: ECMAScript has no private constructor; connect() is the way in.
  private constructor(redis: Redis, prefix: string) {
    redis.defineCommand('wsmCreateKey', { numberOfKeys: 4, lua: CREATE_KEY });
    redis.defineCommand('wsmReserve', { numberOfKeys: 5, lua: RESERVE });
    redis.defineCommand('wsmReleaseOwned', { numberOfKeys: 3, lua: RELEASE_OWNED });
    redis.defineCommand('wsmCharge', { numberOfKeys: 6, lua: CHARGE });
    redis.defineCommand('wsmRevoke', { numberOfKeys: 1, lua: REVOKE });
    redis.defineCommand('wsmTopUp', { numberOfKeys: 1, lua: TOP_UP });
    redis.defineCommand('wsmSuspend', { numberOfKeys: 1, lua: SUSPEND });
    redis.defineCommand('wsmHit', { numberOfKeys: 1, lua: HIT });
    this.#redis = redis as Redis & Scripts;
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

  async createKey(record: ApiKeyRecord): Promise<void> {
    const { balance, ...rest } = record;
    const created = await this.#redis.wsmCreateKey(
      this.#k('key', record.id),
      this.#k('hash', record.hash),
      this.#k('balance', record.id),
      `${this.#p}keys`,
      record.id,
      JSON.stringify(rest),
      balance === null ? '' : balance,
      Date.parse(record.createdAt) || 0,
    );
    if (created !== 1) throw new Error(`a key with this id or hash exists`);
  }

  async keyByHash(hash: string): Promise<ApiKeyRecord | undefined> {
    const id = await this.#redis.get(this.#k('hash', hash));
    return id === null ? undefined : this.keyById(id);
  }

  async keyById(id: string): Promise<ApiKeyRecord | undefined> {
    const [json, balance] = await this.#redis.mget(this.#k('key', id), this.#k('balance', id));
    if (!json) return undefined;
    return {
      ...(JSON.parse(json) as KeyJson),
      balance: balance === null || balance === undefined ? null : Number(balance),
    };
  }

  async listKeys(): Promise<ApiKeyRecord[]> {
    const ids = await this.#redis.zrange(`${this.#p}keys`, 0, -1);
    const keys = await Promise.all(ids.map((id) => this.keyById(id)));
    return keys
      .filter((k): k is ApiKeyRecord => k !== undefined)
      .sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id));
  }

  async keyCount(): Promise<number> {
    return this.#redis.zcard(`${this.#p}keys`);
  }

  async revokeKey(id: string, at: string): Promise<boolean> {
    return (await this.#redis.wsmRevoke(this.#k('key', id), at)) === 1;
  }

  async topUp(id: string, credits: number): Promise<ApiKeyRecord | undefined> {
    const [outcome, balance] = await this.#redis.wsmTopUp(this.#k('balance', id), credits, MAX_BALANCE);
    if (outcome === 'over') throw balanceTooLarge(id, Number(balance), credits);
    return this.keyById(id);
  }

  async reserve(
    keyId: string,
    requestId: string,
    maxCredits: number,
    holdMs: number,
    now: number,
    owner?: string,
  ): Promise<ReserveResult> {
    const [ok, detail, balance, available] = await this.#redis.wsmReserve(
      this.#k('key', keyId),
      this.#k('balance', keyId),
      this.#k('holds', keyId),
      this.#k('held', keyId),
      this.#k('owners', keyId),
      requestId,
      maxCredits,
      now,
      // PEXPIREAT takes whole milliseconds.
      Math.ceil(now + holdMs),
      owner ?? '',
    );
    if (ok === 1) return { ok: true, balance: detail === '' ? null : Number(detail) };
    const reason = detail as 'unknown_key' | 'revoked' | 'insufficient_credits';
    return reason === 'insufficient_credits'
      ? { ok: false, reason, balance: Number(balance), available: Number(available) }
      : { ok: false, reason };
  }

  async releaseOwned(owner: string): Promise<number> {
    // Only keys with a live hold have an owners hash (it expires with the holds).
    const from = this.#k('owners', '');
    let released = 0;
    let cursor = '0';
    do {
      const [next, found] = await this.#redis.scan(cursor, 'MATCH', `${from}*`, 'COUNT', 500);
      for (const owners of found) {
        const keyId = owners.slice(from.length);
        released += Number(
          await this.#redis.wsmReleaseOwned(this.#k('holds', keyId), this.#k('held', keyId), owners, owner),
        );
      }
      cursor = next;
    } while (cursor !== '0');
    return released;
  }

  async charge(input: ChargeInput): Promise<{ balance: number | null }> {
    const record: UsageRecord = {
      keyId: input.keyId,
      operation: input.operation,
      credits: input.credits,
      requestId: input.requestId,
      at: input.at,
      ...usageSubject(input),
    };
    const balance = await this.#redis.wsmCharge(
      this.#k('balance', input.keyId),
      this.#k('holds', input.keyId),
      this.#k('held', input.keyId),
      `${this.#p}usage`,
      this.#k('usage', input.keyId),
      this.#k('owners', input.keyId),
      input.requestId,
      input.credits,
      JSON.stringify(record),
    );
    return { balance: balance === '' ? null : Number(balance) };
  }

  async release(keyId: string, requestId: string): Promise<void> {
    await this.#redis
      .multi()
      .zrem(this.#k('holds', keyId), requestId)
      .hdel(this.#k('held', keyId), requestId)
      .hdel(this.#k('owners', keyId), requestId)
      .exec();
  }

  async usage(query: { keyId?: string; since?: string } = {}): Promise<UsageRecord[]> {
    const list = query.keyId === undefined ? `${this.#p}usage` : this.#k('usage', query.keyId);
    const records = (await this.#redis.lrange(list, 0, -1)).map((text) => JSON.parse(text) as UsageRecord);
    return query.since === undefined ? records : records.filter((r) => r.at >= (query.since as string));
  }

  async usagePage(keyId: string, page: { limit: number; before?: number }): Promise<UsagePage> {
    // The key's list only grows at its end (RPUSH), so a record's place in it (from 1) is stable.
    const list = this.#k('usage', keyId);
    const end = page.before === undefined ? await this.#redis.llen(list) : Math.max(0, page.before - 1);
    const start = Math.max(0, end - page.limit);
    const texts = end === 0 ? [] : await this.#redis.lrange(list, start, end - 1);
    const records = texts.map((text, i) => ({ ...(JSON.parse(text) as UsageRecord), seq: start + i + 1 })).reverse();
    return { records, ...(start > 0 ? { next: start + 1 } : {}) };
  }

  async heldCredits(keyId: string, now: number): Promise<number> {
    const live = await this.#redis.zrangebyscore(this.#k('holds', keyId), `(${now}`, '+inf');
    if (live.length === 0) return 0;
    const credits = await this.#redis.hmget(this.#k('held', keyId), ...live);
    return credits.reduce((sum, c) => sum + (c === null ? 0 : Number(c)), 0);
  }

  async hitRateLimit(bucket: string, windowMs: number, now: number): Promise<RateLimitHit> {
    const end = now - (now % windowMs) + windowMs;
    const count = await this.#redis.wsmHit(`${this.#p}rate:${bucket}:${end}`, end);
    return { count: Number(count), resetAt: end };
  }

  async ping(): Promise<void> {
    await this.#redis.ping();
  }

  async close(): Promise<void> {
    await this.#redis.quit().catch(() => this.#redis.disconnect());
  }

  #k(kind: string, id: string): string {
    return `${this.#p}${kind}:${id}`;
  }
}

/** The URL without its password, for messages. */
function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return 'the configured URL';
  }
}
