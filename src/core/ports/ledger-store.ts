/**
 * The ledger port: credit holds, debits and usage records against the keys' balances
 * (key-store.ts; an adapter keeps both in one place, since admission reads the key and a
 * charge moves its balance in the same atomic step).
 */

// 'crawl' is the extraction operation's value as stored in usage records (SQLite, Redis): kept, not renamed.
// 'map' and 'site_crawl': a site's map, and the pages of a site crawl (one record a page).
export type Operation = 'search' | 'crawl' | 'map' | 'site_crawl';

export interface UsageRecord {
  keyId: string;
  operation: Operation;
  credits: number;
  requestId: string;
  /** ISO 8601 UTC. */
  at: string;
  /** What the request was about: the URLs of an extraction (as submitted), the query of a search. */
  urls?: string[];
  query?: string;
}

/** Usage records of one key, newest first, and where the next (older) page starts. */
export interface UsagePage {
  /**
   * `seq`: the record's place among its key's own records (1, 2, ...), whatever other keys
   * write (a number shared by all keys would show their activity); a later page starts below it.
   */
  records: (UsageRecord & { seq: number })[];
  /** Pass as `before` for the next page; absent on the last page. */
  next?: number;
}

export type ReserveResult =
  | { ok: true; balance: number | null }
  | { ok: false; reason: 'unknown_key' | 'revoked' }
  /** `available`: the balance less the credits its live holds keep. */
  | { ok: false; reason: 'insufficient_credits'; balance: number; available: number };

export interface ChargeInput {
  keyId: string;
  operation: Operation;
  /** Credits actually charged (0 allowed: the usage record is still written). */
  credits: number;
  requestId: string;
  at: string;
  /** Kept with the usage record (UsageRecord). */
  urls?: string[];
  query?: string;
  /** The hold this charge settles (default: requestId): a site crawl holds each page under its own. */
  holdId?: string;
  /**
   * Debit and record only while that hold exists, dropping it; otherwise do nothing. A
   * page's charge repeated after a kill then finds its hold gone and charges nothing twice.
   */
  onlyIfHeld?: boolean;
}

export interface LedgerStore {
  /**
   * Admission, atomically: refuses an unknown or revoked key, and a limited key whose
   * balance minus its live holds does not cover `maxCredits`; otherwise records a hold of
   * `maxCredits` under `requestId`, owned by `owner` (the instance), that expires by itself
   * after `holdMs` (a crashed instance loses no credits for good). Since every request
   * holds its largest cost, concurrent requests never take a balance below zero.
   */
  reserve(
    keyId: string,
    requestId: string,
    maxCredits: number,
    holdMs: number,
    now: number,
    owner?: string,
  ): Promise<ReserveResult>;
  /**
   * Drops every hold `owner` took, on every key: a restarted instance releasing what its
   * previous life left behind (none of those requests can still be running). Returns how many.
   */
  releaseOwned(owner: string): Promise<number>;
  /**
   * Settles a request in one atomic step: drops its hold, debits `credits` from a limited
   * key's balance and appends the usage record. Returns the balance after the debit, and
   * whether it debited (false only with `onlyIfHeld` and no hold).
   */
  charge(input: ChargeInput): Promise<{ balance: number | null; charged: boolean }>;
  /** Drops a hold without charging (the request failed or was not charged). */
  release(keyId: string, requestId: string): Promise<void>;
  /** Usage records, oldest first, optionally of one key and from a time on (ISO 8601). */
  usage(query?: { keyId?: string; since?: string }): Promise<UsageRecord[]>;
  /** One key's usage records, newest first: `limit` of them, older than `before` (a `seq`) when given. */
  usagePage(keyId: string, page: { limit: number; before?: number }): Promise<UsagePage>;
  /** Credits a key's live holds (requests in progress) keep from its balance at `now`. */
  heldCredits(keyId: string, now: number): Promise<number>;
}

/** The subject fields of a charge or record, without absent ones (records compare and serialise alike in every store). */
export function usageSubject(input: Pick<UsageRecord, 'urls' | 'query'>): Pick<UsageRecord, 'urls' | 'query'> {
  return {
    ...(input.urls !== undefined ? { urls: input.urls } : {}),
    ...(input.query !== undefined ? { query: input.query } : {}),
  };
}
