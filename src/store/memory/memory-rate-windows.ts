import type { RateLimitHit, RateWindowStore } from '../../core/ports/rate-window-store.js';
import type { MemoryLifetime } from './memory-lifetime.js';

export class MemoryRateWindows implements RateWindowStore {
  readonly #windows = new Map<string, RateLimitHit>();
  readonly #lifetime: MemoryLifetime;

  constructor(lifetime: MemoryLifetime) {
    this.#lifetime = lifetime;
  }

  async hitRateLimit(bucket: string, windowMs: number, now: number): Promise<RateLimitHit> {
    this.#lifetime.check();
    const start = now - (now % windowMs);
    const current = this.#windows.get(bucket);
    const hit =
      current && current.resetAt === start + windowMs
        ? { count: current.count + 1, resetAt: current.resetAt }
        : { count: 1, resetAt: start + windowMs };
    this.#windows.set(bucket, hit);
    return { ...hit };
  }
}
