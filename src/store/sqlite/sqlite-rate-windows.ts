import type Database from 'better-sqlite3';
import type { RateLimitHit, RateWindowStore } from '../../core/ports/rate-window-store.js';
import { SWEEP_ROWS } from './sqlite-database.js';

/** Fixed-window counters in the `rate_windows` table, one row per bucket; finished windows are swept. */
export class SqliteRateWindows implements RateWindowStore {
  readonly #statements;

  constructor(db: Database.Database) {
    this.#statements = {
      rateHit: db.prepare<[string, number], { count: number; window_end: number }>(
        'INSERT INTO rate_windows (bucket, window_end, count) VALUES (?, ?, 1) ON CONFLICT (bucket) DO UPDATE SET count = CASE WHEN rate_windows.window_end = excluded.window_end THEN rate_windows.count + 1 ELSE 1 END, window_end = excluded.window_end RETURNING count, window_end',
      ),
      windowSweep: db.prepare(
        `DELETE FROM rate_windows WHERE bucket IN (SELECT bucket FROM rate_windows WHERE window_end <= ? LIMIT ${SWEEP_ROWS})`,
      ),
    };
  }

  async hitRateLimit(bucket: string, windowMs: number, now: number): Promise<RateLimitHit> {
    const end = now - (now % windowMs) + windowMs;
    const row = this.#statements.rateHit.get(bucket, end) as { count: number; window_end: number };
    return { count: row.count, resetAt: row.window_end };
  }

  /** Drops a bounded batch of finished windows. */
  sweep(now: number): void {
    this.#statements.windowSweep.run(now);
  }
}
