/**
 * The memory bounds of pages on a remote browser, as far as DevTools shows them: its
 * processes are on another machine, out of /proc's sight (memory-watchdog.ts is the local
 * browser's). While a page renders, its own DevTools session is asked for its renderer's heap
 * (`Runtime.getHeapUsage`) every SAMPLE_MS:
 *  - the JavaScript heap (V8's used size) past the heap bound, or that heap plus the backing
 *    stores of ArrayBuffers and external strings plus Blink's traced heap past the per-page
 *    bound: the page's context is closed (its renderer goes with it) and the render fails
 *    `too_large`, naming the bound;
 *  - this server's pages on the browser past the total bound together: all of them are
 *    closed (the browser is the farm's, and stays).
 * What this cannot see: DOM and layout outside Blink's traced heap, images, canvases, GPU
 * memory, cross-site frames (renderers of their own), the remote browser's own processes;
 * and a page inside one long task (a synchronous allocation loop) answers no sample until
 * it yields, so it is bounded by the remote browser's own heap limit and the deadline.
 */
import type { Logger } from '../core/logger.js';
import type { MemoryBounds, MemoryVerdict, RenderWatch } from './memory-watchdog.js';
import type { PooledPage } from './page-pool.js';

/** How often a rendering page is sampled (each sample is a DevTools round trip to the farm). */
const SAMPLE_MS = 50;
const MiB = 1024 * 1024;

export interface PageMemoryWatchOptions {
  bounds: MemoryBounds;
  /** Closes a page past a bound (its context: the renderer goes with it). */
  stop: (pooled: PooledPage) => Promise<void>;
  logger: Logger;
}

interface Watched {
  pooled: PooledPage;
  /** The page's last reading (bytes), for the total. */
  bytes: number;
  events: MemoryVerdict[];
  released: boolean;
}

export class PageMemoryWatch {
  readonly #options: PageMemoryWatchOptions;
  readonly #watched = new Set<Watched>();

  constructor(options: PageMemoryWatchOptions) {
    this.#options = options;
  }

  /** Samples `pooled` for the length of one render. */
  watch(pooled: PooledPage): RenderWatch {
    const entry: Watched = { pooled, bytes: 0, events: [], released: false };
    this.#watched.add(entry);
    void this.#sample(entry);
    return {
      verdict: (crashed) => entry.events[0] ?? (crashed ? crashVerdict() : undefined),
      release: () => {
        entry.released = true;
        this.#watched.delete(entry);
      },
    };
  }

  /** One sample after another (never two at once on a page) until the render ends or the page goes. */
  async #sample(entry: Watched): Promise<void> {
    const { bounds, logger } = this.#options;
    while (!entry.released) {
      let heap: { usedSize: number; embedderHeapUsedSize?: number; backingStorageSize?: number };
      try {
        heap = await entry.pooled.cdp.send('Runtime.getHeapUsage');
      } catch {
        return; // the page closed (deadline, crash, a bound): nothing left to watch
      }
      if (entry.released) return;
      const used = heap.usedSize;
      entry.bytes = used + (heap.embedderHeapUsedSize ?? 0) + (heap.backingStorageSize ?? 0);
      if (used > bounds.heapBytes) {
        logger.warn({ bytes: used, bound: bounds.heapBytes }, 'remote page past the heap bound: its context closed');
        return this.#stopPage(entry, {
          bound: 'heap',
          message: `its JavaScript heap reached ${mb(used)}, past the ${mb(bounds.heapBytes)} a page may use (WEBSEARCH_RENDER_HEAP_MB); the page was closed on the remote browser`,
        });
      }
      if (entry.bytes > bounds.pageBytes) {
        logger.warn(
          { bytes: entry.bytes, bound: bounds.pageBytes },
          'remote page past its memory bound: its context closed',
        );
        return this.#stopPage(entry, {
          bound: 'page',
          message: `its scripts held ${mb(entry.bytes)} (JavaScript heap, array buffers, DOM objects), past the per-page memory bound of ${mb(bounds.pageBytes)} (WEBSEARCH_RENDER_PAGE_MEMORY_MB); the page was closed on the remote browser`,
        });
      }
      const total = [...this.#watched].reduce((sum, watched) => sum + watched.bytes, 0);
      if (total > bounds.totalBytes) {
        logger.warn(
          { bytes: total, bound: bounds.totalBytes },
          "this server's remote pages past the total bound: closed",
        );
        const event: MemoryVerdict = {
          bound: 'total',
          message: `this server's pages on the remote browser held ${mb(total)} together, past the total memory bound of ${mb(bounds.totalBytes)} (WEBSEARCH_RENDER_MEMORY_MB); they were closed`,
        };
        await Promise.all([...this.#watched].map((watched) => this.#stopPage(watched, event)));
        return;
      }
      await new Promise((resolve) => setTimeout(resolve, SAMPLE_MS).unref());
    }
  }

  async #stopPage(entry: Watched, event: MemoryVerdict): Promise<void> {
    entry.events.push(event);
    // Counted no more: its memory is on its way back.
    entry.bytes = 0;
    await this.#options.stop(entry.pooled);
  }
}

/**
 * Chromium reports a renderer that ran out of memory like any other crash, and the remote
 * browser's limits are its own (its launch flags): a page's renderer that crashed under a
 * live browser is taken for one that ran out of memory there, the one way a page makes it crash.
 */
function crashVerdict(): MemoryVerdict {
  return {
    bound: 'heap',
    message:
      "its renderer crashed on the remote browser: taken for the page's scripts running out of the memory the remote browser allows a page",
  };
}

function mb(bytes: number): string {
  return `${Math.round(bytes / MiB)} MB`;
}
