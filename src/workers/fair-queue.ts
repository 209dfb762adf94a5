/**
 * Turns at the conversion workers, key by key (docs/decisions.md, "Limits and
 * politeness"): `slots` tasks run at once (one a worker), and the others wait in a FIFO
 * lane of their own key. A freed slot goes to the waiting lane with the fewest tasks
 * running, and among those to the one served longest ago: a key that queued a hundred
 * pages holds no more than its share of the workers while another key waits, and that
 * key's one page starts as soon as any worker is free. `maxWaiting` bounds the waiting
 * tasks of all lanes together; when full, a key with fewer waiting than the longest lane
 * takes the place of that lane's newest task (which fails `busy`), so one key cannot fill
 * the queue for every other either. A waiting task whose signal fires (its deadline, its
 * request's cancellation) leaves its lane.
 */
import { AppError } from '../core/errors.js';

/** Gives the slot back; calling it more than once is harmless. */
export type ReleaseSlot = () => void;

export interface FairQueueOptions {
  /** Tasks running at once. */
  slots: number;
  /** Tasks waiting at once, every lane together. */
  maxWaiting: number;
}

/** Why a task was refused a place: the queue was full, or its place went to another key. */
export type Refusal = 'full' | 'displaced';

interface Waiter {
  readonly lane: Lane;
  resolve(release: ReleaseSlot): void;
  reject(error: unknown): void;
  detach(): void;
}

/** One key's tasks: those waiting, in order, and how many of its tasks run. */
interface Lane {
  readonly name: string;
  readonly waiting: Waiter[];
  running: number;
  /** When it last got a slot (the queue's count of slots given); -1 before its first. */
  served: number;
}

export class FairQueue {
  readonly #options: FairQueueOptions;
  /** The lanes with a task waiting or running. */
  readonly #lanes = new Map<string, Lane>();
  #active = 0;
  #waiting = 0;
  /** Slots given so far: the clock of `Lane.served`. */
  #given = 0;

  constructor(options: FairQueueOptions) {
    this.#options = options;
  }

  /**
   * A slot for a task of `lane`: at once when one is free and nobody waits, else in the
   * lane's turn. Rejects with the signal's reason when it fires first, or with
   * `refused(why)` when the queue has no place for it (or gives its place away).
   */
  acquire(lane: string, signal: AbortSignal, refused: (why: Refusal) => AppError): Promise<ReleaseSlot> {
    if (signal.aborted) return Promise.reject(abortReason(signal));
    const own = this.#lane(lane);
    if (this.#active < this.#options.slots && this.#waiting === 0) return Promise.resolve(this.#start(own));
    if (this.#waiting >= this.#options.maxWaiting && !this.#displaceFor(own, refused)) {
      this.#forget(own);
      return Promise.reject(refused('full'));
    }
    return new Promise<ReleaseSlot>((resolve, reject) => {
      const onAbort = (): void => {
        this.#remove(waiter);
        reject(abortReason(signal));
      };
      const waiter: Waiter = { lane: own, resolve, reject, detach: () => signal.removeEventListener('abort', onAbort) };
      signal.addEventListener('abort', onAbort, { once: true });
      own.waiting.push(waiter);
      this.#waiting++;
      this.#pump();
    });
  }

  /** Tasks holding a slot. */
  get active(): number {
    return this.#active;
  }

  /** Tasks waiting, every lane together. */
  get waiting(): number {
    return this.#waiting;
  }

  /** Tasks of `lane` waiting (tests, diagnostics). */
  waitingIn(lane: string): number {
    return this.#lanes.get(lane)?.waiting.length ?? 0;
  }

  /** Refuses every waiting task (the pool is closing). */
  refuseAll(error: () => AppError): void {
    for (const lane of [...this.#lanes.values()])
      for (const waiter of lane.waiting.splice(0)) {
        this.#waiting--;
        waiter.detach();
        waiter.reject(error());
        this.#forget(lane);
      }
  }

  #lane(name: string): Lane {
    let lane = this.#lanes.get(name);
    if (lane === undefined) this.#lanes.set(name, (lane = { name, waiting: [], running: 0, served: -1 }));
    return lane;
  }

  /** Drops a lane with nothing waiting or running: a key that comes back is as new. */
  #forget(lane: Lane): void {
    if (lane.running === 0 && lane.waiting.length === 0) this.#lanes.delete(lane.name);
  }

  #start(lane: Lane): ReleaseSlot {
    this.#active++;
    lane.running++;
    lane.served = this.#given++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.#active--;
      lane.running--;
      this.#forget(lane);
      this.#pump();
    };
  }

  /** Starts waiting tasks while slots are free, each from the lane whose turn it is. */
  #pump(): void {
    while (this.#active < this.#options.slots && this.#waiting > 0) {
      const lane = this.#nextLane();
      const waiter = lane.waiting.shift() as Waiter;
      this.#waiting--;
      waiter.detach();
      waiter.resolve(this.#start(lane));
    }
  }

  /** The waiting lane with the fewest tasks running; of those, the one served longest ago. */
  #nextLane(): Lane {
    let next: Lane | undefined;
    for (const lane of this.#lanes.values()) {
      if (lane.waiting.length === 0) continue;
      if (
        next === undefined ||
        lane.running < next.running ||
        (lane.running === next.running && lane.served < next.served)
      )
        next = lane;
    }
    return next as Lane;
  }

  /**
   * The queue is full: the longest lane gives its newest task's place to `own` when it
   * holds at least two more than `own` (a tie would only swap places back and forth).
   */
  #displaceFor(own: Lane, refused: (why: Refusal) => AppError): boolean {
    let longest: Lane | undefined;
    for (const lane of this.#lanes.values()) if (lane.waiting.length > (longest?.waiting.length ?? 0)) longest = lane;
    if (longest === undefined || longest.waiting.length < own.waiting.length + 2) return false;
    const victim = longest.waiting[longest.waiting.length - 1] as Waiter;
    this.#remove(victim);
    victim.reject(refused('displaced'));
    return true;
  }

  #remove(waiter: Waiter): void {
    waiter.detach();
    const { lane } = waiter;
    const at = lane.waiting.indexOf(waiter);
    if (at < 0) return;
    lane.waiting.splice(at, 1);
    this.#waiting--;
    this.#forget(lane);
  }
}

function abortReason(signal: AbortSignal): unknown {
  return signal.reason instanceof AppError
    ? signal.reason
    : new AppError('cancelled', 'The request was cancelled by the caller.');
}
