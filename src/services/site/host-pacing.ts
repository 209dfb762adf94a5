/**
 * Politeness between one crawl's requests to one host beyond the fetcher's per-host limit:
 * robots.txt's `Crawl-delay` (not in RFC 9309; the de-facto seconds between requests), cut
 * at WEBSEARCH_SITE_MAX_CRAWL_DELAY_MS. Each request takes the next free slot of its host,
 * so requests in parallel are spaced too, and waits for it (cancelled with its signal).
 */
export class HostPacing {
  readonly #next = new Map<string, number>();
  readonly #now: () => number;

  constructor(now: () => number = Date.now) {
    this.#now = now;
  }

  /** Resolves when a request to `host` may start, `delayMs` after the previous one; rejects when `signal` aborts. */
  async wait(host: string, delayMs: number, signal: AbortSignal): Promise<void> {
    if (delayMs <= 0) return;
    const now = this.#now();
    const slot = Math.max(now, this.#next.get(host) ?? 0);
    this.#next.set(host, slot + delayMs);
    const ms = slot - now;
    if (ms <= 0) return;
    await new Promise<void>((resolve, reject) => {
      const onAbort = (): void => {
        clearTimeout(timer);
        reject(signal.reason);
      };
      const timer = setTimeout(() => {
        signal.removeEventListener('abort', onAbort);
        resolve();
      }, ms);
      if (signal.aborted) onAbort();
      else signal.addEventListener('abort', onAbort, { once: true });
    });
  }
}
