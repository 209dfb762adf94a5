/**
 * The crawl queue shared by every instance (BullMQ on the store's Redis): one queue per
 * running job, `<prefix>bq:crawl-<job id>`, whose queue jobs are frontier entries (id
 * `e<seq>`, so adding one twice is a no-op while it exists). Each instance runs a worker on
 * each running job; BullMQ locks a page for the worker holding it and renews the lock
 * while the page runs, and a lock that lapses (the instance was killed) sends the page
 * back to the queue at the next stalled check, for any instance. A page its worker gives
 * up (shutdown) is retried at once. Order: BullMQ priorities (lower first, FIFO among
 * equals) from the frontier's (higher first).
 */
import { DelayedError, Queue, Worker } from 'bullmq';
import { Redis } from 'ioredis';
import type { CrawlQueue, CrawlQueueWorker, CrawlTaskHandler, CrawlWorkOptions } from '../../core/ports/crawl-queue.js';
import type { LeasedEntry } from '../../core/ports/site-job-store.js';

/** A page's lock: renewed at half of it while the page runs; a killed instance's pages wait at most this plus a stalled check. */
const LOCK_MS = 10_000;
const STALLED_CHECK_MS = 5_000;
/** A page whose instances keep dying goes back this many times (the frontier keeps it; the job re-adds it if the queue dropped it). */
const MAX_STALLS = 50;
/** A page given up when its worker stops is retried, each time at once. */
const ATTEMPTS = 1_000;
/** With no room under the job's limit, a page waits this long before it is looked at again. */
const NO_ROOM_DELAY_MS = 1_000;
/** BullMQ's priorities: 1 (first) to 2^21 - 1; the frontier's are scores, higher first, in steps of 0.001 and above. */
const MAX_PRIORITY = 2_097_151;
const PRIORITY_ORIGIN = 1_000_000;

export interface RedisCrawlQueueOptions {
  url: string;
  /** The store's key prefix; the queues live under `<prefix>bq`. */
  prefix: string;
}

/** The frontier's priority (higher first) as BullMQ's (lower first). */
function bullPriority(priority: number): number {
  return Math.min(MAX_PRIORITY, Math.max(1, Math.round(PRIORITY_ORIGIN - priority * 1_000)));
}

export class RedisCrawlQueue implements CrawlQueue {
  readonly shared = true;
  readonly #url: string;
  readonly #prefix: string;
  readonly #queues = new Map<string, Queue>();
  readonly #workers = new Set<Worker>();
  /** One connection for the queues (adding, counting); each worker opens its own (BullMQ blocks on them). */
  #connection: Redis | undefined;

  constructor(options: RedisCrawlQueueOptions) {
    this.#url = options.url;
    this.#prefix = `${options.prefix}bq`;
  }

  async add(jobId: string, entries: Pick<LeasedEntry, 'seq' | 'priority'>[]): Promise<void> {
    if (entries.length === 0) return;
    await this.#queue(jobId).addBulk(
      entries.map((e) => ({
        name: 'page',
        data: { seq: e.seq },
        opts: {
          jobId: `e${e.seq}`,
          priority: bullPriority(e.priority),
          attempts: ATTEMPTS,
          removeOnComplete: true,
          removeOnFail: true,
        },
      })),
    );
  }

  work(jobId: string, options: CrawlWorkOptions, handler: CrawlTaskHandler): CrawlQueueWorker {
    const worker = new Worker(
      queueName(jobId),
      async (job, token) => {
        if (options.room() <= 0 && token !== undefined) {
          await job.moveToDelayed(Date.now() + NO_ROOM_DELAY_MS, token);
          throw new DelayedError();
        }
        await handler((job.data as { seq: number }).seq);
      },
      {
        // Options, not a client: the worker opens its connections and closes them with itself.
        connection: { url: this.#url, maxRetriesPerRequest: null },
        prefix: this.#prefix,
        concurrency: options.concurrency,
        lockDuration: LOCK_MS,
        stalledInterval: STALLED_CHECK_MS,
        maxStalledCount: MAX_STALLS,
        drainDelay: 1,
        removeOnComplete: { count: 0 },
        removeOnFail: { count: 0 },
      },
    );
    // Errors of the connection are retried by the worker itself; a page's error is its own result.
    worker.on('error', () => undefined);
    this.#workers.add(worker);
    return {
      // This instance is done with the job: its queue object goes too (made again if needed).
      close: async () => {
        this.#workers.delete(worker);
        await worker.close();
        const queue = this.#queues.get(jobId);
        this.#queues.delete(jobId);
        await queue?.close();
      },
    };
  }

  async depth(jobId: string): Promise<{ waiting: number; active: number }> {
    const counts = await this.#queue(jobId).getJobCounts('wait', 'prioritized', 'delayed', 'active');
    return {
      waiting: (counts.wait ?? 0) + (counts.prioritized ?? 0) + (counts.delayed ?? 0),
      active: counts.active ?? 0,
    };
  }

  async ping(): Promise<void> {
    this.#connection ??= this.#newConnection();
    await this.#connection.ping();
  }

  async drop(jobId: string): Promise<void> {
    const queue = this.#queue(jobId);
    this.#queues.delete(jobId);
    try {
      await queue.obliterate({ force: true });
    } finally {
      await queue.close();
    }
  }

  async close(): Promise<void> {
    await Promise.allSettled([...this.#workers].map((w) => w.close()));
    this.#workers.clear();
    await Promise.allSettled([...this.#queues.values()].map((q) => q.close()));
    this.#queues.clear();
    this.#connection?.disconnect();
    this.#connection = undefined;
  }

  #queue(jobId: string): Queue {
    let queue = this.#queues.get(jobId);
    if (queue === undefined) {
      this.#connection ??= this.#newConnection();
      queue = new Queue(queueName(jobId), { connection: this.#connection, prefix: this.#prefix });
      queue.on('error', () => undefined);
      this.#queues.set(jobId, queue);
    }
    return queue;
  }

  #newConnection(): Redis {
    // BullMQ's clients wait with no retry limit per command (its requirement).
    const redis = new Redis(this.#url, { maxRetriesPerRequest: null });
    redis.on('error', () => undefined);
    return redis;
  }
}

function queueName(jobId: string): string {
  return `crawl-${jobId}`;
}
