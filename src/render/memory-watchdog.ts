/**
 * The browser's memory bound, outside the browser. The renderers' V8 heap is capped by a
 * launch flag (a page whose scripts pass it crashes: "Target crashed"), but a page also
 * holds memory V8 does not count (ArrayBuffers, DOM, images, canvases). So while renders
 * are in flight the browser's process tree is sampled from /proc (process-tree.ts:
 * TreeSampler, ~1 ms a sample):
 *  - a renderer process past the per-page bound is killed (its page crashes, the render
 *    fails `too_large`, the browser goes on);
 *  - the whole tree past the total bound gets the whole browser killed (every render in
 *    flight fails `too_large`; the next render launches a fresh one).
 * A page in a tight allocation loop gains 1-3 GB/s, so a sample every SAMPLE_MS alone would
 * let it past a bound by that much again: the samples come every FAST_SAMPLE_MS while memory
 * grows fast or nears a bound, and a process is stopped when its growth since the last
 * sample, kept up until the next one, would take it past its bound (a projection over one
 * short period: a page that stops just short of the bound may be stopped too).
 * A render asks, when its page crashed or its browser went away, whether a bound did it.
 * Memory is the proportional set size where the kernel gives it (process-tree.ts).
 */
import type { Logger } from '../core/logger.js';
import type { ProcessInfo } from './process-tree.js';

/** How often the tree is sampled while a render runs and nothing grows fast. */
const SAMPLE_MS = 50;
/** ... and while a process grows fast or is near a bound. */
const FAST_SAMPLE_MS = 20;
const MiB = 1024 * 1024;
/** Growth of one process (bytes a second) past which the samples come faster: an allocation loop, not a page loading. */
const FAST_GROWTH = 100 * MiB;
/** The share of a bound past which the samples come faster. */
const NEAR = 0.8;

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
  /** Each process's memory at the last sample, for its growth. */
  #last = new Map<number, { bytes: number; at: number }>();
  /** Processes killed here: their memory is on its way back, counted by no bound again. */
  readonly #killed = new Set<number>();

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
    if (!this.#timer) this.#schedule(SAMPLE_MS);
    return {
      verdict: (crashed) => entry.events[0] ?? (crashed ? this.#heapCrash() : undefined),
      release: () => {
        this.#watches.delete(entry);
        if (this.#watches.size === 0) this.stop();
      },
    };
  }

  stop(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#last.clear();
  }

  #schedule(ms: number): void {
    this.#timer = setTimeout(() => {
      const next = this.#sample();
      if (this.#timer) this.#schedule(next);
    }, ms);
    this.#timer.unref();
  }

  #record(event: MemoryVerdict): void {
    for (const watch of this.#watches) watch.events.push(event);
  }

  /** One sample and its kills; returns when the next sample is due (ms). */
  #sample(): number {
    const { bounds, logger } = this.#options;
    const now = performance.now();
    const listed = this.#options.tree();
    const present = new Set(listed.map((p) => p.pid));
    for (const pid of this.#killed) if (!present.has(pid)) this.#killed.delete(pid);
    const tree = listed.filter((p) => !this.#killed.has(p.pid));
    // Growth since the last sample, bytes a second (none for a process seen the first time).
    const growth = new Map<number, number>();
    const last = new Map<number, { bytes: number; at: number }>();
    for (const p of tree) {
      const before = this.#last.get(p.pid);
      if (before && now > before.at)
        growth.set(p.pid, Math.max(0, ((p.rss - before.bytes) * 1000) / (now - before.at)));
      last.set(p.pid, { bytes: p.rss, at: now });
    }
    this.#last = last;
    const renderers = tree.filter((p) => p.cmdline.includes('--type=renderer'));
    let total = tree.reduce((sum, p) => sum + p.rss, 0);
    this.#peak = Math.max(this.#peak, total);
    const next =
      [...growth.values()].some((rate) => rate >= FAST_GROWTH) ||
      renderers.some((p) => p.rss >= bounds.pageBytes * NEAR) ||
      total >= bounds.totalBytes * NEAR
        ? FAST_SAMPLE_MS
        : SAMPLE_MS;
    // What a process would hold by the next sample, were it to keep growing as it did.
    const ahead = (p: ProcessInfo): number => p.rss + ((growth.get(p.pid) ?? 0) * next) / 1000;
    // Pages past their own bound first: a sample that comes late (a starved event loop) and
    // finds one page past both bounds stops that page, not every page of the browser.
    for (const p of renderers) {
      if (ahead(p) <= bounds.pageBytes) continue;
      logger.warn(
        { pid: p.pid, bytes: p.rss, perSecond: Math.round(growth.get(p.pid) ?? 0), bound: bounds.pageBytes },
        'page past its memory bound: renderer killed',
      );
      this.#record({
        bound: 'page',
        message: `the page ${p.rss > bounds.pageBytes ? 'passed' : 'was about to pass'} the per-page memory bound of ${mb(bounds.pageBytes)} (at ${at(p.rss, growth.get(p.pid))}, WEBSEARCH_RENDER_PAGE_MEMORY_MB); its renderer was stopped`,
      });
      kill(p.pid);
      this.#killed.add(p.pid);
      total -= p.rss;
    }
    const live = tree.filter((p) => !this.#killed.has(p.pid));
    const totalAhead = live.reduce((sum, p) => sum + ahead(p), 0);
    if (totalAhead > bounds.totalBytes) {
      const perSecond = live.reduce((sum, p) => sum + (growth.get(p.pid) ?? 0), 0);
      const message = `the browser's processes ${total > bounds.totalBytes ? 'passed' : 'were about to pass'} the total memory bound of ${mb(bounds.totalBytes)} (at ${at(total, perSecond)}, WEBSEARCH_RENDER_MEMORY_MB); the browser was stopped and restarts for the next page`;
      logger.warn(
        { bytes: total, perSecond: Math.round(perSecond), bound: bounds.totalBytes },
        'browser past its total memory bound: killed',
      );
      this.#record({ bound: 'total', message });
      // Every process at once, so the memory is back now: Playwright sees the browser gone
      // and the host launches a fresh one for the next render.
      for (const p of live) {
        kill(p.pid);
        this.#killed.add(p.pid);
      }
    }
    return next;
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

/** "530 MB", or "480 MB and growing 1900 MB/s" when it grew fast. */
function at(bytes: number, perSecond: number | undefined): string {
  return perSecond !== undefined && perSecond >= FAST_GROWTH
    ? `${mb(bytes)} and growing ${Math.round(perSecond / MiB)} MB/s`
    : mb(bytes);
}
