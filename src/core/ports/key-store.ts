/**
 * The key port: API keys as records (docs/decisions.md, "Credits and keys"). The secret is
 * never stored, only its hash; the balance lives here and moves through the ledger
 * (ledger-store.ts) or an operator's top-up.
 */

export interface ApiKeyRecord {
  /** Public id shown by `keys list` and stored on usage records, e.g. `key_01J...`. */
  id: string;
  name: string;
  /** SHA-256 of the secret, lower-case hex. The secret itself is never stored. */
  hash: string;
  /** The first characters of the secret (e.g. `wsk_3fa9`), so an operator can tell keys apart. */
  prefix: string;
  /** Remaining credits; null means unlimited. Never negative (admission holds a request's largest cost), never past MAX_BALANCE (core/pricing.ts). */
  balance: number | null;
  /** ISO 8601 UTC. */
  createdAt: string;
  /** ISO 8601 UTC; a revoked key never authenticates again. */
  revokedAt?: string;
}

export interface KeyStore {
  /** Refuses (throws) a second key with the same id or the same hash, keeping the first. */
  createKey(record: ApiKeyRecord): Promise<void>;
  keyByHash(hash: string): Promise<ApiKeyRecord | undefined>;
  keyById(id: string): Promise<ApiKeyRecord | undefined>;
  /** Every key, in creation order. */
  listKeys(): Promise<ApiKeyRecord[]>;
  /**
   * Number of keys ever created, revoked ones included: open (keyless) mode is allowed only
   * while this is 0, so revoking every key never reopens a metered server.
   */
  keyCount(): Promise<number>;
  /** Marks the key revoked; false when no such key (revoking twice is true and keeps the first time). */
  revokeKey(id: string, at: string): Promise<boolean>;
  /**
   * Adds credits (a limited key only); returns the new record, undefined for an unknown key.
   * Throws `balanceTooLarge` (core/pricing.ts) rather than pass MAX_BALANCE, changing nothing.
   */
  topUp(id: string, credits: number): Promise<ApiKeyRecord | undefined>;
}
