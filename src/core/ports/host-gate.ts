/**
 * The host gate port: politeness towards one host held by the whole fleet, not per
 * instance. At most `limit` holders of a host at once (WEBSEARCH_FETCH_PER_HOST) and its
 * starts spaced by `delayMs` (robots.txt's Crawl-delay), counted across every instance
 * that shares the store. Two adapters: in-process (store/in-process-host-gate.ts, the
 * SQLite and memory stores: one process) and Redis (store/redis/redis-host-gate.ts: slots
 * leased, so an instance that dies frees its slots when their leases end).
 */

/**
 * How long a paced start is remembered at least (its own delay when longer): a caller
 * whose delay is longer than the previous caller's (robots.txt changed) still waits from it.
 */
export const HOST_START_MEMORY_MS = 60_000;

export interface HostGateRequest {
  /** Holders of the host at once, across every instance: a positive integer. */
  limit: number;
  /**
   * Milliseconds at least between this start and the previous paced start on the host. 0:
   * no spacing: the start neither waits for the spacing nor counts in it.
   */
  delayMs: number;
  /** Stops the wait: `acquire` then rejects with its reason and takes nothing. */
  signal: AbortSignal;
}

export interface HostPass {
  /**
   * Gives the slot back. Idempotent; never rejects: a slot the store could not be told of
   * frees itself when its lease ends.
   */
  release(): Promise<void>;
}

export interface HostGate {
  /**
   * Resolves with a pass once fewer than `limit` holders hold `host` (host:port, the
   * fetcher's key) across every instance and, when `delayMs` > 0, at least `delayMs` passed
   * since the previous paced start on it. Rejects with the signal's reason (an AppError
   * 'cancelled' when that is not an Error) when the signal aborts first, holding nothing
   * then; with a RangeError for a limit or delay out of range.
   */
  acquire(host: string, request: HostGateRequest): Promise<HostPass>;
}

/** The request's bounds, checked by every adapter before it waits. */
export function checkHostGateRequest({ limit, delayMs }: HostGateRequest): void {
  if (!Number.isInteger(limit) || limit < 1)
    throw new RangeError(`a host's limit must be a positive integer, got ${limit}`);
  if (!Number.isFinite(delayMs) || delayMs < 0)
    throw new RangeError(`a host's delay must be a finite number of milliseconds >= 0, got ${delayMs}`);
}
