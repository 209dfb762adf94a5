import type { ApiKeyRecord } from '../../core/ports/key-store.js';
import type { ChargeInput, LedgerStore, ReserveResult, UsagePage, UsageRecord } from '../../core/ports/ledger-store.js';
import { usageSubject } from '../../core/ports/ledger-store.js';
import type { MemoryLifetime } from './memory-lifetime.js';

interface Hold {
  credits: number;
  expiresAt: number;
  owner: string | undefined;
}

/** Holds per key and one usage log, against the keys' map (memory-keys.ts) whose balances it debits. */
export class MemoryLedger implements LedgerStore {
  readonly #keys: Map<string, ApiKeyRecord>;
  readonly #holds = new Map<string, Map<string, Hold>>();
  readonly #usage: UsageRecord[] = [];
  readonly #lifetime: MemoryLifetime;

  constructor(keys: Map<string, ApiKeyRecord>, lifetime: MemoryLifetime) {
    this.#keys = keys;
    this.#lifetime = lifetime;
  }

  async reserve(
    keyId: string,
    requestId: string,
    maxCredits: number,
    holdMs: number,
    now: number,
    owner?: string,
  ): Promise<ReserveResult> {
    this.#lifetime.check();
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

  async charge(input: ChargeInput): Promise<{ balance: number | null; charged: boolean }> {
    this.#lifetime.check();
    const dropped = this.#holds.get(input.keyId)?.delete(input.holdId ?? input.requestId) ?? false;
    const key = this.#keys.get(input.keyId);
    if (input.onlyIfHeld === true && !dropped) return { balance: key ? key.balance : null, charged: false };
    if (key && key.balance !== null) key.balance -= input.credits;
    this.#usage.push({
      keyId: input.keyId,
      operation: input.operation,
      credits: input.credits,
      requestId: input.requestId,
      at: input.at,
      ...usageSubject(input),
    });
    return { balance: key ? key.balance : null, charged: true };
  }

  async release(keyId: string, requestId: string): Promise<void> {
    this.#holds.get(keyId)?.delete(requestId);
  }

  async releaseOwned(owner: string): Promise<number> {
    this.#lifetime.check();
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
    this.#lifetime.check();
    return this.#usage
      .filter(
        (u) =>
          (query.keyId === undefined || u.keyId === query.keyId) && (query.since === undefined || u.at >= query.since),
      )
      .map((u) => ({ ...u }));
  }

  async usagePage(keyId: string, page: { limit: number; before?: number }): Promise<UsagePage> {
    this.#lifetime.check();
    // seq: the record's place among its key's own, from 1.
    const older = this.#usage
      .filter((u) => u.keyId === keyId)
      .map((u, i) => ({ ...u, seq: i + 1 }))
      .filter((u) => page.before === undefined || u.seq < page.before)
      .reverse();
    const records = older.slice(0, page.limit);
    const last = records[records.length - 1];
    return { records, ...(older.length > page.limit && last ? { next: last.seq } : {}) };
  }

  async heldCredits(keyId: string, now: number): Promise<number> {
    this.#lifetime.check();
    let held = 0;
    for (const hold of this.#holds.get(keyId)?.values() ?? []) if (hold.expiresAt > now) held += hold.credits;
    return held;
  }
}
