/**
 * The store in one SQLite file (better-sqlite3): the default, for one machine. WAL mode
 * lets the server, CLI runs and desktop clients share the file (sqlite/sqlite-database.ts);
 * one object per port (sqlite/), all on the one database, since a charge moves a key's
 * balance in the same transaction that records its usage.
 */
import type Database from 'better-sqlite3';
import { ComposedStore } from './composed-store.js';
import { InProcessHostGate } from './in-process-host-gate.js';
import { SqliteCache } from './sqlite/sqlite-cache.js';
import { openSqliteDatabase } from './sqlite/sqlite-database.js';
import { SqliteKeys } from './sqlite/sqlite-keys.js';
import { SqliteLedger } from './sqlite/sqlite-ledger.js';
import { isSqliteOutage } from './sqlite/sqlite-outage.js';
import { SqliteRateWindows } from './sqlite/sqlite-rate-windows.js';
import { SqliteSiteJobs } from './sqlite/sqlite-site-jobs.js';
import { SqliteSuspensions } from './sqlite/sqlite-suspensions.js';
import { reportingOutages } from './store-outage.js';

const SWEEP_INTERVAL_MS = 60_000;

export interface SqliteStoreOptions {
  /** Clock for cache expiry and sweeps (tests). */
  now?: () => number;
  /** How long a statement waits for another process's lock (busy_timeout; WEBSEARCH_STORE_TIMEOUT_MS). */
  timeoutMs?: number;
}

export class SqliteStore extends ComposedStore {
  readonly kind = 'sqlite' as const;
  readonly path: string;
  readonly #db: Database.Database;
  readonly #now: () => number;
  readonly #sweeper: NodeJS.Timeout;
  readonly #cache: SqliteCache;
  readonly #rateWindows: SqliteRateWindows;
  readonly #ledger: SqliteLedger;

  /** Opens (creating if needed) the store at `path`, a file or `:memory:`. */
  static open(path: string, options: SqliteStoreOptions = {}): SqliteStore {
    try {
      // No per-call timer: better-sqlite3 is synchronous, so busy_timeout is the one bound.
      const db = openSqliteDatabase(path, options.timeoutMs);
      return reportingOutages(new SqliteStore(db, path, options), 'SQLite', isSqliteOutage);
    } catch (err) {
      throw new Error(`cannot open the SQLite store at ${path}: ${(err as Error).message}`, { cause: err });
    }
  }

  // TypeScript's `private`: ECMAScript has no private constructor; open() is the way in.
  private constructor(db: Database.Database, path: string, options: SqliteStoreOptions) {
    const now = options.now ?? Date.now;
    const cache = new SqliteCache(db, now);
    const rateWindows = new SqliteRateWindows(db);
    const ledger = new SqliteLedger(db);
    super({
      cache,
      suspensions: new SqliteSuspensions(db),
      keys: new SqliteKeys(db),
      ledger,
      rateWindows,
      siteJobs: new SqliteSiteJobs(db),
      // One process: servers sharing the file are each polite on their own (Redis for a fleet).
      hostGate: new InProcessHostGate(),
    });
    this.#db = db;
    this.path = path;
    this.#now = now;
    this.#cache = cache;
    this.#rateWindows = rateWindows;
    this.#ledger = ledger;
    this.#sweep();
    this.#sweeper = setInterval(() => this.#sweep(), SWEEP_INTERVAL_MS);
    this.#sweeper.unref();
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
      this.#cache.sweep(now);
      this.#rateWindows.sweep(now);
      this.#ledger.sweep(now);
    } catch {
      // A busy or read-only file only delays the clean-up; reads already skip expired rows.
    }
  }
}
