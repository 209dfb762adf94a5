import type { Redis } from 'ioredis';
import type { ChargeInput, LedgerStore, ReserveResult, UsagePage, UsageRecord } from '../../core/ports/ledger-store.js';
import { usageSubject } from '../../core/ports/ledger-store.js';
import { redisKey } from './redis-connection.js';

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

/**
 * KEYS: balance, holds, hold credits, usage (all), usage (this key), hold owners. ARGV: hold,
 * credits, record JSON, only-if-held ('1'). Returns {charged (1/0), balance or ''}.
 */
const CHARGE = `
local held = redis.call('HDEL', KEYS[3], ARGV[1])
redis.call('ZREM', KEYS[2], ARGV[1])
redis.call('HDEL', KEYS[6], ARGV[1])
local balance = ''
if ARGV[4] == '1' and held == 0 then
  if redis.call('EXISTS', KEYS[1]) == 1 then balance = redis.call('GET', KEYS[1]) end
  return {0, balance}
end
if redis.call('EXISTS', KEYS[1]) == 1 then balance = redis.call('DECRBY', KEYS[1], ARGV[2]) end
redis.call('RPUSH', KEYS[4], ARGV[3])
redis.call('RPUSH', KEYS[5], ARGV[3])
return {1, tostring(balance)}
`;

interface Scripts {
  wsmReserve(...args: (string | number)[]): Promise<[number, string, string?, number?]>;
  wsmReleaseOwned(...args: (string | number)[]): Promise<number>;
  wsmCharge(...args: (string | number)[]): Promise<[number, string]>;
}

/**
 * Holds (per key: a zset of expiries, a hash of credits, a hash of owners, all expiring
 * with the last hold) and usage lists, against the balances the keys keep (redis-keys.ts);
 * admission and a charge are each one Lua script, atomic across instances.
 */
export class RedisLedger implements LedgerStore {
  readonly #redis: Redis & Scripts;
  readonly #p: string;

  constructor(redis: Redis, prefix: string) {
    redis.defineCommand('wsmReserve', { numberOfKeys: 5, lua: RESERVE });
    redis.defineCommand('wsmReleaseOwned', { numberOfKeys: 3, lua: RELEASE_OWNED });
    redis.defineCommand('wsmCharge', { numberOfKeys: 6, lua: CHARGE });
    this.#redis = redis as Redis & Scripts;
    this.#p = prefix;
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

  async charge(input: ChargeInput): Promise<{ balance: number | null; charged: boolean }> {
    const record: UsageRecord = {
      keyId: input.keyId,
      operation: input.operation,
      credits: input.credits,
      requestId: input.requestId,
      at: input.at,
      ...usageSubject(input),
    };
    const [charged, balance] = await this.#redis.wsmCharge(
      this.#k('balance', input.keyId),
      this.#k('holds', input.keyId),
      this.#k('held', input.keyId),
      `${this.#p}usage`,
      this.#k('usage', input.keyId),
      this.#k('owners', input.keyId),
      input.holdId ?? input.requestId,
      input.credits,
      JSON.stringify(record),
      input.onlyIfHeld === true ? '1' : '0',
    );
    return { balance: balance === '' ? null : Number(balance), charged: charged === 1 };
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

  #k(kind: string, id: string): string {
    return redisKey(this.#p, kind, id);
  }
}
