/**
 * Holds, charges and usage in the `holds` and `usage` tables, against the balances in
 * `api_keys`. Each admission and each charge is one IMMEDIATE transaction, taking the
 * write lock at its start so that two processes never interleave inside one.
 */
import type Database from 'better-sqlite3';
import type {
  ChargeInput,
  LedgerStore,
  Operation,
  ReserveResult,
  UsagePage,
  UsageRecord,
} from '../../core/ports/ledger-store.js';
import { usageSubject } from '../../core/ports/ledger-store.js';
import { SWEEP_ROWS } from './sqlite-database.js';

interface UsageRow {
  key_id: string;
  operation: Operation;
  credits: number;
  request_id: string;
  at: string;
  subject: string | null;
}

function toUsageRecord(row: UsageRow): UsageRecord {
  return {
    keyId: row.key_id,
    operation: row.operation,
    credits: row.credits,
    requestId: row.request_id,
    at: row.at,
    ...(row.subject === null ? {} : usageSubject(JSON.parse(row.subject) as Pick<UsageRecord, 'urls' | 'query'>)),
  };
}

/** The URLs or query of a charge as stored in `usage.subject` (JSON), or null. */
function subjectJson(input: ChargeInput): string | null {
  const subject = usageSubject(input);
  return Object.keys(subject).length > 0 ? JSON.stringify(subject) : null;
}

export class SqliteLedger implements LedgerStore {
  readonly #db: Database.Database;
  readonly #statements;
  readonly #reserve;
  readonly #charge;

  constructor(db: Database.Database) {
    this.#db = db;
    const s = {
      keyById: db.prepare<[string], { balance: number | null; revoked_at: string | null }>(
        'SELECT * FROM api_keys WHERE id = ?',
      ),
      holdSweep: db.prepare(
        `DELETE FROM holds WHERE (key_id, request_id) IN (SELECT key_id, request_id FROM holds WHERE expires_at <= ? LIMIT ${SWEEP_ROWS})`,
      ),
      holdsPurge: db.prepare('DELETE FROM holds WHERE key_id = ? AND expires_at <= ?'),
      holdsSum: db.prepare<[string], { held: number }>(
        'SELECT coalesce(sum(credits), 0) AS held FROM holds WHERE key_id = ?',
      ),
      holdInsert: db.prepare(
        'INSERT OR REPLACE INTO holds (key_id, request_id, credits, expires_at, owner) VALUES (?, ?, ?, ?, ?)',
      ),
      holdsOfOwner: db.prepare('DELETE FROM holds WHERE owner = ?'),
      holdDelete: db.prepare('DELETE FROM holds WHERE key_id = ? AND request_id = ?'),
      debit: db.prepare('UPDATE api_keys SET balance = balance - ? WHERE id = ? AND balance IS NOT NULL'),
      usageInsert: db.prepare(
        'INSERT INTO usage (key_id, operation, credits, request_id, at, subject) VALUES (?, ?, ?, ?, ?, ?)',
      ),
      // key_seq: the record's place among its key's own (sqlite-database.ts), not the global seq.
      usagePage: db.prepare<[string, number, number], UsageRow & { key_seq: number }>(
        'SELECT key_seq, key_id, operation, credits, request_id, at, subject FROM usage WHERE key_id = ? AND key_seq < ? ORDER BY key_seq DESC LIMIT ?',
      ),
      heldCredits: db.prepare<[string, number], { held: number }>(
        'SELECT coalesce(sum(credits), 0) AS held FROM holds WHERE key_id = ? AND expires_at > ?',
      ),
      balance: db.prepare<[string], { balance: number | null }>('SELECT balance FROM api_keys WHERE id = ?'),
    };
    this.#statements = s;

    this.#reserve = db.transaction(
      (
        keyId: string,
        requestId: string,
        maxCredits: number,
        holdMs: number,
        now: number,
        owner: string | null,
      ): ReserveResult => {
        const key = s.keyById.get(keyId);
        if (!key) return { ok: false, reason: 'unknown_key' };
        if (key.revoked_at !== null) return { ok: false, reason: 'revoked' };
        s.holdsPurge.run(keyId, now);
        if (key.balance !== null) {
          const available = key.balance - (s.holdsSum.get(keyId)?.held ?? 0);
          if (available < maxCredits || available <= 0)
            return { ok: false, reason: 'insufficient_credits', balance: key.balance, available };
        }
        s.holdInsert.run(keyId, requestId, maxCredits, now + holdMs, owner);
        return { ok: true, balance: key.balance };
      },
    );

    this.#charge = db.transaction((input: ChargeInput): { balance: number | null; charged: boolean } => {
      const dropped = s.holdDelete.run(input.keyId, input.holdId ?? input.requestId).changes;
      if (input.onlyIfHeld === true && dropped === 0)
        return { balance: s.balance.get(input.keyId)?.balance ?? null, charged: false };
      s.debit.run(input.credits, input.keyId);
      s.usageInsert.run(input.keyId, input.operation, input.credits, input.requestId, input.at, subjectJson(input));
      return { balance: s.balance.get(input.keyId)?.balance ?? null, charged: true };
    });
  }

  async reserve(
    keyId: string,
    requestId: string,
    maxCredits: number,
    holdMs: number,
    now: number,
    owner?: string,
  ): Promise<ReserveResult> {
    return this.#reserve.immediate(keyId, requestId, maxCredits, holdMs, now, owner ?? null);
  }

  async releaseOwned(owner: string): Promise<number> {
    return this.#statements.holdsOfOwner.run(owner).changes;
  }

  async charge(input: ChargeInput): Promise<{ balance: number | null; charged: boolean }> {
    return this.#charge.immediate(input);
  }

  async release(keyId: string, requestId: string): Promise<void> {
    this.#statements.holdDelete.run(keyId, requestId);
  }

  async usage(query: { keyId?: string; since?: string } = {}): Promise<UsageRecord[]> {
    const where: string[] = [];
    const params: string[] = [];
    if (query.keyId !== undefined) {
      where.push('key_id = ?');
      params.push(query.keyId);
    }
    if (query.since !== undefined) {
      where.push('at >= ?');
      params.push(query.since);
    }
    const sql = `SELECT key_id, operation, credits, request_id, at, subject FROM usage ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY seq`;
    return this.#db
      .prepare<string[], UsageRow>(sql)
      .all(...params)
      .map(toUsageRecord);
  }

  async usagePage(keyId: string, page: { limit: number; before?: number }): Promise<UsagePage> {
    // One row past the page tells whether an older page exists.
    const rows = this.#statements.usagePage.all(keyId, page.before ?? Number.MAX_SAFE_INTEGER, page.limit + 1);
    const records = rows.slice(0, page.limit).map((r) => ({ ...toUsageRecord(r), seq: r.key_seq }));
    const last = records[records.length - 1];
    return { records, ...(rows.length > page.limit && last ? { next: last.seq } : {}) };
  }

  async heldCredits(keyId: string, now: number): Promise<number> {
    return this.#statements.heldCredits.get(keyId, now)?.held ?? 0;
  }

  /** Drops a bounded batch of expired holds. */
  sweep(now: number): void {
    this.#statements.holdSweep.run(now);
  }
}
