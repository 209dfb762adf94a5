/**
 * The rate-window port: fixed-window request counters, shared so that a key's rate limit
 * holds across instances.
 */

export interface RateLimitHit {
  /** Requests counted in the current window, this one included. */
  count: number;
  /** Epoch ms at which the current window ends. */
  resetAt: number;
}

export interface RateWindowStore {
  /** Counts one request in the fixed window of `windowMs` that holds `now`. */
  hitRateLimit(bucket: string, windowMs: number, now: number): Promise<RateLimitHit>;
}
