/**
 * One AbortSignal that fires at a deadline OR when its parent's signal fires, remembering
 * which came first as an AppError (`timeout` or `cancelled`). The request's context is
 * one (its parent: the client's disconnect); a fetch, a render, a conversion, an engine
 * call or the content phase of a search each open one under it, so each stops at the
 * request's deadline, or at its own shorter budget, without computing either again.
 */
import { setMaxListeners } from 'node:events';
import { AppError } from './errors.js';

/** What a scope stops with: a deadline (epoch ms) and the signal of whatever it belongs to. */
export interface DeadlineParent {
  readonly deadline: number;
  readonly signal: AbortSignal;
}

export interface DeadlineScopeOptions {
  /** A budget of its own (an engine call, the content phase): the scope ends at whichever comes first. */
  budgetMs?: number;
  /** The error when the deadline passes; given the milliseconds the scope had. */
  timeout?: (ms: number) => AppError;
  /** The error when the parent was cancelled (the client went away). */
  cancelled?: (cause: unknown) => AppError;
}

/**
 * Now, in epoch milliseconds, from the monotonic clock: a deadline neither jumps with the
 * wall clock nor loses the fraction of a millisecond a message's "within N ms" rounds.
 */
export function now(): number {
  return performance.timeOrigin + performance.now();
}

/**
 * Scopes open side by side under one: a request's 20 pages (each a fetch and a robots.txt
 * check) and six engines. Node warns of a leak past 10 listeners; past this it still does.
 */
const MAX_CHILDREN = 100;

/** setTimeout fires at once for delays above 2^31-1 ms; never let a deadline wrap around. */
const MAX_TIMER_MS = 2_147_483_647;

/** Whether an abort reason is a deadline that passed (ours, from any scope), not a cancellation. */
export function isTimeout(reason: unknown): boolean {
  return reason instanceof AppError && reason.code === 'timeout';
}

export class DeadlineScope implements DeadlineParent {
  /** Epoch ms: the parent's deadline, or the scope's own budget when that ends first. */
  readonly deadline: number;
  /** The milliseconds the scope had when it opened (messages). */
  readonly ms: number;
  readonly #controller = new AbortController();
  readonly #timer: NodeJS.Timeout | undefined;
  readonly #parent: AbortSignal;
  readonly #options: DeadlineScopeOptions;
  readonly #onParentAbort = (): void => this.#abort(isTimeout(this.#parent.reason) ? 'timeout' : 'cancelled');
  #failure: AppError | undefined;

  constructor(parent: DeadlineParent, options: DeadlineScopeOptions = {}) {
    this.#options = options;
    this.#parent = parent.signal;
    const opened = now();
    this.deadline = Math.min(parent.deadline, options.budgetMs === undefined ? Infinity : opened + options.budgetMs);
    this.ms = Math.max(0, Math.round(this.deadline - opened));
    setMaxListeners(MAX_CHILDREN, this.#controller.signal);
    // A scope ending with its parent scope fires with it: a timer of its own would race the
    // parent's and could report its own message for the parent's budget.
    this.#timer =
      parent instanceof DeadlineScope && this.deadline >= parent.deadline
        ? undefined
        : setTimeout(() => this.#abort('timeout'), Math.min(this.ms, MAX_TIMER_MS));
    if (this.#parent.aborted) this.#onParentAbort();
    else this.#parent.addEventListener('abort', this.#onParentAbort, { once: true });
  }

  get signal(): AbortSignal {
    return this.#controller.signal;
  }

  /** The error to report when the scope was aborted (timeout or cancellation), else undefined. */
  get failure(): AppError | undefined {
    return this.#failure;
  }

  /** Throws the scope's failure if it already fired (cheap check between steps). */
  throwIfAborted(): void {
    if (this.#failure) throw this.#failure;
  }

  #abort(why: 'timeout' | 'cancelled'): void {
    if (this.#failure) return;
    const { timeout, cancelled } = this.#options;
    this.#failure =
      why === 'timeout'
        ? (timeout?.(this.ms) ??
          new AppError('timeout', `no complete response within ${this.ms} ms`, { retryable: true }))
        : (cancelled?.(this.#parent.reason) ??
          new AppError('cancelled', 'request cancelled by the caller', { cause: this.#parent.reason }));
    // Aborting makes undici destroy the socket and the body stream (no leaked sockets).
    this.#controller.abort(this.#failure);
  }

  /** Clears the timer and lets go of the parent; the signal keeps whatever state it has. */
  dispose(): void {
    clearTimeout(this.#timer);
    this.#parent.removeEventListener('abort', this.#onParentAbort);
  }
}
