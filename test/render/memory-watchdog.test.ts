/**
 * The memory watchdog's decisions, on a tree of stand-in processes (`sleep`, spawned here so
 * that its kills hit nothing else) whose memory the test sets: a renderer past the per-page
 * bound is killed alone, even when the tree is past the total too; a tree past the total
 * without one such page loses every process; a crash with no kill is taken for the heap cap;
 * nothing is sampled once no render is watched.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
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
