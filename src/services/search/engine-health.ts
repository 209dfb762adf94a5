/**
 * Per-engine suspension. An engine that showed a CAPTCHA or refused us (blocked), or that
 * rate-limited us, is left alone for a while: asking again at once only prolongs a block
 * and burns a quota, and the other engines can still answer. With a shared store the
 * suspension holds on every instance (a CAPTCHA'd engine rests everywhere); a local copy
 * spares the store a query per call while it lasts. The clock is injectable for tests.
 */
import type { AppError } from '../../core/errors.js';
import type { SuspensionStore } from '../../core/ports/suspension-store.js';
import type { EngineId } from '../../engines/types.js';

export type SuspensionReason = 'blocked' | 'rate_limited';

export interface Suspension {
  reason: SuspensionReason;
  /** Epoch ms at which the engine may be asked again. */
  until: number;
  /** What the engine said when it was suspended. */
  cause: string;
}

export interface EngineHealthOptions {
  suspendBlockedMs: number;
  suspendRateLimitedMs: number;
  now?: () => number;
  /** Shares suspensions between instances; without it they live in this process only. */
  store?: SuspensionStore;
}

/** A Retry-After beyond this is treated as this (a day, the longest configurable suspension). */
const MAX_RETRY_AFTER_MS = 24 * 3600_000;

export class EngineHealth {
  readonly #options: EngineHealthOptions;
  readonly #now: () => number;
  readonly #suspended = new Map<EngineId, Suspension>();

  constructor(options: EngineHealthOptions) {
    this.#options = options;
    this.#now = options.now ?? Date.now;
  }

  /** The engine's active suspension, or undefined when it may be called. */
  async check(id: EngineId): Promise<Suspension | undefined> {
    const now = this.#now();
    const local = this.#suspended.get(id);
    if (local !== undefined && now < local.until) return local;
    this.#suspended.delete(id);
    const shared = await this.#options.store?.getSuspension(id, now);
    if (shared === undefined || now >= shared.until) return undefined;
    this.#suspended.set(id, shared);
    return shared;
  }

  /**
   * Records a failed call. 'blocked' suspends for suspendBlockedMs; 'rate_limited' for the
   * engine's Retry-After when it sent one, else suspendRateLimitedMs. Other failures
   * (timeouts, 5xx, malformed pages) are transient or ours and suspend nothing.
   * Returns the suspension placed, if any.
   */
  async recordFailure(id: EngineId, error: AppError): Promise<Suspension | undefined> {
    let reason: SuspensionReason;
    let ms: number;
    if (error.code === 'blocked') {
      reason = 'blocked';
      ms = this.#options.suspendBlockedMs;
    } else if (error.code === 'rate_limited') {
      reason = 'rate_limited';
      ms =
        error.retryAfter !== undefined
          ? Math.min(error.retryAfter * 1000, MAX_RETRY_AFTER_MS)
          : this.#options.suspendRateLimitedMs;
    } else return undefined;
    if (!(ms > 0)) return undefined;
    const until = this.#now() + ms;
    // Concurrent failures: keep the longest suspension.
    const current = this.#suspended.get(id);
    if (current && current.until >= until) return current;
    const suspension: Suspension = { reason, until, cause: error.message };
    this.#suspended.set(id, suspension);
    await this.#options.store?.putSuspension(id, suspension, this.#now());
    return suspension;
  }

  /** The failure message of a skipped engine: why and until when. */
  describe(id: EngineId, suspension: Suspension): string {
    const why = suspension.reason === 'blocked' ? 'it blocked the last request' : 'it rate-limited the last request';
    return `${id} is suspended until ${new Date(suspension.until).toISOString()} because ${why} (${suspension.cause})`;
  }

  /** Lifts every suspension (operators, tests). */
  async reset(): Promise<void> {
    this.#suspended.clear();
    await this.#options.store?.clearSuspensions();
  }
}
