/**
 * The store in one process's memory: the reference semantics of the store ports, for unit
 * tests and library use where nothing should touch the disk. Values are kept as JSON
 * text, as the durable adapters keep them, so a reader never shares an object with a
 * writer. Nothing survives the process.
 */
import type { CacheNamespace, CacheStore } from '../core/cache-port.js';
import type { ApiKeyRecord } from '../core/key-store.js';
import type { ChargeInput, ReserveResult, UsagePage, UsageRecord } from '../core/ledger-store.js';
import { usageSubject } from '../core/ledger-store.js';
import { LruCache } from '../core/lru-cache.js';
import { balanceTooLarge, MAX_BALANCE } from '../core/pricing.js';
import type { RateLimitHit } from '../core/rate-window-store.js';
import type { Store } from '../core/store-port.js';
import type { StoredSuspension } from '../core/suspension-store.js';

interface Hold {
  credits: number;
  expiresAt: number;
  owner: string | undefined;
}

export interface MemoryStoreOptions {
  /** Entries kept per cache namespace (least recently used evicted beyond). */
  maxCacheEntries?: number;
  /** Clock for cache expiry (tests). */
  now?: () => number;
}

export class MemoryStore implements Store {
  readonly kind = 'memory' as const;
  readonly #caches = new Map<CacheNamespace, LruCache<string, string>>();
  readonly #suspensions = new Map<string, StoredSuspension>();
  readonly #keys = new Map<string, ApiKeyRecord>();
  readonly #holds = new Map<string, Map<string, Hold>>();
  readonly #usage: UsageRecord[] = [];
  readonly #windows = new Map<string, RateLimitHit>();
  readonly #options: MemoryStoreOptions;
  #closed = false;

  constructor(options: MemoryStoreOptions = {}) {
    this.#options = options;
  }

  cache<V>(namespace: CacheNamespace): CacheStore<V> {
    let lru = this.#caches.get(namespace);
    if (!lru) {
      lru = new LruCache<string, string>({
        maxEntries: this.#options.maxCacheEntries ?? 10_000,
        ...(this.#options.now ? { now: this.#options.now } : {}),
      });
      this.#caches.set(namespace, lru);
    }
    const entries = lru;
    return {
      get: async (key) => {
        this.#open();
        const text = entries.get(key);
        return text === undefined ? undefined : (JSON.parse(text) as V);
      },
      set: async (key, value, ttlMs) => {
        this.#open();
        if (ttlMs > 0) entries.set(key, JSON.stringify(value), ttlMs);
      },
    };
  }

  async getSuspension(engine: string, now: number): Promise<StoredSuspension | undefined> {
    this.#open();
    const s = this.#suspensions.get(engine);
    if (s === undefined || now >= s.until) return undefined;
    return { ...s };
  }

  async putSuspension(engine: string, suspension: StoredSuspension, now: number): Promise<void> {
    this.#open();
    const current = await this.getSuspension(engine, now);
    if (current && current.until >= suspension.until) return;
    this.#suspensions.set(engine, { ...suspension });
  }

  async clearSuspensions(): Promise<void> {
    this.#suspensions.clear();
  }

  async createKey(record: ApiKeyRecord): Promise<void> {
    this.#open();
    if (this.#keys.has(record.id) || [...this.#keys.values()].some((k) => k.hash === record.hash))
      throw new Error(`key ${record.id} exists`);
    this.#keys.set(record.id, { ...record });
  }

  async keyByHash(hash: string): Promise<ApiKeyRecord | undefined> {
    this.#open();
    const key = [...this.#keys.values()].find((k) => k.hash === hash);
    return key && { ...key };
  }

  async keyById(id: string): Promise<ApiKeyRecord | undefined> {
    this.#open();
    const key = this.#keys.get(id);
    return key && { ...key };
  }

  async listKeys(): Promise<ApiKeyRecord[]> {
    this.#open();
    return [...this.#keys.values()]
      .map((k) => ({ ...k }))
      .sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id));
  }

  async keyCount(): Promise<number> {
    this.#open();
    return this.#keys.size;
  }

  async revokeKey(id: string, at: string): Promise<boolean> {
    this.#open();
    const key = this.#keys.get(id);
    if (!key) return false;
    key.revokedAt ??= at;
    return true;
  }

  async topUp(id: string, credits: number): Promise<ApiKeyRecord | undefined> {
    this.#open();
    const key = this.#keys.get(id);
    if (!key) return undefined;
    if (key.balance !== null) {
      if (key.balance > MAX_BALANCE - credits) throw balanceTooLarge(id, key.balance, credits);
      key.balance += credits;
    }
    return { ...key };
  }

  async reserve(
    keyId: string,
    requestId: string,
    maxCredits: number,
    holdMs: number,
    now: number,
    owner?: string,
  ): Promise<ReserveResult> {
    this.#open();
    const key = this.#keys.get(keyId);
    if (!key) return { ok: false, reason: 'unknown_key' };
    if (key.revokedAt !== undefined) return { ok: false, reason: 'revoked' };
    const holds = this.#holds.get(keyId) ?? new Map<string, Hold>();
    for (const [id, hold] of holds) if (hold.expiresAt <= now) holds.delete(id);
    if (key.balance !== null) {
      const available = key.balance - [...holds.values()].reduce((sum, h) => sum + h.credits, 0);
      if (available < maxCredits || available <= 0)
        return { ok: false, reason: 'insufficient_credits', balance: key.balance, available };
    }
    holds.set(requestId, { credits: maxCredits, expiresAt: now + holdMs, owner });
    this.#holds.set(keyId, holds);
    return { ok: true, balance: key.balance };
  }

  async charge(input: ChargeInput): Promise<{ balance: number | null }> {
    this.#open();
    this.#holds.get(input.keyId)?.delete(input.requestId);
    const key = this.#keys.get(input.keyId);
    if (key && key.balance !== null) key.balance -= input.credits;
    this.#usage.push({
      keyId: input.keyId,
      operation: input.operation,
      credits: input.credits,
      requestId: input.requestId,
      at: input.at,
      ...usageSubject(input),
    });
    return { balance: key ? key.balance : null };
  }

  async release(keyId: string, requestId: string): Promise<void> {
    this.#holds.get(keyId)?.delete(requestId);
  }

  async releaseOwned(owner: string): Promise<number> {
    this.#open();
    let released = 0;
    for (const holds of this.#holds.values()) {
      for (const [id, hold] of holds) {
        if (hold.owner !== owner) continue;
        holds.delete(id);
        released += 1;
      }
    }
    return released;
  }

  async usage(query: { keyId?: string; since?: string } = {}): Promise<UsageRecord[]> {
    this.#open();
    return this.#usage
      .filter(
        (u) =>
          (query.keyId === undefined || u.keyId === query.keyId) && (query.since === undefined || u.at >= query.since),
      )
      .map((u) => ({ ...u }));
  }

  async usagePage(keyId: string, page: { limit: number; before?: number }): Promise<UsagePage> {
    this.#open();
    // seq: the record's place in the whole log, from 1.
    const older = this.#usage
      .map((u, i) => ({ ...u, seq: i + 1 }))
      .filter((u) => u.keyId === keyId && (page.before === undefined || u.seq < page.before))
      .reverse();
    const records = older.slice(0, page.limit);
    const last = records[records.length - 1];
    return { records, ...(older.length > page.limit && last ? { next: last.seq } : {}) };
  }

  async heldCredits(keyId: string, now: number): Promise<number> {
    this.#open();
    let held = 0;
    for (const hold of this.#holds.get(keyId)?.values() ?? []) if (hold.expiresAt > now) held += hold.credits;
    return held;
  }

  async hitRateLimit(bucket: string, windowMs: number, now: number): Promise<RateLimitHit> {
    this.#open();
    const start = now - (now % windowMs);
    const current = this.#windows.get(bucket);
    const hit =
      current && current.resetAt === start + windowMs
        ? { count: current.count + 1, resetAt: current.resetAt }
        : { count: 1, resetAt: start + windowMs };
    this.#windows.set(bucket, hit);
    return { ...hit };
  }

  async ping(): Promise<void> {
    this.#open();
  }

  async close(): Promise<void> {
    this.#closed = true;
    for (const lru of this.#caches.values()) lru.clear();
  }

  #open(): void {
    if (this.#closed) throw new Error('the store is closed');
  }
}
