/**
 * Site crawl jobs in maps (unit tests): the reference semantics of the port, values kept as
 * JSON text as the durable adapters keep them.
 */
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
import type { MemoryLifetime } from './memory-lifetime.js';

interface Entry extends LeasedEntry {
  state: FrontierState | 'alias';
}

interface JobData {
  job: string;
  entries: Map<string, Entry>;
  bySeq: Map<number, Entry>;
  results: (SiteJobResult & { fingerprint?: string })[];
}

const copy = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

export class MemorySiteJobs implements SiteJobStore {
  readonly #jobs = new Map<string, JobData>();
  readonly #lifetime: MemoryLifetime;

  constructor(lifetime: MemoryLifetime) {
    this.#lifetime = lifetime;
  }

  #data(id: string): JobData | undefined {
    this.#lifetime.check();
    return this.#jobs.get(id);
  }

  #update(data: JobData, change: (job: SiteJob) => void): void {
    const job = JSON.parse(data.job) as SiteJob;
    change(job);
    data.job = JSON.stringify(job);
  }

  /** Adds to the job's counts; `updatedAt` follows while it runs (a done job's stays its end). */
  #addCounts(data: JobData, delta: Partial<SiteJobCounts>): void {
    this.#update(data, (job) => {
      for (const [name, value] of Object.entries(delta) as [keyof SiteJobCounts, number][]) job.counts[name] += value;
      if (job.status === 'running') job.updatedAt = Date.now();
    });
  }

  async createJob(job: SiteJob, seeds: FrontierEntry[]): Promise<void> {
    this.#lifetime.check();
    const data: JobData = { job: JSON.stringify(job), entries: new Map(), bySeq: new Map(), results: [] };
    const added = seeds.filter((e) => this.#add(data, e, 'queued')).length;
    // The seeds are part of the job as created: counted, its updatedAt kept.
    this.#update(data, (j) => (j.counts.discovered += added));
    this.#jobs.set(job.id, data);
  }

  async getJob(id: string): Promise<SiteJob | undefined> {
    const data = this.#data(id);
    return data === undefined ? undefined : (JSON.parse(data.job) as SiteJob);
  }

  async countRunning(keyId: string | null, now: number): Promise<{ key: number; total: number }> {
    this.#lifetime.check();
    let key = 0;
    let total = 0;
    for (const data of this.#jobs.values()) {
      const job = JSON.parse(data.job) as SiteJob;
      if (job.status !== 'running' || job.leaseUntil === undefined || job.leaseUntil <= now) continue;
      total += 1;
      if (job.keyId === keyId) key += 1;
    }
    return { key, total };
  }

  async claimJobs(owner: string, now: number, leaseMs: number): Promise<SiteJob[]> {
    this.#lifetime.check();
    const claimed: SiteJob[] = [];
    for (const data of this.#jobs.values()) {
      const job = JSON.parse(data.job) as SiteJob;
      if (job.status !== 'running') continue;
      if (job.owner !== owner && job.leaseUntil !== undefined && job.leaseUntil > now) continue;
      job.owner = owner;
      job.leaseUntil = now + leaseMs;
      data.job = JSON.stringify(job);
      claimed.push(copy(job));
    }
    return claimed;
  }

  async liveJobs(owner: string, now: number, leaseMs: number): Promise<SiteJob[]> {
    this.#lifetime.check();
    const live: SiteJob[] = [];
    for (const data of this.#jobs.values()) {
      const job = JSON.parse(data.job) as SiteJob;
      if (job.status !== 'running') continue;
      job.owner = owner;
      job.leaseUntil = now + leaseMs;
      data.job = JSON.stringify(job);
      live.push(copy(job));
    }
    return live;
  }

  async renewLeases(owner: string, ids: string[], until: number): Promise<string[]> {
    return ids.filter((id) => {
      const data = this.#data(id);
      if (data === undefined) return false;
      const job = JSON.parse(data.job) as SiteJob;
      if (job.status !== 'running' || job.owner !== owner) return false;
      this.#update(data, (j) => (j.leaseUntil = until));
      return true;
    });
  }

  async finishJob(
    id: string,
    end: { stopReason: SiteJobStopReason; error?: { code: string; message: string }; at: number; expiresAt: number },
  ): Promise<boolean> {
    const data = this.#data(id);
    if (data === undefined || (JSON.parse(data.job) as SiteJob).status !== 'running') return false;
    this.#update(data, (job) => {
      job.status = 'done';
      job.stopReason = end.stopReason;
      if (end.error !== undefined) job.error = end.error;
      job.updatedAt = end.at;
      job.expiresAt = end.expiresAt;
    });
    return true;
  }

  /** Adds an entry whose URL the job has not seen; returns it (undefined: seen already). */
  #add(data: JobData, e: FrontierEntry, state: Entry['state']): Entry | undefined {
    if (data.entries.has(e.url)) return undefined;
    const entry: Entry = { ...copy(e), seq: data.bySeq.size + 1, state };
    data.entries.set(e.url, entry);
    data.bySeq.set(entry.seq, entry);
    return entry;
  }

  async enqueue(jobId: string, entries: FrontierEntry[]): Promise<LeasedEntry[]> {
    const data = this.#data(jobId);
    if (data === undefined) return [];
    const added = entries.flatMap((e) => this.#add(data, e, 'queued') ?? []);
    if (added.length > 0) this.#addCounts(data, { discovered: added.length });
    return added.map(({ state: _state, ...e }) => copy(e));
  }

  async seen(jobId: string, urls: string[]): Promise<boolean[]> {
    const data = this.#data(jobId);
    return urls.map((url) => data?.entries.has(url) ?? false);
  }

  async lease(jobId: string, n: number): Promise<LeasedEntry[]> {
    const data = this.#data(jobId);
    if (data === undefined || n <= 0) return [];
    const queued = [...data.bySeq.values()]
      .filter((e) => e.state === 'queued')
      .sort((a, b) => b.priority - a.priority || a.seq - b.seq)
      .slice(0, n);
    for (const e of queued) e.state = 'leased';
    return queued.map(({ state: _state, ...e }) => copy(e));
  }

  async leaseEntry(jobId: string, seq: number): Promise<LeasedEntry | undefined> {
    const entry = this.#data(jobId)?.bySeq.get(seq);
    if (entry === undefined || (entry.state !== 'queued' && entry.state !== 'leased')) return undefined;
    entry.state = 'leased';
    const { state: _state, ...e } = entry;
    return copy(e);
  }

  async unfinished(jobId: string): Promise<LeasedEntry[]> {
    const data = this.#data(jobId);
    if (data === undefined) return [];
    const unfinished = [...data.bySeq.values()].filter((e) => e.state === 'queued' || e.state === 'leased');
    return unfinished.sort((a, b) => a.seq - b.seq).map(({ state: _state, ...e }) => copy(e));
  }

  async requeueLeased(jobId: string): Promise<LeasedEntry[]> {
    const data = this.#data(jobId);
    if (data === undefined) return [];
    const leased = [...data.bySeq.values()].filter((e) => e.state === 'leased');
    for (const e of leased) e.state = 'queued';
    return leased.map(({ state: _state, ...e }) => copy(e));
  }

  async frontierCounts(jobId: string): Promise<Record<FrontierState, number>> {
    const counts: Record<FrontierState, number> = { queued: 0, leased: 0, done: 0 };
    for (const e of this.#data(jobId)?.bySeq.values() ?? []) if (e.state !== 'alias') counts[e.state] += 1;
    return counts;
  }

  async complete(jobId: string, entrySeq: number, c: EntryCompletion): Promise<number | undefined> {
    const data = this.#data(jobId);
    const entry = data?.bySeq.get(entrySeq);
    if (data === undefined || entry === undefined || entry.state !== 'leased') return undefined;
    entry.state = 'done';
    for (const url of c.aliases ?? []) this.#add(data, { url, depth: 0, priority: 0 }, 'alias');
    // Past the job's limit of results the entry ends as one without a result.
    const full = c.maxResults !== undefined && (JSON.parse(data.job) as SiteJob).counts.results >= c.maxResults;
    const result = full ? undefined : c.result;
    let seq: number | undefined;
    if (result !== undefined) {
      seq = data.results.length + 1;
      data.results.push({
        seq,
        entrySeq,
        page: copy(result.page),
        credits: result.credits,
        charged: false,
        ...(c.fingerprint !== undefined ? { fingerprint: c.fingerprint } : {}),
      });
    }
    const delta: Partial<SiteJobCounts> = { ...c.counts };
    if (result !== undefined) {
      delta.results = 1;
      delta[result.succeeded ? 'succeeded' : 'failed'] = 1;
    }
    this.#addCounts(data, delta);
    return seq;
  }

  async markCharged(jobId: string, resultSeq: number): Promise<void> {
    const data = this.#data(jobId);
    const result = data?.results[resultSeq - 1];
    if (data === undefined || result === undefined || result.charged) return;
    result.charged = true;
    this.#addCounts(data, { credits_used: result.credits });
  }

  async unchargedResults(jobId: string): Promise<SiteJobResult[]> {
    return copy((this.#data(jobId)?.results ?? []).filter((r) => !r.charged).map(strip));
  }

  async results(jobId: string, after: number, limit: number): Promise<SiteJobResult[]> {
    if (limit <= 0) return [];
    const from = Math.max(0, after);
    return copy((this.#data(jobId)?.results ?? []).slice(from, from + limit).map(strip));
  }

  async fingerprints(jobId: string, from = 0): Promise<string[]> {
    const all = (this.#data(jobId)?.results ?? []).flatMap((r) => (r.fingerprint !== undefined ? [r.fingerprint] : []));
    return all.slice(from);
  }

  async deleteExpired(now: number): Promise<number> {
    this.#lifetime.check();
    let deleted = 0;
    for (const [id, data] of this.#jobs) {
      const job = JSON.parse(data.job) as SiteJob;
      if (job.status === 'done' && job.expiresAt !== undefined && job.expiresAt <= now) {
        this.#jobs.delete(id);
        deleted += 1;
      }
    }
    return deleted;
  }
}

function strip({ fingerprint: _f, ...result }: SiteJobResult & { fingerprint?: string }): SiteJobResult {
  return result;
}
