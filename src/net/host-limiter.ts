/**
 * Per-host concurrency cap: a FIFO semaphore per key (host:port). Politeness towards one
 * site (docs/decisions.md, "Limits and politeness") and protection against one slow host
 * monopolising the connection pool. Entries are removed as soon as a key is idle, so the
 * map never grows with the number of hosts ever seen.
 */
import { abortReason } from '../core/abort-reason.js';

/** Gives the slot back; calling it more than once is harmless. */
export type Release = () => void;

interface Waiter {
  grant: (release: Release) => void;
}

interface Slot {
  active: number;
  queue: Waiter[];
}

export class HostLimiter {
  readonly #limit: number;
  readonly #slots = new Map<string, Slot>();

  constructor(limit: number) {
    if (!Number.isInteger(limit) || limit < 1)
      throw new RangeError(`per-host limit must be a positive integer, got ${limit}`);
    this.#limit = limit;
  }

  /** Number of requests holding a slot for `key` (tests, metrics). */
  active(key: string): number {
    return this.#slots.get(key)?.active ?? 0;
  }

  /** Number of requests waiting for a slot for `key`. */
  waiting(key: string): number {
    return this.#slots.get(key)?.queue.length ?? 0;
  }

  /**
   * Waits for a slot. Rejects with `signal.reason` (or an AppError 'cancelled') when the
   * signal aborts while queued; the waiter is then removed so it never takes a slot.
   */
  acquire(key: string, signal?: AbortSignal): Promise<Release> {
    if (signal?.aborted) return Promise.reject(abortReason(signal));
    let slot = this.#slots.get(key);
    if (!slot) {
      slot = { active: 0, queue: [] };
      this.#slots.set(key, slot);
    }
    if (slot.active < this.#limit) {
      slot.active++;
      return Promise.resolve(this.#releaser(key, slot));
    }
    const queued = slot;
    return new Promise<Release>((resolve, reject) => {
      const onAbort = (): void => {
        const index = queued.queue.indexOf(waiter);
        if (index >= 0) queued.queue.splice(index, 1);
        this.#dropIfIdle(key, queued);
        reject(abortReason(signal as AbortSignal));
      };
      const waiter: Waiter = {
        grant: (release) => {
          signal?.removeEventListener('abort', onAbort);
          resolve(release);
        },
      };
      queued.queue.push(waiter);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  #releaser(key: string, slot: Slot): Release {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = slot.queue.shift();
      // Hand the slot straight to the next waiter (FIFO): `active` stays the same.
      if (next) next.grant(this.#releaser(key, slot));
      else {
        slot.active--;
        this.#dropIfIdle(key, slot);
      }
    };
  }

  #dropIfIdle(key: string, slot: Slot): void {
    if (slot.active === 0 && slot.queue.length === 0 && this.#slots.get(key) === slot) this.#slots.delete(key);
  }
}
