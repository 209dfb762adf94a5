/**
 * The crawl queue of one process (the SQLite and memory stores): the job store's frontier
 * is the queue. A worker leases the best queued entries itself (SiteJobStore.lease), as
 * many as it has room for; an entry it gave up stays leased until the job is resumed
 * (SiteJobStore.requeueLeased), since only the process that claimed the job works on it.
 */
import type { CrawlQueue, CrawlQueueWorker, CrawlTaskHandler, CrawlWorkOptions } from '../core/ports/crawl-queue.js';
import type { SiteJobStore } from '../core/ports/site-job-store.js';

/** How long an idle worker waits before looking at the frontier again (an add wakes it sooner). */
const IDLE_MS = 250;
/** After the store failed to answer. */
const RETRY_MS = 1_000;

export class LocalCrawlQueue implements CrawlQueue {
  readonly shared = false;
  readonly #jobs: SiteJobStore;
  /** Wakes the workers of a job when its frontier grows. */
  readonly #wakers = new Map<string, Set<() => void>>();

  constructor(jobs: SiteJobStore) {
    this.#jobs = jobs;
  }

  async add(jobId: string): Promise<void> {
    for (const wake of [...(this.#wakers.get(jobId) ?? [])]) wake();
  }

  work(jobId: string, options: CrawlWorkOptions, handler: CrawlTaskHandler): CrawlQueueWorker {
    const inHand = new Set<Promise<void>>();
    let closed = false;
    let wake: () => void = () => undefined;
    const wakers = this.#wakers.get(jobId) ?? new Set<() => void>();
    this.#wakers.set(jobId, wakers);
    const wakeUp = (): void => wake();
    wakers.add(wakeUp);
    const pause = (ms: number): Promise<void> =>
      new Promise((resolve) => {
        const timer = setTimeout(resolve, ms);
        timer.unref();
        wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    const loop = async (): Promise<void> => {
      while (!closed) {
        const room = Math.min(options.concurrency - inHand.size, options.room());
        let taken = 0;
        try {
          for (const entry of room > 0 ? await this.#jobs.lease(jobId, room) : []) {
            taken += 1;
            const task: Promise<void> = handler(entry.seq)
              .catch(() => undefined)
              .finally(() => {
                inHand.delete(task);
                wake();
              });
            inHand.add(task);
          }
        } catch {
          await pause(RETRY_MS);
          continue;
        }
        if (closed) break;
        if (taken === 0 || inHand.size >= options.concurrency) await pause(IDLE_MS);
      }
      await Promise.allSettled([...inHand]);
    };
    const running = loop();
    return {
      close: async () => {
        closed = true;
        wakers.delete(wakeUp);
        if (wakers.size === 0) this.#wakers.delete(jobId);
        wake();
        await running;
      },
    };
  }

  async depth(): Promise<undefined> {
    return undefined;
  }

  /** The job store's frontier: reachable when the store is (its own health check). */
  async ping(): Promise<void> {}

  async drop(jobId: string): Promise<void> {
    this.#wakers.delete(jobId);
  }

  async close(): Promise<void> {
    this.#wakers.clear();
  }
}
