/**
 * Site crawl jobs in three tables of the shared database: `site_jobs` (the job, its counts
 * as JSON), `site_frontier` (every URL a job ever queued, and its aliases, state `alias`:
 * the frontier is the visited set) and `site_results`. Each write is one IMMEDIATE
 * transaction, so a process killed at any point leaves each step done or not done.
 */
import type Database from 'better-sqlite3';
import type {
  EntryCompletion,
  FrontierEntry,
  FrontierState,
  LeasedEntry,
  SiteJob,
  SiteJobCounts,
  SiteJobResult,
  SiteJobStopReason,
  SiteJobStore,
} from '../../core/ports/site-job-store.js';

interface JobRow {
  id: string;
  key_id: string | null;
  status: 'running' | 'done';
  request: string;
  stop_reason: string | null;
  error: string | null;
  created_at: number;
  updated_at: number;
  deadline: number;
  expires_at: number | null;
  owner: string | null;
  lease_until: number | null;
  counts: string;
}

interface EntryRow {
  seq: number;
  url: string;
  depth: number;
  parent: string | null;
  anchor: string | null;
  priority: number;
}

interface ResultRow {
  seq: number;
  entry_seq: number;
  page: string;
  credits: number;
  charged: number;
}

function toJob(row: JobRow): SiteJob {
  return {
    id: row.id,
    keyId: row.key_id,
    request: JSON.parse(row.request) as unknown,
    status: row.status,
    ...(row.stop_reason !== null ? { stopReason: row.stop_reason as SiteJobStopReason } : {}),
    ...(row.error !== null ? { error: JSON.parse(row.error) as { code: string; message: string } } : {}),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    deadline: row.deadline,
    ...(row.expires_at !== null ? { expiresAt: row.expires_at } : {}),
    ...(row.owner !== null ? { owner: row.owner } : {}),
    ...(row.lease_until !== null ? { leaseUntil: row.lease_until } : {}),
    counts: JSON.parse(row.counts) as SiteJobCounts,
  };
}

function toEntry(row: EntryRow): LeasedEntry {
  return {
    seq: row.seq,
    url: row.url,
    depth: row.depth,
    priority: row.priority,
    ...(row.parent !== null ? { parent: row.parent } : {}),
    ...(row.anchor !== null ? { anchor: row.anchor } : {}),
  };
}

/** The results a job has delivered so far (0 for a job that is gone). */
function resultCount(row: { counts: string } | undefined): number {
  return row === undefined ? 0 : ((JSON.parse(row.counts) as SiteJobCounts).results ?? 0);
}

function toResult(row: ResultRow): SiteJobResult {
  return {
    seq: row.seq,
    entrySeq: row.entry_seq,
    page: JSON.parse(row.page) as unknown,
    credits: row.credits,
    charged: row.charged === 1,
  };
}

export class SqliteSiteJobs implements SiteJobStore {
  readonly #db: Database.Database;
  readonly #s;
  readonly #enqueue;
  readonly #lease;
  readonly #complete;
  readonly #claim;
  readonly #live;
  readonly #leaseEntry;
  readonly #markCharged;
  readonly #deleteExpired;

  constructor(db: Database.Database) {
    this.#db = db;
    const s = {
      job: db.prepare<[string], JobRow>('SELECT * FROM site_jobs WHERE id = ?'),
      insertJob: db.prepare(
        `INSERT INTO site_jobs (id, key_id, status, request, stop_reason, error, created_at, updated_at, deadline,
           expires_at, owner, lease_until, counts)
         VALUES (@id, @key_id, @status, @request, @stop_reason, @error, @created_at, @updated_at, @deadline,
           @expires_at, @owner, @lease_until, @counts)`,
      ),
      counts: db.prepare<[string], { counts: string }>('SELECT counts FROM site_jobs WHERE id = ?'),
      // updated_at follows the job's writes while it runs; a done job's stays when it ended.
      setCounts: db.prepare(
        "UPDATE site_jobs SET counts = ?, updated_at = CASE status WHEN 'running' THEN ? ELSE updated_at END WHERE id = ?",
      ),
      nextSeq: db.prepare<[string], { seq: number }>(
        'SELECT coalesce(max(seq), 0) + 1 AS seq FROM site_frontier WHERE job_id = ?',
      ),
      insertEntry: db.prepare(
        `INSERT OR IGNORE INTO site_frontier (job_id, seq, url, depth, parent, anchor, priority, state)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
      ),
      hasUrl: db.prepare<[string, string], { one: number }>(
        'SELECT 1 AS one FROM site_frontier WHERE job_id = ? AND url = ?',
      ),
      queued: db.prepare<[string, number], EntryRow>(
        `SELECT seq, url, depth, parent, anchor, priority FROM site_frontier
         WHERE job_id = ? AND state = 'queued' ORDER BY priority DESC, seq ASC LIMIT ?`,
      ),
      setState: db.prepare('UPDATE site_frontier SET state = ? WHERE job_id = ? AND seq = ? AND state = ?'),
      entryIn: db.prepare<[string, number, string], EntryRow>(
        'SELECT seq, url, depth, parent, anchor, priority FROM site_frontier WHERE job_id = ? AND seq = ? AND state = ?',
      ),
      leased: db.prepare<[string], EntryRow>(
        "SELECT seq, url, depth, parent, anchor, priority FROM site_frontier WHERE job_id = ? AND state = 'leased' ORDER BY seq",
      ),
      unfinished: db.prepare<[string], EntryRow>(
        `SELECT seq, url, depth, parent, anchor, priority FROM site_frontier
         WHERE job_id = ? AND state IN ('queued', 'leased') ORDER BY seq`,
      ),
      requeue: db.prepare("UPDATE site_frontier SET state = 'queued' WHERE job_id = ? AND state = 'leased'"),
      frontierCounts: db.prepare<[string], { state: string; n: number }>(
        'SELECT state, count(*) AS n FROM site_frontier WHERE job_id = ? GROUP BY state',
      ),
      nextResult: db.prepare<[string], { seq: number }>(
        'SELECT coalesce(max(seq), 0) + 1 AS seq FROM site_results WHERE job_id = ?',
      ),
      insertResult: db.prepare(
        'INSERT INTO site_results (job_id, seq, entry_seq, page, credits, charged, fingerprint) VALUES (?, ?, ?, ?, ?, 0, ?)',
      ),
      result: db.prepare<[string, number], ResultRow>(
        'SELECT seq, entry_seq, page, credits, charged FROM site_results WHERE job_id = ? AND seq = ?',
      ),
      setCharged: db.prepare('UPDATE site_results SET charged = 1 WHERE job_id = ? AND seq = ? AND charged = 0'),
      uncharged: db.prepare<[string], ResultRow>(
        'SELECT seq, entry_seq, page, credits, charged FROM site_results WHERE job_id = ? AND charged = 0 ORDER BY seq',
      ),
      results: db.prepare<[string, number, number], ResultRow>(
        'SELECT seq, entry_seq, page, credits, charged FROM site_results WHERE job_id = ? AND seq > ? ORDER BY seq LIMIT ?',
      ),
      fingerprints: db.prepare<[string, number], { fingerprint: string }>(
        'SELECT fingerprint FROM site_results WHERE job_id = ? AND fingerprint IS NOT NULL ORDER BY seq LIMIT -1 OFFSET ?',
      ),
      running: db.prepare<[number], { key_id: string | null; n: number }>(
        "SELECT key_id, count(*) AS n FROM site_jobs WHERE status = 'running' AND lease_until > ? GROUP BY key_id",
      ),
      claimable: db.prepare<[string, number], JobRow>(
        "SELECT * FROM site_jobs WHERE status = 'running' AND (owner = ? OR lease_until IS NULL OR lease_until <= ?)",
      ),
      runningJobs: db.prepare<[], JobRow>("SELECT * FROM site_jobs WHERE status = 'running'"),
      setLease: db.prepare('UPDATE site_jobs SET owner = ?, lease_until = ? WHERE id = ?'),
      renew: db.prepare("UPDATE site_jobs SET lease_until = ? WHERE id = ? AND owner = ? AND status = 'running'"),
      finish: db.prepare(
        `UPDATE site_jobs SET status = 'done', stop_reason = ?, error = ?, updated_at = ?, expires_at = ?
         WHERE id = ? AND status = 'running'`,
      ),
      expired: db.prepare<[number], { id: string }>(
        "SELECT id FROM site_jobs WHERE status = 'done' AND expires_at <= ? LIMIT 100",
      ),
      deleteJob: db.prepare('DELETE FROM site_jobs WHERE id = ?'),
      deleteFrontier: db.prepare('DELETE FROM site_frontier WHERE job_id = ?'),
      deleteResults: db.prepare('DELETE FROM site_results WHERE job_id = ?'),
    };
    this.#s = s;

    const addCounts = (jobId: string, delta: Partial<SiteJobCounts>, at: number): void => {
      const row = s.counts.get(jobId);
      if (row === undefined) return;
      const counts = JSON.parse(row.counts) as SiteJobCounts;
      for (const [name, value] of Object.entries(delta) as [keyof SiteJobCounts, number][])
        counts[name] = (counts[name] ?? 0) + value;
      s.setCounts.run(JSON.stringify(counts), at, jobId);
    };

    this.#enqueue = db.transaction((jobId: string, entries: FrontierEntry[], at: number) => {
      // A job deleted meanwhile (retention) takes nothing: no rows would ever delete them.
      if (s.counts.get(jobId) === undefined) return [];
      let seq = s.nextSeq.get(jobId)?.seq ?? 1;
      const added: LeasedEntry[] = [];
      for (const e of entries) {
        const inserted = s.insertEntry.run(
          jobId,
          seq,
          e.url,
          e.depth,
          e.parent ?? null,
          e.anchor ?? null,
          e.priority,
          'queued',
        );
        if (inserted.changes === 1) {
          added.push({ ...e, seq });
          seq += 1;
        }
      }
      if (added.length > 0) addCounts(jobId, { discovered: added.length }, at);
      return added;
    });
    this.#lease = db.transaction((jobId: string, n: number) => {
      const rows = s.queued.all(jobId, n);
      for (const row of rows) s.setState.run('leased', jobId, row.seq, 'queued');
      return rows.map(toEntry);
    });
    this.#leaseEntry = db.transaction((jobId: string, seq: number): LeasedEntry | undefined => {
      s.setState.run('leased', jobId, seq, 'queued');
      const row = s.entryIn.get(jobId, seq, 'leased');
      return row === undefined ? undefined : toEntry(row);
    });
    this.#complete = db.transaction((jobId: string, entrySeq: number, c: EntryCompletion): number | undefined => {
      if (s.setState.run('done', jobId, entrySeq, 'leased').changes === 0) return undefined;
      const at = Date.now();
      if (c.aliases !== undefined && c.aliases.length > 0) {
        let seq = s.nextSeq.get(jobId)?.seq ?? 1;
        for (const url of c.aliases) {
          if (s.insertEntry.run(jobId, seq, url, 0, null, null, 0, 'alias').changes === 1) seq += 1;
        }
      }
      let resultSeq: number | undefined;
      const delta: Partial<SiteJobCounts> = { ...c.counts };
      // Past the job's limit of results the entry ends as one without a result.
      const full = c.maxResults !== undefined && resultCount(s.counts.get(jobId)) >= c.maxResults;
      if (c.result !== undefined && !full) {
        resultSeq = s.nextResult.get(jobId)?.seq ?? 1;
        s.insertResult.run(
          jobId,
          resultSeq,
          entrySeq,
          JSON.stringify(c.result.page),
          c.result.credits,
          c.fingerprint ?? null,
        );
        delta.results = 1;
        if (c.result.succeeded) delta.succeeded = 1;
        else delta.failed = 1;
      }
      addCounts(jobId, delta, at);
      return resultSeq;
    });
    this.#claim = db.transaction((owner: string, now: number, leaseMs: number) => {
      const rows = s.claimable.all(owner, now);
      for (const row of rows) s.setLease.run(owner, now + leaseMs, row.id);
      return rows.map((row) => toJob({ ...row, owner, lease_until: now + leaseMs }));
    });
    this.#live = db.transaction((owner: string, until: number) => {
      const rows = s.runningJobs.all();
      for (const row of rows) s.setLease.run(owner, until, row.id);
      return rows.map((row) => toJob({ ...row, owner, lease_until: until }));
    });
    this.#markCharged = db.transaction((jobId: string, resultSeq: number) => {
      const row = s.result.get(jobId, resultSeq);
      if (row === undefined || row.charged === 1) return;
      s.setCharged.run(jobId, resultSeq);
      addCounts(jobId, { credits_used: row.credits }, Date.now());
    });
    this.#deleteExpired = db.transaction((now: number) => {
      const ids = s.expired.all(now).map((r) => r.id);
      for (const id of ids) {
        s.deleteResults.run(id);
        s.deleteFrontier.run(id);
        s.deleteJob.run(id);
      }
      return ids.length;
    });
  }

  async createJob(job: SiteJob, seeds: FrontierEntry[]): Promise<void> {
    this.#db
      .transaction(() => {
        this.#s.insertJob.run({
          id: job.id,
          key_id: job.keyId,
          status: job.status,
          request: JSON.stringify(job.request),
          stop_reason: job.stopReason ?? null,
          error: job.error === undefined ? null : JSON.stringify(job.error),
          created_at: job.createdAt,
          updated_at: job.updatedAt,
          deadline: job.deadline,
          expires_at: job.expiresAt ?? null,
          owner: job.owner ?? null,
          lease_until: job.leaseUntil ?? null,
          counts: JSON.stringify(job.counts),
        });
        // The seeds are part of the job as created: its updatedAt stays.
        this.#enqueue(job.id, seeds, job.updatedAt);
      })
      .immediate();
  }

  async getJob(id: string): Promise<SiteJob | undefined> {
    const row = this.#s.job.get(id);
    return row === undefined ? undefined : toJob(row);
  }

  async countRunning(keyId: string | null, now: number): Promise<{ key: number; total: number }> {
    let key = 0;
    let total = 0;
    for (const row of this.#s.running.all(now)) {
      total += row.n;
      if (row.key_id === keyId) key += row.n;
    }
    return { key, total };
  }

  async claimJobs(owner: string, now: number, leaseMs: number): Promise<SiteJob[]> {
    return this.#claim.immediate(owner, now, leaseMs);
  }

  async liveJobs(owner: string, now: number, leaseMs: number): Promise<SiteJob[]> {
    return this.#live.immediate(owner, now + leaseMs);
  }

  async renewLeases(owner: string, ids: string[], until: number): Promise<string[]> {
    return this.#db
      .transaction(() => ids.filter((id) => this.#s.renew.run(until, id, owner).changes === 1))
      .immediate();
  }

  async finishJob(
    id: string,
    end: { stopReason: SiteJobStopReason; error?: { code: string; message: string }; at: number; expiresAt: number },
  ): Promise<boolean> {
    const error = end.error === undefined ? null : JSON.stringify(end.error);
    return this.#s.finish.run(end.stopReason, error, end.at, end.expiresAt, id).changes === 1;
  }

  async enqueue(jobId: string, entries: FrontierEntry[]): Promise<LeasedEntry[]> {
    return this.#enqueue.immediate(jobId, entries, Date.now());
  }

  async seen(jobId: string, urls: string[]): Promise<boolean[]> {
    // One read transaction: the answers come from one snapshot.
    return this.#db.transaction(() => urls.map((url) => this.#s.hasUrl.get(jobId, url) !== undefined))();
  }

  async lease(jobId: string, n: number): Promise<LeasedEntry[]> {
    // To SQLite a negative LIMIT means no limit at all.
    if (n <= 0) return [];
    return this.#lease.immediate(jobId, n);
  }

  async leaseEntry(jobId: string, seq: number): Promise<LeasedEntry | undefined> {
    return this.#leaseEntry.immediate(jobId, seq);
  }

  async unfinished(jobId: string): Promise<LeasedEntry[]> {
    return this.#s.unfinished.all(jobId).map(toEntry);
  }

  async requeueLeased(jobId: string): Promise<LeasedEntry[]> {
    return this.#db
      .transaction(() => {
        const rows = this.#s.leased.all(jobId);
        this.#s.requeue.run(jobId);
        return rows.map(toEntry);
      })
      .immediate();
  }

  async frontierCounts(jobId: string): Promise<Record<FrontierState, number>> {
    const counts: Record<FrontierState, number> = { queued: 0, leased: 0, done: 0 };
    for (const row of this.#s.frontierCounts.all(jobId))
      if (row.state in counts) counts[row.state as FrontierState] = row.n;
    return counts;
  }

  async complete(jobId: string, entrySeq: number, completion: EntryCompletion): Promise<number | undefined> {
    return this.#complete.immediate(jobId, entrySeq, completion);
  }

  async markCharged(jobId: string, resultSeq: number): Promise<void> {
    this.#markCharged.immediate(jobId, resultSeq);
  }

  async unchargedResults(jobId: string): Promise<SiteJobResult[]> {
    return this.#s.uncharged.all(jobId).map(toResult);
  }

  async results(jobId: string, after: number, limit: number): Promise<SiteJobResult[]> {
    if (limit <= 0) return [];
    return this.#s.results.all(jobId, after, limit).map(toResult);
  }

  async fingerprints(jobId: string, from = 0): Promise<string[]> {
    return this.#s.fingerprints.all(jobId, from).map((r) => r.fingerprint);
  }

  async deleteExpired(now: number): Promise<number> {
    return this.#deleteExpired.immediate(now);
  }
}
