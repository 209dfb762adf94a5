import type { Redis } from 'ioredis';
import type { ApiKeyRecord, KeyStore } from '../../core/ports/key-store.js';
import { balanceTooLarge, MAX_BALANCE } from '../../core/pricing.js';
import { redisKey } from './redis-connection.js';

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

interface Scripts {
  wsmCreateKey(...args: (string | number)[]): Promise<number>;
  wsmRevoke(...args: (string | number)[]): Promise<number>;
  wsmTopUp(...args: (string | number)[]): Promise<[string, (number | string)?]>;
}

type KeyJson = Omit<ApiKeyRecord, 'balance'>;

/**
 * API keys: the record as JSON and the balance as its own integer key (the ledger,
 * redis-ledger.ts, moves it with DECRBY), a hash -> id index and the list by creation time.
 */
export class RedisKeys implements KeyStore {
  readonly #redis: Redis & Scripts;
  readonly #p: string;

  constructor(redis: Redis, prefix: string) {
    redis.defineCommand('wsmCreateKey', { numberOfKeys: 4, lua: CREATE_KEY });
    redis.defineCommand('wsmRevoke', { numberOfKeys: 1, lua: REVOKE });
    redis.defineCommand('wsmTopUp', { numberOfKeys: 1, lua: TOP_UP });
    this.#redis = redis as Redis & Scripts;
    this.#p = prefix;
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

  #k(kind: string, id: string): string {
    return redisKey(this.#p, kind, id);
  }
}
