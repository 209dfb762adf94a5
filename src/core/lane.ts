/**
 * A lane: at most `maxConcurrent` holders, and a minimum gap between two starts, waiters
 * started in arrival order. The engines' politeness (services/search/engine-throttle.ts)
 * and a host's slots and spacing in the stores' in-process host gate
 * (store/in-process-host-gate.ts). A queued call leaves the queue when its signal aborts.
 */
import { AppError } from './errors.js';

/** Gives the slot back; calling it more than once is harmless. */
export type ReleaseSlot = () => void;

export interface LaneRule {
  /** Requests in flight at once (Infinity for no cap). */
  maxConcurrent: number;
  /** Minimum milliseconds between two request starts; 0: a start that neither waits nor counts. */
  intervalMs: number;
}

interface Waiter {
  /** This call's rule: the lane's, or its own (a host gate's callers each bring theirs). */
  rule: LaneRule;
  resolve(release: ReleaseSlot): void;
  reject(error: unknown): void;
  detach(): void;
}

/** One queue: an engine's (EngineThrottle), or a host's (the in-process host gate). */
export class Lane {
  readonly #rule: LaneRule;
  readonly #now: () => number;
  readonly #queue: Waiter[] = [];
  #active = 0;
  #lastStart = -Infinity;
  #timer: NodeJS.Timeout | undefined;

  constructor(rule: LaneRule, now: () => number = () => performance.now()) {
    this.#rule = rule;
    this.#now = now;
  }

  /**
   * Waits for a slot under `rule` (the lane's unless given). Waiters start in arrival order;
   * one another's rule holds back (a smaller cap, a longer gap) lets a later one pass. Rejects
   * with the signal's reason when it aborts first.
   */
  acquire(signal?: AbortSignal, rule: LaneRule = this.#rule): Promise<ReleaseSlot> {
    if (signal?.aborted) return Promise.reject(abortReason(signal));
    return new Promise<ReleaseSlot>((resolve, reject) => {
      const onAbort = (): void => {
        const at = this.#queue.indexOf(waiter);
        if (at >= 0) this.#queue.splice(at, 1);
        reject(abortReason(signal as AbortSignal));
        // The head may have left: the next one might be startable now.
        this.#pump();
      };
      const waiter: Waiter = {
        rule,
        resolve,
        reject,
        detach: () => signal?.removeEventListener('abort', onAbort),
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.#queue.push(waiter);
      this.#pump();
    });
  }

  /** Number of calls waiting (tests, diagnostics). */
  get waiting(): number {
    return this.#queue.length;
  }

  /** Number of slots held. */
  get active(): number {
    return this.#active;
  }

  #pump(): void {
    if (this.#timer !== undefined) {
      clearTimeout(this.#timer);
      this.#timer = undefined;
    }
    for (;;) {
      const now = this.#now();
      // The first waiter that may start now; else how soon one's gap ends (a release also pumps).
      let soonest = Infinity;
      const at = this.#queue.findIndex(({ rule }) => {
        if (this.#active >= rule.maxConcurrent) return false;
        const wait = rule.intervalMs > 0 ? this.#lastStart + rule.intervalMs - now : 0;
        soonest = Math.min(soonest, wait);
        return wait <= 0;
      });
      if (at < 0) {
        if (soonest < Infinity) {
          this.#timer = setTimeout(() => {
            this.#timer = undefined;
            this.#pump();
          }, Math.ceil(soonest));
        }
        return;
      }
      const [waiter] = this.#queue.splice(at, 1) as [Waiter];
      waiter.detach();
      this.#active++;
      if (waiter.rule.intervalMs > 0) this.#lastStart = now;
      let released = false;
      waiter.resolve(() => {
        if (released) return;
        released = true;
        this.#active--;
        this.#pump();
      });
    }
  }
}

function abortReason(signal: AbortSignal): unknown {
  return signal.reason instanceof AppError
    ? signal.reason
    : new AppError('cancelled', 'request cancelled by the caller');
}
