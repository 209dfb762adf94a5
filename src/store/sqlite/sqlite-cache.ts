import type Database from 'better-sqlite3';
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { CacheNamespace, CacheStore, CacheStores } from '../../core/ports/cache-port.js';
import { SWEEP_ROWS } from './sqlite-database.js';

/**
 * The caches in the `cache` table, one namespace per view; expired rows are skipped, then swept.
 * better-sqlite3 reads on this thread, and a page's value can be megabytes: calls run one at a
 * time with a turn of the event loop before each, so that forty of them queued at once let
 * other sockets in between rather than holding the thread for all forty.
 */
export class SqliteCache implements CacheStores {
  readonly #now: () => number;
  readonly #statements;
  #last: Promise<unknown> = Promise.resolve();

  constructor(db: Database.Database, now: () => number) {
    this.#now = now;
    this.#statements = {
      cacheGet: db.prepare<[string, string, number], { value: string }>(
        'SELECT value FROM cache WHERE ns = ? AND key = ? AND expires_at > ?',
      ),
      cacheSet: db.prepare(
        'INSERT INTO cache (ns, key, value, expires_at) VALUES (?, ?, ?, ?) ON CONFLICT (ns, key) DO UPDATE SET value = excluded.value, expires_at = excluded.expires_at',
      ),
      cacheSweep: db.prepare(
        `DELETE FROM cache WHERE (ns, key) IN (SELECT ns, key FROM cache WHERE expires_at <= ? LIMIT ${SWEEP_ROWS})`,
      ),
    };
  }

  cache<V>(namespace: CacheNamespace): CacheStore<V> {
    const s = this.#statements;
    return {
      get: (key) =>
        this.#inTurn(() => {
          const row = s.cacheGet.get(namespace, key, this.#now());
          return row === undefined ? undefined : (JSON.parse(row.value) as V);
        }),
      set: async (key, value, ttlMs) => {
        if (!(ttlMs > 0)) return;
        await this.#inTurn(() => s.cacheSet.run(namespace, key, JSON.stringify(value), this.#now() + ttlMs));
      },
    };
  }

  /** `work` after every call queued before it has ended, and a turn of the event loop after that. */
  #inTurn<T>(work: () => T): Promise<T> {
    const run = this.#last.then(() => nextTurn()).then(work);
    this.#last = run.catch(() => undefined);
    return run;
  }

  /** Drops a bounded batch of expired entries. */
  sweep(now: number): void {
    this.#statements.cacheSweep.run(now);
  }
}
