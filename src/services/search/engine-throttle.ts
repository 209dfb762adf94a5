/**
 * Politeness towards engines that punish bursts. DuckDuckGo answers scrapers that send
 * several requests at once or in quick succession with its anomaly (CAPTCHA) page, so its
 * requests go one at a time with a minimum gap between starts. Brave's API plans have a
 * per-second rate (free: 1/s) and answer 429 above it, so its request starts are spaced.
 * Each engine has a FIFO lane; a queued call still obeys its time budget and the caller's
 * abort signal, and leaves the queue when either fires.
 */
import { AppError } from '../../core/errors.js';
import type { EngineId } from '../../engines/types.js';

/** Gives the slot back; calling it more than once is harmless. */
export type ReleaseSlot = () => void;

export interface LaneRule {
  /** Requests in flight at once (Infinity for no cap). */
  maxConcurrent: number;
  /** Minimum milliseconds between two request starts. */
  intervalMs: number;
}

interface Waiter {
  resolve(release: ReleaseSlot): void;
  reject(error: unknown): void;
  detach(): void;
}

/** One engine's queue. Exported for unit tests; the service uses EngineThrottle. */
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

  /** Waits for a slot (FIFO). Rejects with the signal's reason when it aborts first. */
  acquire(signal?: AbortSignal): Promise<ReleaseSlot> {
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

  #pump(): void {
    if (this.#timer !== undefined) {
      clearTimeout(this.#timer);
      this.#timer = undefined;
    }
    while (this.#queue.length > 0 && this.#active < this.#rule.maxConcurrent) {
      const wait = this.#lastStart + this.#rule.intervalMs - this.#now();
      if (wait > 0) {
        this.#timer = setTimeout(() => {
          this.#timer = undefined;
          this.#pump();
        }, Math.ceil(wait));
        return;
      }
      const waiter = this.#queue.shift() as Waiter;
      waiter.detach();
      this.#active++;
      this.#lastStart = this.#now();
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

export interface ThrottleOptions {
  duckduckgoIntervalMs: number;
  braveRatePerSecond: number;
  now?: () => number;
}

/** The lanes of every throttled engine; other engines pass straight through. */
export class EngineThrottle {
  readonly #lanes: Partial<Record<EngineId, Lane>>;

  constructor(options: ThrottleOptions) {
    const now = options.now;
    this.#lanes = {
      duckduckgo: new Lane({ maxConcurrent: 1, intervalMs: options.duckduckgoIntervalMs }, now),
      brave: new Lane({ maxConcurrent: Infinity, intervalMs: 1000 / options.braveRatePerSecond }, now),
    };
  }

  acquire(id: EngineId, signal?: AbortSignal): Promise<ReleaseSlot> {
    const lane = this.#lanes[id];
    if (lane === undefined) {
      if (signal?.aborted) return Promise.reject(abortReason(signal));
      return Promise.resolve(noop);
    }
    return lane.acquire(signal);
  }
}

const noop: ReleaseSlot = () => undefined;
