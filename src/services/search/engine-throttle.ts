/**
 * Politeness towards engines that punish bursts. DuckDuckGo answers scrapers that send
 * several requests at once or in quick succession with its anomaly (CAPTCHA) page, so its
 * requests go one at a time with a minimum gap between starts. Brave's API plans have a
 * per-second rate (free: 1/s) and answer 429 above it, so its request starts are spaced.
 * Each engine has a FIFO lane; a queued call still obeys its time budget and the caller's
 * abort signal, and leaves the queue when either fires.
 */
import { Lane, type ReleaseSlot } from '../../core/lane.js';
import type { EngineId } from '../../engines/types.js';

export interface ThrottleOptions {
  duckduckgoIntervalMs: number;
  braveRatePerSecond: number;
  now?: () => number;
}

/** The lanes of every throttled engine; other engines pass straight through. */
export class EngineThrottle {
  readonly #lanes: Partial<Record<EngineId, Lane>>;
  /** Other engines: no cap, no gap, but an aborted call fails as a throttled one does. */
  readonly #passThrough = new Lane({ maxConcurrent: Infinity, intervalMs: 0 });

  constructor(options: ThrottleOptions) {
    const now = options.now;
    this.#lanes = {
      duckduckgo: new Lane({ maxConcurrent: 1, intervalMs: options.duckduckgoIntervalMs }, now),
      brave: new Lane({ maxConcurrent: Infinity, intervalMs: 1000 / options.braveRatePerSecond }, now),
    };
  }

  acquire(id: EngineId, signal?: AbortSignal): Promise<ReleaseSlot> {
    return (this.#lanes[id] ?? this.#passThrough).acquire(signal);
  }
}
