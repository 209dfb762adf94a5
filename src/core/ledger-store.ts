/**
 * The ledger port: credit holds, debits and usage records against the keys' balances
 * (key-store.ts; an adapter keeps both in one place, since admission reads the key and a
 * charge moves its balance in the same atomic step).
 */

// 'crawl' is the extraction operation's value as stored in usage records (SQLite, Redis): kept, not renamed.
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

export interface LedgerStore {
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
}
