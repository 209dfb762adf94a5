/**
 * Site crawls as durable jobs (`/api/site-crawls`, `crawl_site` / `crawl_status`,
 * `websearch-mcp crawl-site`, the library's `crawlSite`; docs/decisions.md, "Site maps and
 * crawls"): a job is admitted (limits per key and per server, the key's credits for one
 * page), stored, and run (site-crawl-runner.ts). With a shared crawl queue (the Redis
 * store) every instance runs every running job, page by page, and keeps the job's lease
 * alive while it does; with the local one a job is run by the instance that started it,
 * under a lease it renews: a job whose instance died is taken over when its lease ends,
 * and an instance that restarts takes its own back at once. Reads are by id, for the key
 * that started the job only (another key's job is a 404, as one that does not exist).
 */
import { AppError } from '../../core/errors.js';
import { newRequestId } from '../../core/ids.js';
import type { CrawlQueue } from '../../core/ports/crawl-queue.js';
import type { HostGate } from '../../core/ports/host-gate.js';
import { emptySiteJobCounts, type SiteJob } from '../../core/ports/site-job-store.js';
import { sitePageCredits } from '../../core/pricing.js';
import type { IncomingRequest } from '../../core/request-context.js';
import type {
  SiteCrawlPage,
  SiteCrawlRequest,
  SiteCrawlStatus,
  SiteCrawlStatusQuery,
} from '../../core/site-schemas.js';
import type { Metering } from '../accounts/metering.js';
import type { PageHolds } from '../accounts/page-holds.js';
import { runSiteCrawl, type RunningJob } from './site-crawl-runner.js';
import type { SiteCrawlObserver } from './site-observer.js';
import type { SiteCrawlDeps } from './site-ports.js';
import { SiteScope, startUrlRefused } from './site-scope.js';

/** A run's lease on its job: renewed at a third of it; a dead instance's jobs wait this long. */
export const JOB_LEASE_MS = 30_000;
/** How often an instance of a shared queue looks for running jobs to work on (one short script). */
const SHARED_CLAIM_MS = 500;
/** How often finished jobs past their retention are deleted. */
const RETENTION_SWEEP_MS = 10 * 60_000;
/** The Retry-After of a refusal for too many running crawls. */
const JOBS_RETRY_AFTER_S = 30;

export interface SiteCrawlServiceDeps extends SiteCrawlDeps {
  metering: Pick<Metering, 'admit'>;
  holds: PageHolds;
  queue: CrawlQueue;
  hostGate: HostGate;
  observer?: SiteCrawlObserver;
}

export class SiteCrawlService {
  readonly #deps: SiteCrawlServiceDeps;
  readonly #running = new Map<string, RunningJob>();
  readonly #listeners = new Map<string, Set<() => void>>();
  #timers: NodeJS.Timeout[] = [];
  #renewer: NodeJS.Timeout | undefined;
  /** Whether this instance takes over other instances' jobs (servers do; a one-shot CLI run does not). */
  #claims = false;
  #closed = false;

  constructor(deps: SiteCrawlServiceDeps) {
    this.#deps = deps;
  }

  /**
   * Runs the jobs this instance should run now (its own from an earlier life, those whose
   * instance died), then keeps renewing its leases and looking for orphans; deletes expired
   * results. Servers call it; a one-shot CLI run does not (it runs only its own job).
   */
  async resume(): Promise<void> {
    this.#claims = true;
    await this.#claim();
    await this.#deps.jobs.deleteExpired(Date.now()).catch(() => undefined);
    this.#startRenewing();
    const sweep = setInterval(
      () => void this.#deps.jobs.deleteExpired(Date.now()).catch(() => undefined),
      RETENTION_SWEEP_MS,
    );
    sweep.unref();
    this.#timers.push(sweep);
  }

  /** Starts a crawl for the caller: 400 for a start URL that cannot be fetched, 429 past the limits, 402 without credits for a page. */
  async start(incoming: IncomingRequest, request: SiteCrawlRequest): Promise<SiteJob> {
    if (this.#closed) throw new AppError('server_busy', 'The server is shutting down.', { retryable: true });
    const scope = new SiteScope(request.url, request);
    const keyId = incoming.caller.key?.id ?? null;
    const { jobsPerKey, maxJobs } = this.#deps.config.site;
    const running = await this.#deps.jobs.countRunning(keyId, Date.now());
    if (running.key >= jobsPerKey)
      throw new AppError(
        'rate_limited',
        `This key already runs ${running.key} site crawl${running.key === 1 ? '' : 's'} (at most ${jobsPerKey} at once); wait for one to finish or cancel one (DELETE /api/site-crawls/{id}).`,
        { retryAfter: JOBS_RETRY_AFTER_S, retryable: true },
      );
    if (running.total >= maxJobs)
      throw new AppError(
        'rate_limited',
        `The server already runs ${running.total} site crawls (at most ${maxJobs}); retry later.`,
        {
          retryAfter: JOBS_RETRY_AFTER_S,
          retryable: true,
        },
      );
    await this.#deps.metering.admit(incoming, sitePageCredits(request.stealth));
    // A start URL the address policy refuses is the request's error, not a job that fails.
    const verdict = await this.#deps.robots.check(scope.start, {
      deadline: Date.now() + this.#deps.config.robots.timeoutMs + 1_000,
      signal: incoming.cancel ?? new AbortController().signal,
    });
    if (verdict.error?.code === 'forbidden_address' || verdict.error?.code === 'invalid_url')
      throw startUrlRefused(verdict.error);
    const at = Date.now();
    const job: SiteJob = {
      id: incoming.id || newRequestId(),
      keyId,
      request: { ...request, url: scope.start.href },
      status: 'running',
      createdAt: at,
      updatedAt: at,
      deadline: at + request.timeout_ms,
      owner: this.#deps.config.server.instanceId,
      leaseUntil: at + JOB_LEASE_MS,
      counts: emptySiteJobCounts(),
    };
    await this.#deps.jobs.createJob(job, [{ url: scope.start.href, depth: 0, priority: 0 }]);
    // The start URL is the frontier's first entry.
    await this.#deps.queue.add(job.id, [{ seq: 1, priority: 0 }]);
    const stored = (await this.#deps.jobs.getJob(job.id)) ?? job;
    this.#run(stored);
    incoming.log.info({ job: job.id, url: scope.start.href, limit: request.limit }, 'site crawl started');
    return stored;
  }

  /** The job as its owner sees it: status, progress and a page of results after `query.cursor`. */
  async status(incoming: IncomingRequest, id: string, query: SiteCrawlStatusQuery): Promise<SiteCrawlStatus> {
    const job = await this.#owned(incoming, id);
    const after = query.cursor === undefined ? 0 : Number(query.cursor);
    const [results, frontier] = await Promise.all([
      this.#deps.jobs.results(id, after, query.limit),
      this.#deps.jobs.frontierCounts(id),
    ]);
    const last = results.at(-1)?.seq ?? after;
    const more = last < job.counts.results;
    return {
      id: job.id,
      url: (job.request as SiteCrawlRequest).url,
      status: job.status,
      ...(job.stopReason !== undefined ? { stop_reason: job.stopReason } : {}),
      ...(job.error !== undefined ? { error: job.error } : {}),
      progress: {
        discovered: job.counts.discovered,
        queued: frontier.queued,
        in_flight: job.status === 'running' ? frontier.leased : 0,
        pages: job.counts.results,
        succeeded: job.counts.succeeded,
        failed: job.counts.failed,
        duplicates: job.counts.duplicates,
        robots_disallowed: job.counts.robots_disallowed,
        credits_used: job.counts.credits_used,
      },
      pages: results.map((r) => r.page as SiteCrawlPage),
      // While the job runs, the cursor always reads on (more may come); once done, only while results remain.
      ...(more || job.status === 'running' ? { next_cursor: String(last) } : {}),
      created_at: new Date(job.createdAt).toISOString(),
      ...(job.status === 'done' ? { finished_at: new Date(job.updatedAt).toISOString() } : {}),
      ...(job.expiresAt !== undefined ? { expires_at: new Date(job.expiresAt).toISOString() } : {}),
    };
  }

  /** Cancels a running job (stop_reason `cancelled`); a done job is left as it is. */
  async cancel(incoming: IncomingRequest, id: string): Promise<void> {
    await this.#owned(incoming, id);
    await this.#deps.jobs.finishJob(id, {
      stopReason: 'cancelled',
      at: Date.now(),
      expiresAt: Date.now() + this.#deps.config.site.retentionMs,
    });
    this.#running.get(id)?.cancel();
    this.#notify(id);
  }

  /**
   * Resolves when the job is done (or, with `after`, has a result past that seq), `ms`
   * passed or `signal` aborts, whichever comes first.
   */
  async wait(
    id: string,
    ms: number,
    after: number | undefined,
    signal?: AbortSignal,
    onProgress?: () => void,
  ): Promise<void> {
    const until = Date.now() + ms;
    while (Date.now() < until && !signal?.aborted) {
      const job = await this.#deps.jobs.getJob(id);
      if (job === undefined || job.status === 'done') return;
      if (after !== undefined && job.counts.results > after) return;
      await new Promise<void>((resolve) => {
        const listeners = this.#listeners.get(id) ?? new Set<() => void>();
        this.#listeners.set(id, listeners);
        const done = (): void => {
          clearTimeout(timer);
          listeners.delete(done);
          signal?.removeEventListener('abort', done);
          resolve();
        };
        // Results of a job another instance runs arrive unannounced: look again each second.
        const timer = setTimeout(done, Math.max(0, Math.min(1_000, until - Date.now())));
        listeners.add(done);
        signal?.addEventListener('abort', done, { once: true });
      });
      onProgress?.();
    }
  }

  /** Whether every instance works on every crawl (the Redis store's BullMQ queue) or one process runs each. */
  get queueShared(): boolean {
    return this.#deps.queue.shared;
  }

  /** Throws when the crawl queue cannot be reached (`/healthz`). */
  async pingQueue(): Promise<void> {
    await this.#deps.queue.ping();
  }

  /** Crawl pages this instance works on now, over its runs. */
  pagesInHand(): number {
    let sum = 0;
    for (const run of this.#running.values()) sum += run.inFlight();
    return sum;
  }

  /** Pages waiting and in hand (over every instance) in the crawls this instance runs. */
  async queueDepth(): Promise<{ waiting: number; active: number }> {
    const depths = await Promise.all(
      [...this.#running.keys()].map(async (id) => {
        const depth = await this.#deps.queue.depth(id);
        if (depth !== undefined) return depth;
        const frontier = await this.#deps.jobs.frontierCounts(id);
        return { waiting: frontier.queued, active: frontier.leased };
      }),
    );
    return depths.reduce((a, b) => ({ waiting: a.waiting + b.waiting, active: a.active + b.active }), {
      waiting: 0,
      active: 0,
    });
  }

  /** Stops this instance's runs without finishing their jobs: another run (this one restarted, or another instance) resumes them. */
  async close(): Promise<void> {
    this.#closed = true;
    for (const timer of this.#timers) clearInterval(timer);
    this.#timers = [];
    clearInterval(this.#renewer);
    this.#renewer = undefined;
    const runs = [...this.#running.values()];
    for (const run of runs) run.abandon();
    await Promise.allSettled(runs.map((run) => run.done));
  }

  async #owned(incoming: IncomingRequest, id: string): Promise<SiteJob> {
    const job = await this.#deps.jobs.getJob(id);
    const keyId = incoming.caller.key?.id ?? null;
    if (job === undefined || job.keyId !== keyId)
      throw new AppError(
        'not_found',
        `No site crawl ${JSON.stringify(id)} for this key (finished crawls are kept ${Math.round(this.#deps.config.site.retentionMs / 3_600_000)} h).`,
      );
    return job;
  }

  #run(job: SiteJob): void {
    if (this.#running.has(job.id) || this.#closed) return;
    const run = runSiteCrawl({ ...this.#deps, onResult: (id) => this.#notify(id) }, job);
    this.#running.set(job.id, run);
    this.#startRenewing();
    void run.done.finally(() => {
      this.#running.delete(job.id);
      this.#notify(job.id);
    });
  }

  #notify(id: string): void {
    for (const listener of [...(this.#listeners.get(id) ?? [])]) listener();
  }

  /** With a shared queue, every running job (this instance works on each); else the ones this instance owns or that lost their owner. */
  async #claim(): Promise<void> {
    const owner = this.#deps.config.server.instanceId;
    const jobs = this.#deps.queue.shared
      ? await this.#deps.jobs.liveJobs(owner, Date.now(), JOB_LEASE_MS)
      : await this.#deps.jobs.claimJobs(owner, Date.now(), JOB_LEASE_MS);
    for (const job of jobs) this.#run(job);
  }

  #startRenewing(): void {
    if (this.#renewer !== undefined || this.#closed) return;
    // A shared queue's instances look for new jobs often: each one works on every job.
    const every = this.#deps.queue.shared ? SHARED_CLAIM_MS : JOB_LEASE_MS / 3;
    this.#renewer = setInterval(() => void this.#renewAndClaim(), every);
    this.#renewer.unref();
  }

  async #renewAndClaim(): Promise<void> {
    try {
      const owner = this.#deps.config.server.instanceId;
      const ids = [...this.#running.keys()];
      if (ids.length > 0) {
        const kept = new Set(await this.#deps.jobs.renewLeases(owner, ids, Date.now() + JOB_LEASE_MS));
        // A job taken over (this instance was too slow to renew) or finished elsewhere: this run stops.
        // With a shared queue every instance works on the job: a run stops when its job ends.
        if (!this.#deps.queue.shared) for (const id of ids) if (!kept.has(id)) this.#running.get(id)?.abandon();
      }
      if (this.#claims) await this.#claim();
    } catch (err) {
      this.#deps.logger.warn({ err }, 'renewing the site crawl leases failed');
    }
  }
}
