/**
 * The memory watchdog's decisions, on a tree of stand-in processes (`sleep`, spawned here so
 * that its kills hit nothing else) whose memory the test sets: a renderer past the per-page
 * bound is killed alone, even when the tree is past the total too; a tree past the total
 * without one such page loses every process; a crash with no kill is taken for the heap cap;
 * nothing is sampled once no render is watched.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { silentLogger } from '../../src/core/logger.js';
import { MemoryWatchdog } from '../../src/render/memory-watchdog.js';
import type { ProcessInfo } from '../../src/render/process-tree.js';

const MiB = 1024 * 1024;
const BOUNDS = { heapBytes: 64 * MiB, pageBytes: 256 * MiB, totalBytes: 1_024 * MiB };
const children: ChildProcess[] = [];

afterEach(() => {
  for (const child of children.splice(0)) child.kill('SIGKILL');
});

function standIn(): ChildProcess {
  const child = spawn('sleep', ['30'], { stdio: 'ignore' });
  children.push(child);
  return child;
}

const exited = (child: ChildProcess): Promise<NodeJS.Signals | null> =>
  child.exitCode !== null || child.signalCode !== null
    ? Promise.resolve(child.signalCode)
    : new Promise((resolve) => child.once('exit', (_code, signal) => resolve(signal)));

/** A browser of stand-ins: a main process and two renderers, with the memory given in MB. */
function browser(mb: { main: number; a: number; b: number }) {
  const [main, a, b] = [standIn(), standIn(), standIn()];
  const info = (child: ChildProcess, type: string, rss: number): ProcessInfo => ({
    pid: child.pid as number,
    ppid: 1,
    rss: rss * MiB,
    cmdline: `chromium ${type}`,
  });
  return {
    main,
    a,
    b,
    tree: () => [info(main, '--headless', mb.main), info(a, '--type=renderer', mb.a), info(b, '--type=renderer', mb.b)],
  };
}

describe('the memory watchdog', () => {
  it('kills a renderer past the per-page bound, and only it, even when the tree is past the total', async () => {
    const b = browser({ main: 200, a: 900, b: 100 });
    const watchdog = new MemoryWatchdog({ bounds: BOUNDS, tree: b.tree, logger: silentLogger });
    const watch = watchdog.watch();
    expect(await exited(b.a)).toBe('SIGKILL');
    watch.release();
    expect(watch.verdict(true)).toMatchObject({ bound: 'page' });
    expect(watch.verdict(true)?.message).toContain('per-page memory bound of 256 MB (at 900 MB');
    expect([b.main.signalCode, b.b.signalCode]).toEqual([null, null]);
  });

  it('kills every process of a tree past the total when no page is past its own bound', async () => {
    const b = browser({ main: 400, a: 250, b: 250 });
    const watchdog = new MemoryWatchdog({
      bounds: { ...BOUNDS, totalBytes: 800 * MiB },
      tree: b.tree,
      logger: silentLogger,
    });
    const watch = watchdog.watch();
    expect(await Promise.all([exited(b.main), exited(b.a), exited(b.b)])).toEqual(['SIGKILL', 'SIGKILL', 'SIGKILL']);
    watch.release();
    expect(watch.verdict(false)?.message).toContain('total memory bound of 800 MB (at 900 MB');
    expect(watchdog.peak()).toBe(900 * MiB);
  });

  it('takes a crash under no kill for the heap cap, and has nothing to say without one', async () => {
    const b = browser({ main: 100, a: 100, b: 100 });
    let samples = 0;
    const watchdog = new MemoryWatchdog({
      bounds: BOUNDS,
      tree: () => (samples++, b.tree()),
      logger: silentLogger,
    });
    const watch = watchdog.watch();
    while (samples < 2) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(watch.verdict(false)).toBeUndefined();
    expect(watch.verdict(true)).toMatchObject({ bound: 'heap' });
    expect(watch.verdict(true)?.message).toContain('64 MB JavaScript heap');
    watch.release();
    // No render watched: no more samples.
    const after = samples;
    await new Promise((resolve) => setTimeout(resolve, 250));
    expect(samples).toBe(after);
    expect([b.main.signalCode, b.a.signalCode, b.b.signalCode]).toEqual([null, null, null]);
  });
});

describe('the memory watchdog against a page allocating fast', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  /** Stand-ins whose renderer `a` holds `mb(t)` MB at t ms on the (fake) clock; each sample's time recorded. */
  function growing(mb: (t: number) => number, others = { main: 100, b: 100 }) {
    const b = browser({ main: others.main, a: 0, b: others.b });
    const start = performance.now();
    const samples: { at: number; aMb: number }[] = [];
    const tree = () => {
      const at = performance.now() - start;
      const aMb = mb(at);
      samples.push({ at, aMb });
      return b.tree().map((p) => (p.pid === b.a.pid ? { ...p, rss: aMb * MiB } : p));
    };
    return { ...b, tree, samples };
  }

  it('samples every 50 ms while nothing grows, every 20 ms while a page grows fast', () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
    // Still for 500 ms, then 1 GB/s: under the bound until ~650 ms.
    const b = growing((t) => (t < 500 ? 100 : 100 + (t - 500)));
    const watch = new MemoryWatchdog({ bounds: BOUNDS, tree: b.tree, logger: silentLogger }).watch();
    vi.advanceTimersByTime(620);
    watch.release();
    const gaps = (from: number, to: number) =>
      b.samples
        .map((s, i) => ({ at: s.at, gap: s.at - (b.samples[i - 1]?.at ?? 0) }))
        .filter((s) => s.at > from && s.at <= to)
        .map((s) => Math.round(s.gap));
    expect(gaps(0, 500)).toEqual(Array(10).fill(50));
    // The first sample of the growth sees it (550 ms); from then on every 20 ms.
    expect(gaps(550, 620)).toEqual([20, 20, 20]);
  });

  it('stops a page that grows fast before its reading passes the bound: the growth to the next sample is counted', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
    // 1 GB/s from 50 MB: 20 MB between two fast samples.
    const b = growing((t) => 50 + t);
    const watch = new MemoryWatchdog({ bounds: BOUNDS, tree: b.tree, logger: silentLogger }).watch();
    vi.advanceTimersByTime(1_000);
    watch.release();
    vi.useRealTimers();
    expect(await exited(b.a)).toBe('SIGKILL');
    const verdict = watch.verdict(true);
    expect(verdict?.bound).toBe('page');
    // Killed at the last reading under the bound from which the next one would be past it.
    const reading = Number(/\(at (\d+) MB and growing (\d+) MB\/s/.exec(verdict?.message ?? '')?.[1]);
    expect(verdict?.message).toContain('was about to pass the per-page memory bound of 256 MB');
    expect(reading).toBeLessThanOrEqual(256);
    expect(reading).toBeGreaterThan(256 - 20);
    expect([b.main.signalCode, b.b.signalCode]).toEqual([null, null]);
  });

  it('counts a killed page no more while its memory goes back: the total bound is not set off by it', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
    // Page `a` past its own bound (killed), then still listed while its memory goes back, as
    // a dying process is: under the page bound by then, but with it the tree is past the
    // total (600 + 250 + 250 MB), without it under (850 MB).
    const b = growing((t) => (t <= 50 ? 900 : 250), { main: 600, b: 250 });
    const watchdog = new MemoryWatchdog({ bounds: BOUNDS, tree: b.tree, logger: silentLogger });
    const watch = watchdog.watch();
    vi.advanceTimersByTime(500);
    watch.release();
    vi.useRealTimers();
    expect(await exited(b.a)).toBe('SIGKILL');
    expect(b.samples.length).toBeGreaterThan(5);
    expect(watch.verdict(true)?.bound).toBe('page');
    expect([b.main.signalCode, b.b.signalCode]).toEqual([null, null]);
  });
});
