/**
 * The store in one SQLite file (better-sqlite3): the default, for one machine. WAL mode
 * lets the server, CLI runs and desktop clients share the file (readers never wait for
 * the writer; `busy_timeout` queues writers across processes). Each admission and each
 * charge is one IMMEDIATE transaction, taking the write lock at its start so that two
 * processes never interleave inside one.
 */
import { closeSync, mkdirSync, openSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import type { CacheNamespace, CacheStore } from '../core/cache-port.js';
import type { ApiKeyRecord } from '../core/key-store.js';
import type { ChargeInput, ReserveResult, UsagePage, UsageRecord } from '../core/ledger-store.js';
import { usageSubject } from '../core/ledger-store.js';
import type { RateLimitHit } from '../core/rate-window-store.js';
import type { Store } from '../core/store-port.js';
import { balanceTooLarge, MAX_BALANCE } from '../core/pricing.js';
import type { StoredSuspension } from '../core/suspension-store.js';
import { reportingOutages } from './store-outage.js';

const SCHEMA_VERSION = 1;

const SCHEMA = `
CREATE TABLE IF NOT EXISTS cache (
  ns TEXT NOT NULL, key TEXT NOT NULL, value TEXT NOT NULL, expires_at INTEGER NOT NULL,
  PRIMARY KEY (ns, key)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS cache_expiry ON cache (expires_at);
CREATE TABLE IF NOT EXISTS suspensions (engine TEXT PRIMARY KEY, reason TEXT NOT NULL, until INTEGER NOT NULL, cause TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS api_keys (
  id TEXT PRIMARY KEY, name TEXT NOT NULL, hash TEXT NOT NULL UNIQUE, prefix TEXT NOT NULL,
  balance INTEGER, created_at TEXT NOT NULL, revoked_at TEXT
);
CREATE TABLE IF NOT EXISTS holds (
  key_id TEXT NOT NULL, request_id TEXT NOT NULL, credits INTEGER NOT NULL, expires_at INTEGER NOT NULL, owner TEXT,
  PRIMARY KEY (key_id, request_id)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS usage (
  seq INTEGER PRIMARY KEY AUTOINCREMENT, key_id TEXT NOT NULL, operation TEXT NOT NULL,
  credits INTEGER NOT NULL, request_id TEXT NOT NULL, at TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS usage_key ON usage (key_id, seq);
CREATE INDEX IF NOT EXISTS usage_at ON usage (at);
CREATE TABLE IF NOT EXISTS rate_windows (bucket TEXT PRIMARY KEY, window_end INTEGER NOT NULL, count INTEGER NOT NULL) WITHOUT ROWID;
`;

/**
 * SQLite's result codes (and their extended forms, e.g. SQLITE_IOERR_WRITE) that say the
 * file cannot be used now (locked past busy_timeout, unreadable, full, replaced), not
 * that a statement was wrong: https://www.sqlite.org/rescode.html
 */
const OUTAGE_CODES = [
  'SQLITE_BUSY',
  'SQLITE_LOCKED',
  'SQLITE_IOERR',
  'SQLITE_CANTOPEN',
  'SQLITE_READONLY',
  'SQLITE_FULL',
  'SQLITE_CORRUPT',
  'SQLITE_NOTADB',
  'SQLITE_PERM',
  'SQLITE_PROTOCOL',
];

function isSqliteOutage(err: unknown): boolean {
  if (!(err instanceof Database.SqliteError)) return false;
  return OUTAGE_CODES.some((code) => err.code === code || err.code.startsWith(`${code}_`));
}

/** Expired cache rows removed per sweep: bounded work, so a sweep never stalls a request. */
const SWEEP_ROWS = 500;
const SWEEP_INTERVAL_MS = 60_000;

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

interface UsageRow {
  key_id: string;
  operation: 'search' | 'crawl';
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

/**
 * Usage records keep what the request was about in a nullable column added in place: a
 * file written before still opens, and an older version sharing it still writes its rows.
 */
function addUsageSubject(db: Database.Database): void {
  const columns = db.prepare<[], { name: string }>("SELECT name FROM pragma_table_info('usage')").all();
  if (columns.some((c) => c.name === 'subject')) return;
  try {
    db.exec('ALTER TABLE usage ADD COLUMN subject TEXT');
  } catch (err) {
    // Another process opening the same file added it first.
    if (!/duplicate column/i.test((err as Error).message)) throw err;
  }
}

export interface SqliteStoreOptions {
  /** Clock for cache expiry and sweeps (tests). */
  now?: () => number;
}

export class SqliteStore implements Store {
  readonly kind = 'sqlite' as const;
  readonly path: string;
  readonly #db: Database.Database;
  readonly #now: () => number;
  readonly #sweeper: NodeJS.Timeout;
  readonly #statements;
  readonly #reserve;
  readonly #charge;

  /** Opens (creating if needed) the store at `path`, a file or `:memory:`. */
  static open(path: string, options: SqliteStoreOptions = {}): SqliteStore {
    try {
      if (path !== ':memory:') {
        mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
        // Keys' hashes, balances and usage: owner-only. SQLite creates a new file 0644 and gives
        // its -wal and -shm files the database file's mode, so creating it 0600 first covers all three.
        closeSync(openSync(path, 'a', 0o600));
      }
      return reportingOutages(new SqliteStore(new Database(path), path, options), 'SQLite', isSqliteOutage);
    } catch (err) {
      throw new Error(`cannot open the SQLite store at ${path}: ${(err as Error).message}`, { cause: err });
    }
  }

  // TypeScript's `private`: ECMAScript has no private constructor; open() is the way in.
  private constructor(db: Database.Database, path: string, options: SqliteStoreOptions) {
    this.#db = db;
    this.path = path;
    this.#now = options.now ?? Date.now;
    // WAL with synchronous=NORMAL: a commit is in the WAL file before it returns, so an
    // acknowledged charge survives the process being killed; only a power loss may take
    // the last commits (FULL would fsync each one for that, at several times the cost).
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    db.pragma('busy_timeout = 5000');
    const version = db.pragma('user_version', { simple: true }) as number;
    if (version > SCHEMA_VERSION)
      throw new Error(`the store was written by a newer version (schema ${version}, this one knows ${SCHEMA_VERSION})`);
    db.exec(SCHEMA);
    // Files from before holds had owners: a nullable column, which older builds ignore.
    if (!(db.pragma('table_info(holds)') as { name: string }[]).some((c) => c.name === 'owner'))
      db.exec('ALTER TABLE holds ADD COLUMN owner TEXT');
    db.pragma(`user_version = ${SCHEMA_VERSION}`);
    addUsageSubject(db);

    const s = {
      cacheGet: db.prepare<[string, string, number], { value: string }>(
        'SELECT value FROM cache WHERE ns = ? AND key = ? AND expires_at > ?',
      ),
      cacheSet: db.prepare(
        'INSERT INTO cache (ns, key, value, expires_at) VALUES (?, ?, ?, ?) ON CONFLICT (ns, key) DO UPDATE SET value = excluded.value, expires_at = excluded.expires_at',
      ),
      cacheSweep: db.prepare(
        `DELETE FROM cache WHERE (ns, key) IN (SELECT ns, key FROM cache WHERE expires_at <= ? LIMIT ${SWEEP_ROWS})`,
      ),
      windowSweep: db.prepare(
        `DELETE FROM rate_windows WHERE bucket IN (SELECT bucket FROM rate_windows WHERE window_end <= ? LIMIT ${SWEEP_ROWS})`,
      ),
      holdSweep: db.prepare(
        `DELETE FROM holds WHERE (key_id, request_id) IN (SELECT key_id, request_id FROM holds WHERE expires_at <= ? LIMIT ${SWEEP_ROWS})`,
      ),
      suspensionGet: db.prepare<[string, number], { reason: 'blocked' | 'rate_limited'; until: number; cause: string }>(
        'SELECT reason, until, cause FROM suspensions WHERE engine = ? AND until > ?',
      ),
      suspensionPut: db.prepare(
        'INSERT INTO suspensions (engine, reason, until, cause) VALUES (?, ?, ?, ?) ON CONFLICT (engine) DO UPDATE SET reason = excluded.reason, until = excluded.until, cause = excluded.cause WHERE excluded.until > suspensions.until OR suspensions.until <= ?',
      ),
      suspensionClear: db.prepare('DELETE FROM suspensions'),
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
      usagePage: db.prepare<[string, number, number], UsageRow & { seq: number }>(
        'SELECT seq, key_id, operation, credits, request_id, at, subject FROM usage WHERE key_id = ? AND seq < ? ORDER BY seq DESC LIMIT ?',
      ),
      heldCredits: db.prepare<[string, number], { held: number }>(
        'SELECT coalesce(sum(credits), 0) AS held FROM holds WHERE key_id = ? AND expires_at > ?',
      ),
      balance: db.prepare<[string], { balance: number | null }>('SELECT balance FROM api_keys WHERE id = ?'),
      rateHit: db.prepare<[string, number], { count: number; window_end: number }>(
        'INSERT INTO rate_windows (bucket, window_end, count) VALUES (?, ?, 1) ON CONFLICT (bucket) DO UPDATE SET count = CASE WHEN rate_windows.window_end = excluded.window_end THEN rate_windows.count + 1 ELSE 1 END, window_end = excluded.window_end RETURNING count, window_end',
      ),
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

    this.#charge = db.transaction((input: ChargeInput): { balance: number | null } => {
      s.holdDelete.run(input.keyId, input.requestId);
      s.debit.run(input.credits, input.keyId);
      s.usageInsert.run(input.keyId, input.operation, input.credits, input.requestId, input.at, subjectJson(input));
      return { balance: s.balance.get(input.keyId)?.balance ?? null };
    });

    this.#sweep();
    this.#sweeper = setInterval(() => this.#sweep(), SWEEP_INTERVAL_MS);
    this.#sweeper.unref();
  }

  cache<V>(namespace: CacheNamespace): CacheStore<V> {
    const s = this.#statements;
    return {
      get: async (key) => {
        const row = s.cacheGet.get(namespace, key, this.#now());
        return row === undefined ? undefined : (JSON.parse(row.value) as V);
      },
      set: async (key, value, ttlMs) => {
        if (!(ttlMs > 0)) return;
        s.cacheSet.run(namespace, key, JSON.stringify(value), this.#now() + ttlMs);
      },
    };
  }

  async getSuspension(engine: string, now: number): Promise<StoredSuspension | undefined> {
    const row = this.#statements.suspensionGet.get(engine, now);
    return row && { reason: row.reason, until: row.until, cause: row.cause };
  }

  async putSuspension(engine: string, suspension: StoredSuspension, now: number): Promise<void> {
    this.#statements.suspensionPut.run(engine, suspension.reason, suspension.until, suspension.cause, now);
  }

  async clearSuspensions(): Promise<void> {
    this.#statements.suspensionClear.run();
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

  async charge(input: ChargeInput): Promise<{ balance: number | null }> {
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
    const records = rows.slice(0, page.limit).map((r) => ({ ...toUsageRecord(r), seq: r.seq }));
    const last = records[records.length - 1];
    return { records, ...(rows.length > page.limit && last ? { next: last.seq } : {}) };
  }

  async heldCredits(keyId: string, now: number): Promise<number> {
    return this.#statements.heldCredits.get(keyId, now)?.held ?? 0;
  }

  async hitRateLimit(bucket: string, windowMs: number, now: number): Promise<RateLimitHit> {
    const end = now - (now % windowMs) + windowMs;
    const row = this.#statements.rateHit.get(bucket, end) as { count: number; window_end: number };
    return { count: row.count, resetAt: row.window_end };
  }

  async ping(): Promise<void> {
    this.#db.prepare('SELECT 1').get();
  }

  async close(): Promise<void> {
    clearInterval(this.#sweeper);
    if (this.#db.open) this.#db.close();
  }

  /** Drops a bounded batch of expired cache rows, finished rate windows and expired holds. */
  #sweep(): void {
    try {
      const now = this.#now();
      this.#statements.cacheSweep.run(now);
      this.#statements.windowSweep.run(now);
      this.#statements.holdSweep.run(now);
    } catch {
      // A busy or read-only file only delays the clean-up; reads already skip expired rows.
    }
  }
}
