/**
 * API keys (docs/interface.md 5; docs/decisions.md, "Credits and keys"): created with a
 * secret shown once, stored as its SHA-256 only, looked up by that hash and compared in
 * constant time, revoked for good, topped up. No secret is ever logged or stored.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { AppError } from '../../core/errors.js';
import { newKeyId } from '../../core/ids.js';
import type { ApiKeyRecord, KeyStore } from '../../core/ports/key-store.js';
import type { LedgerStore, UsageRecord } from '../../core/ports/ledger-store.js';

/** The keys, and the ledger's usage records read back; never a hold or a charge. */
type ApiKeysStore = KeyStore & Pick<LedgerStore, 'usage'>;

/** Every secret starts with this, so a leaked key is recognisable (and greppable in logs). */
export const KEY_PREFIX = 'wsk_';
/** Characters of the secret kept to tell keys apart in listings. */
const SHOWN_CHARS = KEY_PREFIX.length + 6;

export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex');
}

export interface CreatedKey {
  /** The secret: shown once, never stored. */
  secret: string;
  record: ApiKeyRecord;
}

export class ApiKeys {
  readonly #store: ApiKeysStore;
  readonly #now: () => number;

  constructor(store: ApiKeysStore, now: () => number = Date.now) {
    this.#store = store;
    this.#now = now;
  }

  /** `credits` undefined = unlimited. */
  async create(options: { name?: string; credits?: number } = {}): Promise<CreatedKey> {
    if (options.credits !== undefined && (!Number.isSafeInteger(options.credits) || options.credits < 0)) {
      throw new AppError(
        'invalid_request',
        'credits must be a whole number of at least 0 (leave it out for an unlimited key).',
      );
    }
    // 32 random bytes: 256 bits, beyond guessing; base64url keeps it header- and shell-safe.
    const secret = `${KEY_PREFIX}${randomBytes(32).toString('base64url')}`;
    const record: ApiKeyRecord = {
      id: newKeyId(),
      name: options.name?.trim() || 'unnamed',
      hash: hashSecret(secret),
      prefix: secret.slice(0, SHOWN_CHARS),
      balance: options.credits ?? null,
      createdAt: new Date(this.#now()).toISOString(),
    };
    await this.#store.createKey(record);
    return { secret, record };
  }

  list(): Promise<ApiKeyRecord[]> {
    return this.#store.listKeys();
  }

  /** Keys ever created, revoked ones included (open mode ends with the first key). */
  async count(): Promise<number> {
    return this.#store.keyCount();
  }

  /** Finds a key by its id, or by a prefix of the secret as `keys list` shows it. */
  async resolve(idOrPrefix: string): Promise<ApiKeyRecord> {
    const wanted = idOrPrefix.trim();
    const byId = await this.#store.keyById(wanted);
    if (byId) return byId;
    const matches =
      wanted.length >= SHOWN_CHARS
        ? (await this.#store.listKeys()).filter((k) => wanted.startsWith(k.prefix) || k.prefix.startsWith(wanted))
        : [];
    if (matches.length === 1) return matches[0] as ApiKeyRecord;
    throw new AppError(
      'not_found',
      matches.length > 1
        ? `"${wanted}" matches ${matches.length} keys; use the key id.`
        : `No key "${wanted}" (use an id from "keys list").`,
    );
  }

  async revoke(idOrPrefix: string): Promise<ApiKeyRecord> {
    const key = await this.resolve(idOrPrefix);
    await this.#store.revokeKey(key.id, new Date(this.#now()).toISOString());
    return (await this.#store.keyById(key.id)) as ApiKeyRecord;
  }

  async topUp(idOrPrefix: string, credits: number): Promise<ApiKeyRecord> {
    if (!Number.isSafeInteger(credits) || credits <= 0)
      throw new AppError('invalid_request', 'a top-up is a whole number of credits above 0.');
    const key = await this.resolve(idOrPrefix);
    if (key.balance === null)
      throw new AppError('invalid_request', `Key ${key.id} is unlimited; there is nothing to top up.`);
    if (key.revokedAt !== undefined)
      throw new AppError('invalid_request', `Key ${key.id} was revoked on ${key.revokedAt}.`);
    return (await this.#store.topUp(key.id, credits)) as ApiKeyRecord;
  }

  async usage(query: { key?: string; since?: string } = {}): Promise<UsageRecord[]> {
    const keyId = query.key === undefined ? undefined : (await this.resolve(query.key)).id;
    return this.#store.usage({ ...(keyId ? { keyId } : {}), ...(query.since ? { since: query.since } : {}) });
  }

  /**
   * The key a presented secret belongs to; `unauthorized` for an unknown or revoked one.
   * The stored hash is compared in constant time, so a lookup leaks no prefix of it.
   */
  async authenticate(secret: string): Promise<ApiKeyRecord> {
    const presented = hashSecret(secret.trim());
    const key = secret.startsWith(KEY_PREFIX) ? await this.#store.keyByHash(presented) : undefined;
    if (!key || !timingSafeEqual(Buffer.from(key.hash, 'hex'), Buffer.from(presented, 'hex'))) {
      throw new AppError('unauthorized', 'The API key is not valid.');
    }
    if (key.revokedAt !== undefined) throw new AppError('unauthorized', 'The API key was revoked.');
    return key;
  }
}
