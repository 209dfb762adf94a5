import Database from 'better-sqlite3';

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

export function isSqliteOutage(err: unknown): boolean {
  if (!(err instanceof Database.SqliteError)) return false;
  return OUTAGE_CODES.some((code) => err.code === code || err.code.startsWith(`${code}_`));
}
