/**
 * The site-crawl job port: what a crawl job must keep so that it survives its client and
 * its server (docs/decisions.md, "Site maps and crawls"): the job itself, its frontier (which is
 * also its visited set: a URL enters a job's frontier once, ever), and its results in the
 * order they completed. Adapters: store/sqlite (embedded), store/redis (shared by
 * instances), store/memory (unit tests). Every method is atomic on its own; the crawl
 * runner (services/site/) orders them so that a kill at any point loses nothing and
 * repeats nothing: a page's result and the end of its frontier entry are one step.
 */

/** Why a job stopped (docs/decisions.md, "Site maps and crawls"). */
export type SiteJobStopReason = 'completed' | 'limit' | 'credits' | 'cancelled' | 'deadline' | 'failed';

export interface SiteJobCounts {
  /** URLs that entered the frontier (start URL and seeds included). */
  discovered: number;
  /** Results written (pages delivered, failed pages included). */
  results: number;
  /** Results that are successful pages. */
  succeeded: number;
  /** Results that are per-URL errors. */
  failed: number;
  /** Pages recognised as another page already crawled (canonical, redirect, near-duplicate content): no result. */
  duplicates: number;
  /** URLs left out because robots.txt disallows them (never fetched). */
  robots_disallowed: number;
  /** Credits charged so far. */
  credits_used: number;
}

/** A new job's counts: nothing discovered, delivered or charged yet. */
export function emptySiteJobCounts(): SiteJobCounts {
  return { discovered: 0, results: 0, succeeded: 0, failed: 0, duplicates: 0, robots_disallowed: 0, credits_used: 0 };
}

export interface SiteJob {
  /** The job's id, which is also the request id its usage records are filed under. */
  id: string;
  /** The key that started it (null: a caller without a key, open mode or the CLI). */
  keyId: string | null;
  /** The validated request, as JSON. */
  request: unknown;
  status: 'running' | 'done';
  stopReason?: SiteJobStopReason;
  /** With stopReason `failed`: why. */
  error?: { code: string; message: string };
  /** Epoch ms. */
  createdAt: number;
  /** Epoch ms: the job's last write while it ran; once done, when it ended (later writes leave it). */
  updatedAt: number;
  /** When the job must stop (`deadline`), epoch ms. */
  deadline: number;
  /** When a done job and its results are deleted (the retention setting), epoch ms. */
  expiresAt?: number;
  /** The instance running it, and until when its lease holds (epoch ms). */
  owner?: string;
  leaseUntil?: number;
  counts: SiteJobCounts;
}

/** One URL of a job's frontier. */
export interface FrontierEntry {
  /** The URL as fetched (normalised once: services/site/site-scope.ts); unique within a job. */
  url: string;
  depth: number;
  /** The page it was found on (absent: the start URL or a sitemap seed). */
  parent?: string;
  /** What the link said (anchor text, feed or sitemap title), for ranking. */
  anchor?: string;
  /** Higher first; ties in the order of insertion. Breadth-first jobs use -depth. */
  priority: number;
}

export type FrontierState = 'queued' | 'leased' | 'done';

export interface LeasedEntry extends FrontierEntry {
  /** Its place in the job's frontier (insertion order, from 1): stable, names its credit hold. */
  seq: number;
}

/** One delivered result: a page (an `/api/crawl` result with depth and parent) or its per-URL error. */
export interface SiteJobResult {
  /** Its place in the job's results, from 1: the cursor of GET /api/site-crawls/{id}. */
  seq: number;
  /** The result as answered (JSON). */
  page: unknown;
  /** Its credits are charged (false while a charge is pending: settled on resume). */
  charged: boolean;
  /** The frontier entry it completed (names its credit hold). */
  entrySeq: number;
  credits: number;
}

/** What completing a frontier entry writes, in one atomic step. */
export interface EntryCompletion {
  /** The result, when the entry delivers one (absent: a duplicate or a URL left out). */
  result?: { page: unknown; credits: number; succeeded: boolean };
  /** Added to the job's counts (results/succeeded/failed follow from `result`). */
  counts?: Partial<Pick<SiteJobCounts, 'duplicates' | 'robots_disallowed'>>;
  /** Other spellings of this page (its canonical URL, its redirects' final URL): marked seen, never queued. */
  aliases?: string[];
  /** The page's content fingerprint (near-duplicate detection; services/site/), kept with its result (ignored without one). */
  fingerprint?: string;
  /**
   * The job's limit of results: a result past it is not written (the entry still ends), so
   * instances completing pages at once never deliver more than the limit together.
   */
  maxResults?: number;
}

export interface SiteJobStore {
  /** Stores a new job and its first frontier entries (deduplicated by URL). */
  createJob(job: SiteJob, seeds: FrontierEntry[]): Promise<void>;
  getJob(id: string): Promise<SiteJob | undefined>;
  /**
   * Running jobs of one key (null: callers without a key), and of every key, whose lease is
   * live at `now`: a job its instance left (killed, a CLI run stopped) counts again once an
   * instance takes it over, not while nobody runs it.
   */
  countRunning(keyId: string | null, now: number): Promise<{ key: number; total: number }>;
  /**
   * Jobs this instance should run: running ones it owns, or whose lease ended (their
   * instance died), taken over atomically by setting owner and lease.
   */
  claimJobs(owner: string, now: number, leaseMs: number): Promise<SiteJob[]>;
  /**
   * Every running job, each one's lease extended to `now + leaseMs` under `owner` (the last
   * instance to say it works on it): with a shared crawl queue every instance works on every
   * running job, and a job counts as running (countRunning) while any instance does.
   */
  liveJobs(owner: string, now: number, leaseMs: number): Promise<SiteJob[]>;
  /** Extends the lease of the owner's running jobs; returns the ids it still owns (a job taken over or done drops out). */
  renewLeases(owner: string, ids: string[], until: number): Promise<string[]>;
  /** Ends a job (status done, reason, error, retention) unless it is already done; returns whether it did. */
  finishJob(
    id: string,
    end: { stopReason: SiteJobStopReason; error?: { code: string; message: string }; at: number; expiresAt: number },
  ): Promise<boolean>;
  /** Adds URLs not yet in the job's frontier (or its aliases); returns the ones added, with their seqs (none to a job that is gone). */
  enqueue(jobId: string, entries: FrontierEntry[]): Promise<LeasedEntry[]>;
  /** Whether the job has seen each URL (frontier or alias). */
  seen(jobId: string, urls: string[]): Promise<boolean[]>;
  /** Takes up to `n` queued entries (none for `n` <= 0), highest priority first (then insertion order), and marks them leased. */
  lease(jobId: string, n: number): Promise<LeasedEntry[]>;
  /**
   * Marks one entry leased (queued, or already leased: its worker died and the shared queue
   * handed it to another) and returns it; undefined when it is done or unknown.
   */
  leaseEntry(jobId: string, seq: number): Promise<LeasedEntry | undefined>;
  /** Entries not done yet (queued and leased), with their priorities: what a shared queue must hold for the job. */
  unfinished(jobId: string): Promise<LeasedEntry[]>;
  /** Entries leased when the instance died go back to the queue (on resume); returns them. */
  requeueLeased(jobId: string): Promise<LeasedEntry[]>;
  /** Frontier entries by state (progress). */
  frontierCounts(jobId: string): Promise<Record<FrontierState, number>>;
  /**
   * Completes a leased entry, atomically: marks it done, appends its result (if any) with
   * `charged: false`, records its aliases and fingerprint, updates the counts. Returns the
   * result's seq, or undefined (no result, or the entry was not leased: nothing written).
   */
  complete(jobId: string, entrySeq: number, completion: EntryCompletion): Promise<number | undefined>;
  /** Marks a result charged and adds its credits to the job's counts. */
  markCharged(jobId: string, resultSeq: number): Promise<void>;
  /** Results whose charge is pending (a kill between the result and its charge). */
  unchargedResults(jobId: string): Promise<SiteJobResult[]>;
  /** Results with seq > `after`, at most `limit`, in order. */
  results(jobId: string, after: number, limit: number): Promise<SiteJobResult[]>;
  /** The content fingerprints of the job's pages so far, in result order, past the first `from` (default 0). */
  fingerprints(jobId: string, from?: number): Promise<string[]>;
  /**
   * Deletes done jobs whose retention ended, with their frontier and results; returns how
   * many. A bounded batch per call (the caller sweeps periodically), so no call stalls the store.
   */
  deleteExpired(now: number): Promise<number>;
}
