import type Database from 'better-sqlite3';
import type { ApiKeyRecord, KeyStore } from '../../core/ports/key-store.js';
import { balanceTooLarge, MAX_BALANCE } from '../../core/pricing.js';

interface KeyRow {
  id: string;
  name: string;
  hash: string;
  prefix: string;
  balance: number | null;
  created_at: string;
  revoked_at: string | null;
}

function toRecord(row: KeyRow): ApiKeyRecord {
  return {
    id: row.id,
    name: row.name,
    hash: row.hash,
    prefix: row.prefix,
    balance: row.balance,
    createdAt: row.created_at,
    ...(row.revoked_at !== null ? { revokedAt: row.revoked_at } : {}),
  };
}

/** API keys in the `api_keys` table; the ledger (sqlite-ledger.ts) moves their balances. */
export class SqliteKeys implements KeyStore {
  readonly #statements;

  constructor(db: Database.Database) {
    this.#statements = {
      keyInsert: db.prepare(
        'INSERT INTO api_keys (id, name, hash, prefix, balance, created_at, revoked_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
      ),
      keyByHash: db.prepare<[string], KeyRow>('SELECT * FROM api_keys WHERE hash = ?'),
      keyById: db.prepare<[string], KeyRow>('SELECT * FROM api_keys WHERE id = ?'),
      keyList: db.prepare<[], KeyRow>('SELECT * FROM api_keys ORDER BY created_at, id'),
      keyCount: db.prepare<[], { n: number }>('SELECT count(*) AS n FROM api_keys'),
      keyRevoke: db.prepare('UPDATE api_keys SET revoked_at = coalesce(revoked_at, ?) WHERE id = ?'),
      keyTopUp: db.prepare(
        'UPDATE api_keys SET balance = balance + @credits WHERE id = @id AND balance IS NOT NULL AND balance <= @max - @credits',
      ),
    };
  }

  async createKey(record: ApiKeyRecord): Promise<void> {
    this.#statements.keyInsert.run(
      record.id,
      record.name,
      record.hash,
      record.prefix,
      record.balance,
      record.createdAt,
      record.revokedAt ?? null,
    );
  }

  async keyByHash(hash: string): Promise<ApiKeyRecord | undefined> {
    const row = this.#statements.keyByHash.get(hash);
    return row && toRecord(row);
  }

  async keyById(id: string): Promise<ApiKeyRecord | undefined> {
    const row = this.#statements.keyById.get(id);
    return row && toRecord(row);
  }

  async listKeys(): Promise<ApiKeyRecord[]> {
    return this.#statements.keyList.all().map(toRecord);
  }

  async keyCount(): Promise<number> {
    return this.#statements.keyCount.get()?.n ?? 0;
  }

  async revokeKey(id: string, at: string): Promise<boolean> {
    return this.#statements.keyRevoke.run(at, id).changes > 0;
  }

  async topUp(id: string, credits: number): Promise<ApiKeyRecord | undefined> {
    const changed = this.#statements.keyTopUp.run({ credits, id, max: MAX_BALANCE }).changes;
    const key = await this.keyById(id);
    if (changed === 0 && key !== undefined && key.balance !== null) throw balanceTooLarge(id, key.balance, credits);
    return key;
  }
}
