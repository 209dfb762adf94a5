/**
 * The store port: everything that must survive a restart or be shared between instances
 * (caches, engine suspensions, API keys, balances, usage records, rate-limit counters).
 * Services depend on this interface only; the composition root picks the adapter
 * (store/sqlite-store.ts, store/redis-store.ts, store/memory-store.ts for unit tests).
 *
 * Values are JSON: adapters serialise with JSON.stringify and must hand back an equal
 * value (deep-equal), never a shared reference.
 */
import type { CacheStore } from './cache-port.js';

/** Cache namespaces, each with its own TTL set by its caller. */
export type CacheNamespace = 'page' | 'search' | 'robots';

export interface ApiKeyRecord {
  /** Public id shown by `keys list` and stored on usage records, e.g. `key_01J...`. */
  id: string;
  name: string;
  /** SHA-256 of the secret, lower-case hex. The secret itself is never stored. */
  hash: string;
  /** The first characters of the secret (e.g. `wsk_3fa9`), so an operator can tell keys apart. */
  prefix: string;
  /** Remaining credits; null means unlimited. May be negative by the cost of the request that crossed zero. */
  balance: number | null;
  /** ISO 8601 UTC. */
  createdAt: string;
  /** ISO 8601 UTC; a revoked key never authenticates again. */
  revokedAt?: string;
}

export type Operation = 'search' | 'crawl';

export interface UsageRecord {
  keyId: string;
  operation: Operation;
  credits: number;
  requestId: string;
  /** ISO 8601 UTC. */
  at: string;
}

export type ReserveResult =
  | { ok: true; balance: number | null }
  | { ok: false; reason: 'unknown_key' | 'revoked' | 'insufficient_credits'; balance?: number | null };

export interface ChargeInput {
  keyId: string;
  operation: Operation;
  /** Credits actually charged (0 allowed: the usage record is still written). */
  credits: number;
  requestId: string;
  at: string;
}

export interface RateLimitHit {
  /** Requests counted in the current window, this one included. */
  count: number;
  /** Epoch ms at which the current window ends. */
  resetAt: number;
}

export interface StoredSuspension {
  reason: 'blocked' | 'rate_limited';
  /** Epoch ms at which the engine may be asked again. */
  until: number;
  cause: string;
}

export interface Store {
  readonly kind: 'memory' | 'sqlite' | 'redis';

  /** A cache view over one namespace; entries expire after the TTL given to `set` (0 = not stored). */
  cache<V>(namespace: CacheNamespace): CacheStore<V>;

  /** Engine suspensions, shared so that an engine that showed one instance a CAPTCHA rests on all. */
  getSuspension(engine: string, now: number): Promise<StoredSuspension | undefined>;
  /** Keeps the longer of the stored and the given suspension; expires by itself at `until`. */
  putSuspension(engine: string, suspension: StoredSuspension, now: number): Promise<void>;
  clearSuspensions(): Promise<void>;

  createKey(record: ApiKeyRecord): Promise<void>;
  keyByHash(hash: string): Promise<ApiKeyRecord | undefined>;
  keyById(id: string): Promise<ApiKeyRecord | undefined>;
  listKeys(): Promise<ApiKeyRecord[]>;
  /**
   * Number of keys ever created, revoked ones included: open (keyless) mode is allowed only
   * while this is 0, so revoking every key never reopens a metered server.
   */
  keyCount(): Promise<number>;
  /** Marks the key revoked; false when no such key (revoking twice is true and keeps the first time). */
  revokeKey(id: string, at: string): Promise<boolean>;
  /** Adds credits (a limited key only); returns the new record, undefined for an unknown key. */
  topUp(id: string, credits: number): Promise<ApiKeyRecord | undefined>;

  /**
   * Admission, atomically: refuses an unknown or revoked key, and a limited key whose
   * balance minus its live holds is not above zero; otherwise records a hold of
   * `maxCredits` under `requestId` that expires by itself after `holdMs` (a crashed
   * instance loses no credits for good). Concurrent requests on one key so cannot take
   * the balance below zero by more than one request's cost.
   */
  reserve(keyId: string, requestId: string, maxCredits: number, holdMs: number, now: number): Promise<ReserveResult>;
  /**
   * Settles a request in one atomic step: drops its hold, debits `credits` from a limited
   * key's balance and appends the usage record. Returns the balance after the debit.
   */
  charge(input: ChargeInput): Promise<{ balance: number | null }>;
  /** Drops a hold without charging (the request failed or was not charged). */
  release(keyId: string, requestId: string): Promise<void>;
  /** Usage records, oldest first, optionally of one key and from a time on (ISO 8601). */
  usage(query?: { keyId?: string; since?: string }): Promise<UsageRecord[]>;

  /** Counts one request in the fixed window of `windowMs` that holds `now`. */
  hitRateLimit(bucket: string, windowMs: number, now: number): Promise<RateLimitHit>;

  /** Throws when the store cannot be reached (health checks). */
  ping(): Promise<void>;
  close(): Promise<void>;
}
