/**
 * The SQLite store's file: opened in WAL mode (readers never wait for the writer;
 * `busy_timeout` queues writers across processes), its schema created and migrated in
 * place. Every port of the SQLite store prepares its statements on this one database.
 */
import { closeSync, mkdirSync, openSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';

// Bumped only for a change older builds cannot live with: what they ignore (the nullable
// holds.owner and usage.subject, the site_* tables) is added in place, and they keep opening the file.
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
CREATE TABLE IF NOT EXISTS site_jobs (
  id TEXT PRIMARY KEY, key_id TEXT, status TEXT NOT NULL, request TEXT NOT NULL, stop_reason TEXT, error TEXT,
  created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL, deadline INTEGER NOT NULL, expires_at INTEGER,
  owner TEXT, lease_until INTEGER, counts TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS site_jobs_running ON site_jobs (status, key_id);
CREATE INDEX IF NOT EXISTS site_jobs_done ON site_jobs (status, expires_at);
CREATE TABLE IF NOT EXISTS site_frontier (
  job_id TEXT NOT NULL, seq INTEGER NOT NULL, url TEXT NOT NULL, depth INTEGER NOT NULL, parent TEXT, anchor TEXT,
  priority REAL NOT NULL, state TEXT NOT NULL,
  PRIMARY KEY (job_id, seq)
) WITHOUT ROWID;
CREATE UNIQUE INDEX IF NOT EXISTS site_frontier_url ON site_frontier (job_id, url);
CREATE INDEX IF NOT EXISTS site_frontier_queue ON site_frontier (job_id, state, priority DESC, seq);
CREATE TABLE IF NOT EXISTS site_results (
  job_id TEXT NOT NULL, seq INTEGER NOT NULL, entry_seq INTEGER NOT NULL, page TEXT NOT NULL,
  credits INTEGER NOT NULL, charged INTEGER NOT NULL, fingerprint TEXT,
  PRIMARY KEY (job_id, seq)
) WITHOUT ROWID;
`;

/** Expired rows removed per sweep of a table: bounded work, so a sweep never stalls a request. */
export const SWEEP_ROWS = 500;

/** How long a statement waits for another process's write lock unless told (WEBSEARCH_STORE_TIMEOUT_MS). */
export const DEFAULT_BUSY_TIMEOUT_MS = 5_000;

/**
 * Opens (creating if needed) the database at `path`, a file or `:memory:`, with its schema
 * current. `busyTimeoutMs`: how long a statement waits for a lock another process holds
 * before failing with SQLITE_BUSY (store_unavailable); it waits on this thread, so it is
 * also how long a locked file can stall the server.
 */
export function openSqliteDatabase(path: string, busyTimeoutMs = DEFAULT_BUSY_TIMEOUT_MS): Database.Database {
  if (path !== ':memory:') {
    mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
    // Keys' hashes, balances and usage: owner-only. SQLite creates a new file 0644 and gives
    // its -wal and -shm files the database file's mode, so creating it 0600 first covers all three.
    closeSync(openSync(path, 'a', 0o600));
  }
  const db = new Database(path);
  // WAL with synchronous=NORMAL: a commit is in the WAL file before it returns, so an
  // acknowledged charge survives the process being killed; only a power loss may take
  // the last commits (FULL would fsync each one for that, at several times the cost).
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma(`busy_timeout = ${Math.max(0, Math.floor(busyTimeoutMs))}`);
  const version = db.pragma('user_version', { simple: true }) as number;
  if (version > SCHEMA_VERSION)
    throw new Error(`the store was written by a newer version (schema ${version}, this one knows ${SCHEMA_VERSION})`);
  db.exec(SCHEMA);
  // Files from before holds had owners: a nullable column, which older builds ignore.
  if (!(db.pragma('table_info(holds)') as { name: string }[]).some((c) => c.name === 'owner'))
    db.exec('ALTER TABLE holds ADD COLUMN owner TEXT');
  db.pragma(`user_version = ${SCHEMA_VERSION}`);
  addUsageSubject(db);
  addUsageKeySeq(db);
  return db;
}

/**
 * Each usage record's place in its key's own order (`key_seq`: 1, 2, ...), the position a
 * GET /api/usage cursor carries: the global `seq` would show, by its gaps, how many records
 * other keys wrote in between. A trigger numbers every row as it is inserted, an older
 * version's INSERT (which names no key_seq) too; the rows written before are numbered
 * once, here, in one write transaction, so two processes opening the file do it once.
 */
function addUsageKeySeq(db: Database.Database): void {
  const numbered = () =>
    db
      .prepare<[], { name: string }>("SELECT name FROM pragma_table_info('usage')")
      .all()
      .some((c) => c.name === 'key_seq');
  if (numbered()) return;
  db.transaction(() => {
    if (numbered()) return;
    db.exec(`
      ALTER TABLE usage ADD COLUMN key_seq INTEGER;
      CREATE TEMP TABLE usage_numbered (seq INTEGER PRIMARY KEY, n INTEGER NOT NULL);
      INSERT INTO usage_numbered SELECT seq, row_number() OVER (PARTITION BY key_id ORDER BY seq) FROM usage;
      UPDATE usage SET key_seq = (SELECT n FROM usage_numbered WHERE usage_numbered.seq = usage.seq);
      DROP TABLE usage_numbered;
      CREATE INDEX IF NOT EXISTS usage_key_seq ON usage (key_id, key_seq);
      CREATE TRIGGER IF NOT EXISTS usage_number_per_key AFTER INSERT ON usage WHEN NEW.key_seq IS NULL
      BEGIN
        UPDATE usage SET key_seq = (SELECT coalesce(max(key_seq), 0) + 1 FROM usage WHERE key_id = NEW.key_id)
        WHERE seq = NEW.seq;
      END;
    `);
  }).immediate();
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
