/**
 * Credits of a long job charged page by page (a site crawl; docs/decisions.md, "Site maps
 * and crawls"): each page holds its price before it is fetched, under a hold id of its own
 * (`<job id>#<frontier seq>`) owned by the job rather than the instance, so a restarted
 * instance does not drop them; a page delivered fresh is charged from its hold, and only
 * while the hold exists, so a charge repeated after a kill does nothing. Every usage record
 * is filed under the job's id. A failed page releases its hold: it costs nothing.
 */
import type { LedgerStore } from '../../core/ports/ledger-store.js';
import type { MeteringObserver } from './metering.js';

export interface PageHoldsDeps {
  ledger: LedgerStore;
  observer?: MeteringObserver;
  now?: () => number;
}

export class PageHolds {
  readonly #deps: PageHoldsDeps;
  readonly #now: () => number;

  constructor(deps: PageHoldsDeps) {
    this.#deps = deps;
    this.#now = deps.now ?? Date.now;
  }

  static holdId(jobId: string, entrySeq: number): string {
    return `${jobId}#${entrySeq}`;
  }

  /**
   * Holds one page's price until `until` (epoch ms): `ok`, or why not: `insufficient_credits`
   * (the job stops: `credits`), `revoked` or `unknown_key` (the job fails).
   */
  async hold(
    keyId: string,
    jobId: string,
    entrySeq: number,
    credits: number,
    until: number,
  ): Promise<'ok' | 'insufficient_credits' | 'revoked' | 'unknown_key'> {
    const now = this.#now();
    const holdMs = Math.max(1, Math.ceil(until - now));
    const admitted = await this.#deps.ledger.reserve(
      keyId,
      PageHolds.holdId(jobId, entrySeq),
      credits,
      holdMs,
      now,
      `site:${jobId}`,
    );
    return admitted.ok ? 'ok' : admitted.reason;
  }

  /** Charges a delivered page from its hold, if the hold is still there; returns whether it debited. */
  async charge(keyId: string, jobId: string, entrySeq: number, credits: number, url: string): Promise<boolean> {
    const { charged } = await this.#deps.ledger.charge({
      keyId,
      operation: 'site_crawl',
      credits,
      requestId: jobId,
      holdId: PageHolds.holdId(jobId, entrySeq),
      onlyIfHeld: true,
      at: new Date(this.#now()).toISOString(),
      urls: [url],
    });
    if (charged && credits > 0) this.#deps.observer?.creditsCharged('site_crawl', credits);
    return charged;
  }

  /** Drops every hold the job still has (its pages that will never run: the job ended while instances held them). */
  async releaseJob(jobId: string): Promise<void> {
    await this.#deps.ledger.releaseOwned(`site:${jobId}`);
  }

  async release(keyId: string, jobId: string, entrySeq: number): Promise<void> {
    await this.#deps.ledger.release(keyId, PageHolds.holdId(jobId, entrySeq));
  }
}
