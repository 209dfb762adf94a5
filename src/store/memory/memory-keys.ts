import type { ApiKeyRecord, KeyStore } from '../../core/ports/key-store.js';
import { balanceTooLarge, MAX_BALANCE } from '../../core/pricing.js';
import type { MemoryLifetime } from './memory-lifetime.js';

/** API keys by id, in the map the ledger (memory-ledger.ts) debits too. */
export class MemoryKeys implements KeyStore {
  readonly #keys: Map<string, ApiKeyRecord>;
  readonly #lifetime: MemoryLifetime;

  constructor(keys: Map<string, ApiKeyRecord>, lifetime: MemoryLifetime) {
    this.#keys = keys;
    this.#lifetime = lifetime;
  }

  async createKey(record: ApiKeyRecord): Promise<void> {
    this.#lifetime.check();
    if (this.#keys.has(record.id) || [...this.#keys.values()].some((k) => k.hash === record.hash))
      throw new Error(`key ${record.id} exists`);
    this.#keys.set(record.id, { ...record });
  }

  async keyByHash(hash: string): Promise<ApiKeyRecord | undefined> {
    this.#lifetime.check();
    const key = [...this.#keys.values()].find((k) => k.hash === hash);
    return key && { ...key };
  }

  async keyById(id: string): Promise<ApiKeyRecord | undefined> {
    this.#lifetime.check();
    const key = this.#keys.get(id);
    return key && { ...key };
  }

  async listKeys(): Promise<ApiKeyRecord[]> {
    this.#lifetime.check();
    return [...this.#keys.values()]
      .map((k) => ({ ...k }))
      .sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id));
  }

  async keyCount(): Promise<number> {
    this.#lifetime.check();
    return this.#keys.size;
  }

  async revokeKey(id: string, at: string): Promise<boolean> {
    this.#lifetime.check();
    const key = this.#keys.get(id);
    if (!key) return false;
    key.revokedAt ??= at;
    return true;
  }

  async topUp(id: string, credits: number): Promise<ApiKeyRecord | undefined> {
    this.#lifetime.check();
    const key = this.#keys.get(id);
    if (!key) return undefined;
    if (key.balance !== null) {
      if (key.balance > MAX_BALANCE - credits) throw balanceTooLarge(id, key.balance, credits);
      key.balance += credits;
    }
    return { ...key };
  }
}
