/**
 * Politeness between a crawl's requests to one host beyond the fetcher's per-host limit:
 * robots.txt's `Crawl-delay` (not in RFC 9309; the de-facto seconds between requests), cut
 * at WEBSEARCH_SITE_MAX_CRAWL_DELAY_MS. Each host gets a lane of the engines' throttle
 * (search/engine-throttle.ts: FIFO, a minimum gap between starts, left when the signal
 * aborts), so requests in parallel are spaced too.
 */
import { Lane } from '../search/engine-throttle.js';

export class HostPacing {
  readonly #lanes = new Map<string, { lane: Lane; delayMs: number }>();

  /** Resolves when a request to `host` may start, `delayMs` after the previous one; rejects when `signal` aborts. */
  async wait(host: string, delayMs: number, signal: AbortSignal): Promise<void> {
    if (delayMs <= 0) return;
    let paced = this.#lanes.get(host);
    if (paced?.delayMs !== delayMs) {
      paced = { lane: new Lane({ maxConcurrent: Infinity, intervalMs: delayMs }), delayMs };
      this.#lanes.set(host, paced);
    }
    const release = await paced.lane.acquire(signal);
    release();
  }
}
