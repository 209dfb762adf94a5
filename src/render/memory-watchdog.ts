/**
 * The browser's memory bound, outside the browser. The renderers' V8 heap is capped by a
 * launch flag (a page whose scripts pass it crashes: "Target crashed"), but a page also
 * holds memory V8 does not count (ArrayBuffers, DOM, images, canvases). So while renders
 * are in flight the browser's process tree is sampled from /proc every SAMPLE_MS:
 *  - a renderer process past the per-page bound is killed (its page crashes, the render
 *    fails `too_large`, the browser goes on);
 *  - the whole tree past the total bound gets the whole browser killed (every render in
 *    flight fails `too_large`; the next render launches a fresh one).
 * A render asks, when its page crashed or its browser went away, whether a bound did it.
 * Memory is the proportional set size where the kernel gives it (process-tree.ts).
 */
import type { Logger } from '../core/logger.js';
import type { ProcessInfo } from './process-tree.js';

/** How often the tree is sampled while a render runs: a page allocating fast gains ~100 MB in this time. */
const SAMPLE_MS = 100;
const MiB = 1024 * 1024;

export interface MemoryBounds {
  /** V8 heap of one renderer (the --max-old-space-size flag), bytes. */
  heapBytes: number;
  /** Memory of one renderer process, bytes. */
  pageBytes: number;
  /** Memory of the browser's whole process tree, bytes. */
  totalBytes: number;
}

/** Why a render's page or browser went away, when a bound did it. */
export interface MemoryVerdict {
  bound: 'heap' | 'page' | 'total';
  message: string;
}

export interface RenderWatch {
  /**
   * The bound that ended this render, if one did: a kill recorded since the watch began, else
   * (when the page's renderer crashed) the heap cap. Chromium on Linux reports a V8
   * out-of-memory crash like any other renderer crash (SIGTRAP), and a page allocating fast
   * fills its heap between two samples (128 MB in ~150 ms): a renderer that crashed under
   * a page is taken for one that ran out of its heap, the one way a page makes it crash.
   */
  verdict(crashed: boolean): MemoryVerdict | undefined;
  release(): void;
}

export interface MemoryWatchdogOptions {
  bounds: MemoryBounds;
  /** The browser's processes, its main process first (empty when none runs). */
  tree: () => ProcessInfo[];
  logger: Logger;
}

export class MemoryWatchdog {
  readonly #options: MemoryWatchdogOptions;
  readonly #watches = new Set<{ events: MemoryVerdict[] }>();
  #timer: NodeJS.Timeout | undefined;
  #peak = 0;

  constructor(options: MemoryWatchdogOptions) {
    this.#options = options;
  }

  /** The largest tree seen (bytes), for logs and benchmarks. */
  peak(): number {
    return this.#peak;
  }

  /** Watches the browser for the length of one render. */
  watch(): RenderWatch {
    const entry = { events: [] as MemoryVerdict[] };
    this.#watches.add(entry);
    if (!this.#timer) {
      this.#timer = setInterval(() => this.#sample(), SAMPLE_MS);
      this.#timer.unref();
    }
    return {
      verdict: (crashed) => entry.events[0] ?? (crashed ? this.#heapCrash() : undefined),
      release: () => {
        this.#watches.delete(entry);
        if (this.#watches.size === 0) this.stop();
      },
    };
  }

  stop(): void {
    clearInterval(this.#timer);
    this.#timer = undefined;
  }

  #record(event: MemoryVerdict): void {
    for (const watch of this.#watches) watch.events.push(event);
  }

  #sample(): void {
    const { bounds, logger } = this.#options;
    const tree = this.#options.tree();
    let total = tree.reduce((sum, p) => sum + p.rss, 0);
    this.#peak = Math.max(this.#peak, total);
    // Pages past their own bound first: a sample that comes late (a starved event loop) and
    // finds one page past both bounds stops that page, not every page of the browser.
    for (const p of tree) {
      if (!p.cmdline.includes('--type=renderer') || p.rss <= bounds.pageBytes) continue;
      logger.warn({ pid: p.pid, bytes: p.rss, bound: bounds.pageBytes }, 'page past its memory bound: renderer killed');
      this.#record({
        bound: 'page',
        message: `the page passed the per-page memory bound of ${mb(bounds.pageBytes)} (at ${mb(p.rss)}, WEBSEARCH_RENDER_PAGE_MEMORY_MB); its renderer was stopped`,
      });
      kill(p.pid);
      total -= p.rss;
    }
    if (total > bounds.totalBytes) {
      const message = `the browser's processes passed the total memory bound of ${mb(bounds.totalBytes)} (at ${mb(total)}, WEBSEARCH_RENDER_MEMORY_MB); the browser was stopped and restarts for the next page`;
      logger.warn({ bytes: total, bound: bounds.totalBytes }, 'browser past its total memory bound: killed');
      this.#record({ bound: 'total', message });
      // Every process at once, so the memory is back now: Playwright sees the browser gone
      // and the host launches a fresh one for the next render.
      for (const p of tree) kill(p.pid);
    }
  }

  #heapCrash(): MemoryVerdict {
    return {
      bound: 'heap',
      message: `its renderer crashed: the page's scripts ran out of the ${mb(this.#options.bounds.heapBytes)} JavaScript heap a page may use (WEBSEARCH_RENDER_HEAP_MB)`,
    };
  }
}

function kill(pid: number): void {
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    // Already gone.
  }
}

function mb(bytes: number): string {
  return `${Math.round(bytes / MiB)} MB`;
}
