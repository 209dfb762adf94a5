/**
 * The crawl queue port: who works on which page of a running site crawl. Two adapters:
 *
 *   shared (store/redis/redis-crawl-queue.ts, BullMQ): every instance works on every
 *     running job; a page is a queue job locked by the instance working on it, and an
 *     instance that dies loses its locks, so its pages return to the queue for another.
 *   local (services/site/local-crawl-queue.ts, the SQLite and memory stores): one process
 *     runs a job, taking the best queued entries of the job store's frontier itself.
 *
 * The job store (site-job-store.ts) stays what decides: a URL enters a frontier once, an
 * entry ends once, and a result past the limit is never written. The queue only says who
 * works on an entry now, so adding an entry twice, or one already done, is harmless.
 */
import type { LeasedEntry } from './site-job-store.js';

/**
 * Works on one frontier entry (its seq). Resolves when the entry ended; rejects when the
 * worker gave it up (the instance stops): the queue hands it to another worker.
 */
export type CrawlTaskHandler = (seq: number) => Promise<void>;

export interface CrawlWorkOptions {
  /** Entries worked on at once by this instance. */
  concurrency: number;
  /** How many more entries may start now (the job's limit left), read before each start. */
  room: () => number;
}

export interface CrawlQueueWorker {
  /** Stops taking entries and waits for the ones in hand to settle. */
  close(): Promise<void>;
}

export interface CrawlQueue {
  /** Whether every instance works on every running job (true), or one process owns a job (false: jobs are claimed). */
  readonly shared: boolean;
  /** Puts entries of a job's frontier up for work, best priority first (ties by seq). */
  add(jobId: string, entries: Pick<LeasedEntry, 'seq' | 'priority'>[]): Promise<void>;
  /** This instance's work on a job's entries, until closed. */
  work(jobId: string, options: CrawlWorkOptions, handler: CrawlTaskHandler): CrawlQueueWorker;
  /** Entries waiting and in hand, over every instance (undefined: the queue keeps none of its own: read the frontier). */
  depth(jobId: string): Promise<{ waiting: number; active: number } | undefined>;
  /** Throws when the queue cannot be reached (health checks). */
  ping(): Promise<void>;
  /** Forgets a finished job's queue. */
  drop(jobId: string): Promise<void>;
  close(): Promise<void>;
}
