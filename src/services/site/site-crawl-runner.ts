/**
 * Runs one site crawl to its end (docs/decisions.md, "Site maps and crawls"): its frontier
 * and results live in the job store, so an instance that dies leaves a job another run
 * resumes. The order of the steps is what makes a kill harmless: a page's credits are held
 * before it is fetched; its result, its aliases and the end of its frontier entry are one
 * atomic write; its charge follows from its hold only while the hold exists, and is marked
 * after. A resumed run puts the pages that were in flight back in the queue (releasing
 * their holds) and settles the charges that were pending.
 *
 * Never the same page twice: a URL enters the frontier once (spelt by site-scope.ts); a
 * page's redirect target and its `<link rel=canonical>` are recorded as aliases (a page
 * whose alias was already crawled is a duplicate, not a result); pages whose content
 * fingerprints are near each other are duplicates too (extract/site/content-fingerprint.ts).
 * Traps (calendars, session ids) end at `limit` or `max_depth`.
 *
 * Who works on which page is the crawl queue's (core/ports/crawl-queue.ts): with a shared
 * queue every instance runs this on every running job and the store's atomic steps keep
 * them apart (an entry leased and ended once, no result past the limit); with the local
 * one, only the process that claimed the job does. A page's links join the frontier
 * before its entry ends, so an empty frontier with nothing in hand means the crawl is over.
 */
import { DeadlineScope, now } from '../../core/deadline-scope.js';
import { AppError, toAppError } from '../../core/errors.js';
import type { CrawlQueue, CrawlQueueWorker } from '../../core/ports/crawl-queue.js';
import type { HostGate } from '../../core/ports/host-gate.js';
import type { FrontierEntry, LeasedEntry, SiteJob, SiteJobStopReason } from '../../core/ports/site-job-store.js';
import { sitePageCredits } from '../../core/pricing.js';
import type { RequestContext } from '../../core/request-context.js';
import type { SiteCrawlPage, SiteCrawlRequest } from '../../core/site-schemas.js';
import { rankLinks } from '../../extract/passages/rank-links.js';
import { contentFingerprint, nearDuplicate } from '../../extract/site/content-fingerprint.js';
import type { PageLink } from '../../extract/types.js';
import { hostKey } from '../../net/request-url.js';
import type { PageHolds } from '../accounts/page-holds.js';
import { extractOptions, pageResult } from '../pages/extract-service.js';
import type { PageOutcome } from '../pages/extracted-page.js';
import { pageRequest, type ExtractOptions } from '../pages/page-request.js';
import { discoverSite } from './site-discovery.js';
import type { SiteCrawlObserver, SitePageOutcome } from './site-observer.js';
import type { SiteCrawlDeps } from './site-ports.js';
import { SiteScope } from './site-scope.js';

/** How often a run looks at its job in the store (a cancellation from another instance, its end). */
const JOB_POLL_MS = 1_000;
/** Polls of a shared queue found empty while the frontier is not, before the frontier's entries are put back on it. */
const EMPTY_POLLS_BEFORE_REFILL = 3;
/** URLs a run remembers at most in each of its memories (targets resolved, URLs in the frontier, refused). */
const RUN_MEMORY = 100_000;
/** Characters around a link in its page's Markdown that rank it (best-first). */
const CONTEXT_BEFORE = 240;
const CONTEXT_AFTER = 120;

export interface RunnerDeps extends SiteCrawlDeps {
  holds: PageHolds;
  /** The per-host limit and Crawl-delay, held by every instance together when the store is shared. */
  hostGate: HostGate;
  queue: CrawlQueue;
  observer?: SiteCrawlObserver;
  /** Told as each result is written (waiters, the MCP tool's progress). */
  onResult?: (jobId: string) => void;
}

export interface RunningJob {
  readonly id: string;
  /** Settles when the run ends (the job finished, or this instance lost it). */
  readonly done: Promise<void>;
  /** Stops the run without finishing the job (shutdown, the lease lost): another run (or instance) goes on with it. */
  abandon(): void;
  /** Stops the run now (the job was cancelled). */
  cancel(): void;
  /** Pages this run works on now. */
  inFlight(): number;
}

type Stop = { reason: SiteJobStopReason; error?: { code: string; message: string } };

export function runSiteCrawl(deps: RunnerDeps, job: SiteJob): RunningJob {
  const controller = new AbortController();
  let abandoned = false;
  const run = new CrawlRun(deps, job, controller.signal);
  const done = run.start().then(
    async (stop) => {
      if (abandoned || stop === undefined) return;
      const finished = await deps.jobs.finishJob(job.id, {
        stopReason: stop.reason,
        ...(stop.error ? { error: stop.error } : {}),
        at: Date.now(),
        expiresAt: Date.now() + deps.config.site.retentionMs,
      });
      if (finished) await ended(deps, job.id);
    },
    (err: unknown) => {
      deps.logger.error({ err, job: job.id }, 'a site crawl run failed');
      if (abandoned) return;
      const error = toAppError(err);
      return deps.jobs
        .finishJob(job.id, {
          stopReason: 'failed',
          error: { code: error.code, message: error.message },
          at: Date.now(),
          expiresAt: Date.now() + deps.config.site.retentionMs,
        })
        .then((finished) => (finished ? ended(deps, job.id) : undefined));
    },
  );
  return {
    id: job.id,
    done: done.then(
      () => deps.onResult?.(job.id),
      (err: unknown) => deps.logger.error({ err, job: job.id }, 'finishing a site crawl failed'),
    ),
    abandon: () => {
      abandoned = true;
      controller.abort(new AppError('cancelled', 'the run was stopped'));
    },
    cancel: () => controller.abort(new AppError('cancelled', 'The crawl was cancelled.')),
    inFlight: () => run.inFlight,
  };
}

/**
 * What a job leaves once it ended: charges still pending settled, the holds of pages that
 * will never run released (a killed instance's, the job done before they came back), and
 * its queue.
 */
async function ended(deps: RunnerDeps, jobId: string): Promise<void> {
  const keyId = (await deps.jobs.getJob(jobId))?.keyId ?? null;
  await settleCharges(deps, jobId, keyId);
  if (keyId !== null) await deps.holds.releaseJob(jobId);
  await deps.queue.drop(jobId);
}

/**
 * Charges a kill left pending (between a result and its charge). A charge comes from its
 * hold once, so settling one another instance is about to make is harmless.
 */
async function settleCharges(deps: RunnerDeps, jobId: string, keyId: string | null): Promise<void> {
  for (const result of await deps.jobs.unchargedResults(jobId)) {
    if (keyId !== null && result.credits > 0)
      await deps.holds.charge(keyId, jobId, result.entrySeq, result.credits, (result.page as SiteCrawlPage).url);
    await deps.jobs.markCharged(jobId, result.seq);
  }
}

class CrawlRun {
  readonly #deps: RunnerDeps;
  readonly #job: SiteJob;
  readonly #request: SiteCrawlRequest;
  readonly #scope: SiteScope;
  readonly #options: ExtractOptions;
  readonly #price: number;
  readonly #stopSignal: AbortSignal;
  readonly #ctx: RequestContext;
  readonly #scopeTimer: DeadlineScope;
  #fingerprints: string[] = [];
  /** Disallowed link targets already counted (a link repeated on every page counts once). */
  readonly #refused = new Set<string>();
  /** Link targets resolved by the scope, and URLs known to be in the frontier: the nav of every page is handled once. */
  readonly #resolved = new Map<string, string | null>();
  readonly #known = new Set<string>();
  /** Counts that wait for the next completion to be written with it. */
  #pendingDisallowed = 0;
  #crawlDelayMs = 0;
  #stop: Stop | undefined;
  #results = 0;
  #inFlight = 0;
  /** Pages the other instances hold, as the shared queue last said. */
  #othersInFlight = 0;
  /** Completions one at a time: "was this page seen?" and "mark it seen" must not interleave. */
  #completing: Promise<unknown> = Promise.resolve();

  constructor(deps: RunnerDeps, job: SiteJob, stopSignal: AbortSignal) {
    this.#deps = deps;
    this.#job = job;
    this.#request = job.request as SiteCrawlRequest;
    this.#scope = new SiteScope(this.#request.url, this.#request);
    // Links are needed to follow them; they reach the answer only when asked for.
    const options = extractOptions(this.#request);
    this.#options = { ...options, controls: { ...options.controls, includeLinks: true } };
    this.#price = sitePageCredits(this.#request.stealth);
    this.#stopSignal = stopSignal;
    this.#scopeTimer = new DeadlineScope(
      { deadline: job.deadline, signal: stopSignal },
      {
        timeout: () => new AppError('timeout', "The crawl's deadline passed."),
        cancelled: (cause) => new AppError('cancelled', 'The crawl was stopped.', { cause }),
      },
    );
    this.#ctx = Object.freeze({
      id: job.id,
      caller: {},
      deadline: job.deadline,
      signal: this.#scopeTimer.signal,
      log: deps.logger.child({ job: job.id }),
    });
    this.#results = job.counts.results;
  }

  get inFlight(): number {
    return this.#inFlight;
  }

  /** The run to its end: the reason the job stopped, or undefined when the run was stopped from outside. */
  async start(): Promise<Stop | undefined> {
    try {
      await this.#resume();
      return await this.#loop();
    } finally {
      this.#scopeTimer.dispose();
    }
  }

  /**
   * What a killed run left: pending charges settled and, with the local queue,
   * the pages that were in flight back in the queue (their holds released). A shared queue
   * gives a dead instance's pages back by itself.
   */
  async #resume(): Promise<void> {
    const { jobs, holds, queue } = this.#deps;
    const keyId = this.#job.keyId;
    if (!queue.shared) {
      const back = await jobs.requeueLeased(this.#job.id);
      if (keyId !== null) for (const entry of back) await holds.release(keyId, this.#job.id, entry.seq);
    }
    await this.#settle();
    this.#fingerprints = await jobs.fingerprints(this.#job.id);
  }

  async #settle(): Promise<void> {
    await settleCharges(this.#deps, this.#job.id, this.#job.keyId);
  }

  /** The site's map (sitemaps, feeds) as the first frontier, and robots.txt's Crawl-delay: part of the start page's work. */
  async #seed(): Promise<void> {
    const discovery = await discoverSite(this.#deps, this.#ctx, this.#scope, {
      sitemap: this.#request.use_sitemap ? 'include' : 'skip',
      // Enough seeds for the limit past duplicates and failures; a query ranks a larger pool.
      maxUrls: Math.max(this.#request.limit * (this.#request.query !== undefined ? 20 : 4), 1_000),
      // The crawl reads the start page itself: discovery only learns its feeds and links.
      walkUntil: 0,
      walkDepth: 0,
    });
    this.#setCrawlDelay(discovery.crawlDelaySeconds);
    if (this.#request.max_depth === 0) return;
    const start = this.#scope.start.href;
    const seeds = discovery.urls
      .filter((u) => u.url !== start && (this.#request.use_sitemap || u.source === 'links'))
      .map((u) => this.#entry(u.url, Math.max(1, u.depth), u.parent, u.title, undefined));
    for (const seed of seeds) this.#remember(this.#known, seed.url);
    await this.#enqueue(this.#prioritised(seeds));
    this.#pendingDisallowed += discovery.robotsDisallowed;
  }

  /** Entries into the frontier (the new ones), then up for work. */
  async #enqueue(entries: FrontierEntry[]): Promise<void> {
    if (entries.length === 0) return;
    const added = await this.#deps.jobs.enqueue(this.#job.id, entries);
    await this.#deps.queue.add(this.#job.id, added);
  }

  #setCrawlDelay(seconds: number | undefined): void {
    if (seconds === undefined) return;
    this.#crawlDelayMs = Math.min(seconds * 1000, this.#deps.config.site.maxCrawlDelayMs);
  }

  async #loop(): Promise<Stop | undefined> {
    const { jobs, queue } = this.#deps;
    if (this.#crawlDelayMs === 0) {
      const directives = await this.#deps.robots.directives(this.#scope.start, this.#ctx).catch(() => undefined);
      this.#setCrawlDelay(directives?.crawlDelaySeconds);
    }
    let wake: () => void = () => undefined;
    const worker: CrawlQueueWorker = queue.work(
      this.#job.id,
      {
        concurrency: this.#deps.config.site.pagesInFlight,
        // Never more pages at once than could still be delivered under the limit (the other
        // instances' pages in hand as last seen).
        room: () =>
          this.#stop !== undefined ? 0 : this.#request.limit - this.#results - this.#inFlight - this.#othersInFlight,
      },
      async (seq) => {
        this.#inFlight += 1;
        try {
          await this.#task(seq);
        } finally {
          this.#inFlight -= 1;
          wake();
        }
      },
    );
    let emptyPolls = 0;
    let lastSweep = now();
    const onStop = (): void => wake();
    this.#stopSignal.addEventListener('abort', onStop, { once: true });
    try {
      for (;;) {
        // Each page that ends wakes the run (its job may be complete), else each JOB_POLL_MS.
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, JOB_POLL_MS);
          timer.unref();
          wake = () => {
            clearTimeout(timer);
            resolve();
          };
          if (this.#stopSignal.aborted || this.#stop !== undefined) wake();
        });
        if (this.#stopSignal.aborted) return this.#stop ?? { reason: 'cancelled' };
        if (this.#stop !== undefined) return this.#stop;
        if (now() >= this.#job.deadline) return { reason: 'deadline' };
        const fresh = await jobs.getJob(this.#job.id);
        // Cancelled (or deleted) elsewhere, or ended by another instance: nothing more starts.
        if (fresh === undefined || fresh.status === 'done') return undefined;
        this.#results = Math.max(this.#results, fresh.counts.results);
        if (this.#results >= this.#request.limit) return { reason: 'limit' };
        const frontier = await jobs.frontierCounts(this.#job.id);
        if (frontier.queued === 0 && frontier.leased === 0 && this.#inFlight === 0) return { reason: 'completed' };
        if (queue.shared && now() - lastSweep >= JOB_POLL_MS) {
          lastSweep = now();
          // Entries the frontier holds but the queue lost (an instance killed between the two writes): put back.
          const depth = await queue.depth(this.#job.id);
          this.#othersInFlight = Math.max(0, (depth?.active ?? 0) - this.#inFlight);
          emptyPolls = depth !== undefined && depth.waiting + depth.active === 0 ? emptyPolls + 1 : 0;
          if (emptyPolls >= EMPTY_POLLS_BEFORE_REFILL) {
            emptyPolls = 0;
            await queue.add(this.#job.id, await jobs.unfinished(this.#job.id));
          }
          // Charges another instance left pending when it died.
          await this.#settle();
        }
      }
    } finally {
      this.#stopSignal.removeEventListener('abort', onStop);
      wake = () => undefined;
      // Pages in flight end first (past the limit or the deadline: without a result).
      await worker.close();
    }
  }

  /** One entry handed out by the queue: leased in the store (unless it ended meanwhile) and worked on. */
  async #task(seq: number): Promise<void> {
    const entry = await this.#deps.jobs.leaseEntry(this.#job.id, seq);
    if (entry === undefined) return;
    await this.#page(entry);
  }

  /**
   * One frontier entry: held, paced, fetched through the page journey, its links queued,
   * completed, charged. Rejects when the run stopped mid-page: the entry is given back.
   */
  async #page(entry: LeasedEntry): Promise<void> {
    const { jobs, holds } = this.#deps;
    const keyId = this.#job.keyId;
    const jobId = this.#job.id;
    if (keyId !== null) {
      const held = await holds.hold(keyId, jobId, entry.seq, this.#price, this.#job.deadline + 60_000);
      if (held !== 'ok') {
        this.#stop ??=
          held === 'insufficient_credits'
            ? { reason: 'credits' }
            : {
                reason: 'failed',
                error: { code: 'unauthorized', message: `The API key is ${held === 'revoked' ? 'revoked' : 'gone'}.` },
              };
        this.#deps.observer?.sitePageDone('given_back');
        throw new AppError('cancelled', 'The crawl stops.');
      }
    }
    let outcome: PageOutcome;
    const page = new DeadlineScope(this.#ctx, {
      budgetMs: this.#deps.config.fetch.timeoutMs,
      timeout: (ms) => new AppError('timeout', `The page did not complete within ${ms} ms.`, { retryable: true }),
      cancelled: (cause) => new AppError('cancelled', 'The crawl was stopped.', { cause }),
    });
    try {
      // One of the host's slots, for the fleet (robots.txt and the site's maps included).
      const pass = await this.#deps.hostGate.acquire(hostKey(new URL(entry.url)), {
        limit: this.#deps.config.fetch.perHostConcurrency,
        delayMs: this.#crawlDelayMs,
        signal: page.signal,
      });
      try {
        if (entry.seq === 1 && entry.depth === 0) await this.#seed();
        const ctx: RequestContext = { ...this.#ctx, deadline: page.deadline, signal: page.signal };
        outcome = await this.#deps.pages.run(pageRequest(ctx, entry.url, this.#options));
      } finally {
        await pass.release();
      }
    } catch (err) {
      outcome = { ok: false, statusCode: 0, error: toAppError(err), step: 'fetch' };
    } finally {
      page.dispose();
    }
    // A run stopped mid-page (or the job's deadline cut it): not a result of the site's; the
    // entry is given back (the shared queue hands it on; the local one when the job resumes).
    if (this.#stopSignal.aborted || this.#ctx.signal.aborted) {
      if (keyId !== null) await holds.release(keyId, jobId, entry.seq);
      this.#deps.observer?.sitePageDone('given_back');
      throw new AppError('cancelled', 'The crawl was stopped.');
    }
    const settled = this.#completing.then(() => this.#complete(entry, outcome));
    this.#completing = settled.catch(() => undefined);
    let completed: { resultSeq: number | undefined; credits: number; outcome: SitePageOutcome };
    try {
      completed = await settled;
    } catch (err) {
      const error = toAppError(err);
      this.#stop ??= { reason: 'failed', error: { code: error.code, message: error.message } };
      throw err;
    }
    const { resultSeq, credits } = completed;
    this.#deps.observer?.sitePageDone(completed.outcome);
    if (resultSeq !== undefined && credits > 0) {
      if (keyId !== null) await holds.charge(keyId, jobId, entry.seq, credits, entry.url);
      await jobs.markCharged(jobId, resultSeq);
    } else {
      if (keyId !== null) await holds.release(keyId, jobId, entry.seq);
      if (resultSeq !== undefined) await jobs.markCharged(jobId, resultSeq);
    }
    this.#deps.onResult?.(jobId);
  }

  /** The page's result (or its recognition as a duplicate), its links queued first, then written in one step. */
  async #complete(
    entry: LeasedEntry,
    outcome: PageOutcome,
  ): Promise<{ resultSeq: number | undefined; credits: number; outcome: SitePageOutcome }> {
    const { jobs } = this.#deps;
    const jobId = this.#job.id;
    const disallowed = this.#pendingDisallowed;
    this.#pendingDisallowed = 0;
    const limit = this.#request.limit;
    if (this.#results >= limit) {
      // Finished past the limit (pages in flight): not delivered, not charged.
      await jobs.complete(jobId, entry.seq, { counts: { robots_disallowed: disallowed } });
      return { resultSeq: undefined, credits: 0, outcome: 'past_limit' };
    }
    const aliases: string[] = [];
    let fingerprint: string | undefined;
    if (outcome.ok) {
      for (const other of [outcome.finalUrl, outcome.output.canonical_url]) {
        const spelt = other === undefined ? undefined : this.#scope.resolve(other);
        if (spelt !== undefined && 'url' in spelt && spelt.url !== entry.url) aliases.push(spelt.url);
      }
      const seen = aliases.length > 0 ? await jobs.seen(jobId, aliases) : [];
      fingerprint = contentFingerprint(outcome.output.markdown || outcome.output.html || '');
      // Other instances' pages count too: the store's list (this run's pages included) is
      // append-only, so only what came since the last read is read.
      if (this.#deps.queue.shared)
        this.#fingerprints.push(...(await jobs.fingerprints(jobId, this.#fingerprints.length)));
      const copy = seen.some(Boolean) || this.#fingerprints.some((f) => nearDuplicate(f, fingerprint as string));
      if (copy) {
        await jobs.complete(jobId, entry.seq, { counts: { duplicates: 1, robots_disallowed: disallowed }, aliases });
        return { resultSeq: undefined, credits: 0, outcome: 'duplicate' };
      }
    }
    const links = outcome.ok ? await this.#followed(entry, outcome) : { entries: [], refused: 0 };
    // Before the entry ends: a frontier with nothing queued or leased is a finished crawl.
    await this.#enqueue(links.entries);
    const result = this.#result(entry, outcome);
    const credits = outcome.ok && !outcome.fromCache ? this.#price : 0;
    const resultSeq = await jobs.complete(jobId, entry.seq, {
      result: { page: result, credits, succeeded: outcome.ok },
      counts: { robots_disallowed: disallowed + links.refused },
      aliases,
      maxResults: limit,
      ...(fingerprint !== undefined ? { fingerprint } : {}),
    });
    if (resultSeq !== undefined) {
      this.#results = Math.max(this.#results, resultSeq);
      // With a shared queue the next read of the store brings it back.
      if (fingerprint !== undefined && !this.#deps.queue.shared) this.#fingerprints.push(fingerprint);
    }
    return { resultSeq, credits, outcome: resultSeq === undefined ? 'past_limit' : 'delivered' };
  }

  #result(entry: LeasedEntry, outcome: PageOutcome): SiteCrawlPage {
    const result = pageResult(entry.url, outcome, { ...this.#request, start_char: 0 });
    if (this.#request.include_links !== true) {
      delete result.links;
      delete result.links_truncated;
    }
    return { ...result, depth: entry.depth, ...(entry.parent !== undefined ? { parent: entry.parent } : {}) };
  }

  /** The page's links to follow: in scope, allowed by robots.txt, one hop deeper, ranked when there is a query. */
  async #followed(
    entry: LeasedEntry,
    outcome: Extract<PageOutcome, { ok: true }>,
  ): Promise<{ entries: FrontierEntry[]; refused: number }> {
    if (entry.depth >= this.#request.max_depth) return { entries: [], refused: 0 };
    const links: PageLink[] = outcome.output.links ?? [];
    const base = outcome.finalUrl;
    const markdown = outcome.output.markdown;
    const entries: FrontierEntry[] = [];
    const queued = new Set<string>();
    let refused = 0;
    for (const link of links) {
      const url = this.#resolve(link.url, base);
      if (url === null || url === entry.url || queued.has(url) || this.#known.has(url) || this.#refused.has(url))
        continue;
      queued.add(url);
      const verdict = await this.#deps.robots.check(new URL(url), this.#ctx).catch(() => undefined);
      if (verdict !== undefined && !verdict.allowed) {
        this.#remember(this.#refused, url);
        refused += 1;
        continue;
      }
      const context = this.#request.query !== undefined ? linkContext(markdown, link.url) : undefined;
      entries.push(this.#entry(url, entry.depth + 1, entry.url, link.text || undefined, context));
    }
    // Only the new ones: a URL already in the frontier keeps its place.
    const seen =
      entries.length > 0
        ? await this.#deps.jobs.seen(
            this.#job.id,
            entries.map((e) => e.url),
          )
        : [];
    for (const e of entries) this.#remember(this.#known, e.url);
    return { entries: this.#prioritised(entries.filter((_, i) => !seen[i])), refused };
  }

  /** A link target as the scope spells it (null: out of scope), each target resolved once a run. */
  #resolve(raw: string, base: string): string | null {
    const known = this.#resolved.get(raw);
    if (known !== undefined) return known;
    const resolved = this.#scope.resolve(raw, base);
    const url = 'url' in resolved ? resolved.url : null;
    if (this.#resolved.size >= RUN_MEMORY) this.#resolved.clear();
    this.#resolved.set(raw, url);
    return url;
  }

  /** Adds to one of the run's memories, forgetting it all past a bound (they only save work). */
  #remember(set: Set<string>, url: string): void {
    if (set.size >= RUN_MEMORY) set.clear();
    set.add(url);
  }

  #entry(
    url: string,
    depth: number,
    parent: string | undefined,
    anchor: string | undefined,
    context: string | undefined,
  ) {
    const entry: FrontierEntry & { context?: string } = { url, depth, priority: -depth };
    if (parent !== undefined) entry.parent = parent;
    if (anchor !== undefined) entry.anchor = anchor;
    if (context !== undefined) entry.context = context;
    return entry;
  }

  /**
   * Breadth-first: shallower first. Best-first (a query): the link's relevance to the query
   * (its URL, anchor text and the passage around it), shallower first among equals.
   */
  #prioritised(entries: (FrontierEntry & { context?: string })[]): FrontierEntry[] {
    const query = this.#request.query;
    const scores =
      query === undefined
        ? entries.map(() => 0)
        : rankLinks(
            query,
            entries.map((e) => ({
              url: e.url,
              ...(e.anchor !== undefined ? { title: e.anchor } : {}),
              ...(e.context !== undefined ? { context: e.context } : {}),
            })),
            this.#deps.wordVectors,
          );
    return entries.map(({ context: _context, ...e }, i) => ({
      ...e,
      priority: query === undefined ? -e.depth : scores[i]! * 100 - e.depth,
    }));
  }
}

/** The Markdown around the first place the page links to `url`: what the parent says about it. */
function linkContext(markdown: string, url: string): string | undefined {
  const at = markdown.indexOf(`](${url}`);
  if (at === -1) return undefined;
  return markdown.slice(Math.max(0, at - CONTEXT_BEFORE), at + CONTEXT_AFTER);
}
