import type Database from 'better-sqlite3';
import type { StoredSuspension, SuspensionStore } from '../../core/ports/suspension-store.js';

/** Engine suspensions in the `suspensions` table, one row per engine. */
export class SqliteSuspensions implements SuspensionStore {
  readonly #statements;

  constructor(db: Database.Database) {
    this.#statements = {
      suspensionGet: db.prepare<[string, number], { reason: 'blocked' | 'rate_limited'; until: number; cause: string }>(
        'SELECT reason, until, cause FROM suspensions WHERE engine = ? AND until > ?',
      ),
      suspensionPut: db.prepare(
        'INSERT INTO suspensions (engine, reason, until, cause) VALUES (?, ?, ?, ?) ON CONFLICT (engine) DO UPDATE SET reason = excluded.reason, until = excluded.until, cause = excluded.cause WHERE excluded.until > suspensions.until OR suspensions.until <= ?',
      ),
      suspensionClear: db.prepare('DELETE FROM suspensions'),
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
}
