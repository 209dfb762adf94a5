/**
 * The tree sampler the memory watchdog reads (process-tree.ts), on stand-in processes: the
 * tree's main process first; a child forked with its parent's command line (as a zygote
 * forks a renderer) is seen under the command line it writes over it a moment later; the
 * memory a process allocates shows at once in its estimate, which agrees with the exact
 * PSS once it stops growing.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { afterEach, expect, it } from 'vitest';
import { processTree, TreeSampler, type ProcessInfo } from '../../src/render/process-tree.js';
import { until } from '../helpers/socket-flood.js';

const MiB = 1024 * 1024;
const roots: ChildProcess[] = [];
/** The stand-ins' children seen, killed after each test with their roots. */
const seen = new Set<number>();

afterEach(() => {
  for (const root of roots.splice(0)) root.kill('SIGKILL');
  for (const pid of seen) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // Gone already.
    }
  }
  seen.clear();
});

/**
 * A root process that forks a child with its own command line (the marker included); the
 * child renames itself to "stand-in --type=renderer" after `renameMs`, then allocates
 * `mb` MB and keeps it. Node's process.title writes over the argv area, as Chromium does.
 */
function standInTree(marker: string, renameMs: number, mb: number): ChildProcess {
  const script = `
    const { spawn } = require('node:child_process');
    if (process.env.STAND_IN_ROLE === 'child') {
      // Gone with its parent (the test kills the root).
      const parent = process.ppid;
      setInterval(() => { if (process.ppid !== parent) process.exit(0); }, 100);
      setTimeout(() => {
        process.title = ['stand-in', '--type=renderer'].join(' ');
        setTimeout(() => { globalThis.kept = Buffer.alloc(${mb} * 1024 * 1024, 1); }, 200);
      }, ${renameMs});
    } else {
      spawn(process.execPath, ['-e', process.env.STAND_IN_SCRIPT, ...process.argv.slice(1)], {
        env: { ...process.env, STAND_IN_ROLE: 'child' }, stdio: 'ignore',
      });
    }
    setInterval(() => {}, 60_000);`;
  // The child is started with the same arguments: the script travels in the environment.
  const root = spawn(process.execPath, ['-e', script, marker], {
    env: { ...process.env, STAND_IN_SCRIPT: script },
    stdio: 'ignore',
  });
  roots.push(root);
  return root;
}

/** The resident set of a process from statm, in MB. */
const residentMb = (pid: number): number =>
  (Number(readFileSync(`/proc/${pid}/statm`, 'latin1').split(' ')[1]) * 4096) / MiB;

const childOf = (tree: ProcessInfo[], root: ChildProcess): ProcessInfo | undefined =>
  tree.find((p) => p.pid !== root.pid);

it('follows a forked child to its own command line, and its memory as it allocates', async () => {
  const marker = `tree-sampler-${randomBytes(6).toString('hex')}`;
  const root = standInTree(marker, 400, 200);
  const sampler = new TreeSampler((cmdline) => cmdline.split(' ').includes(marker));
  let tree: ProcessInfo[] = [];
  const sample = (): ProcessInfo[] => {
    tree = sampler.sample();
    for (const p of tree) if (p.pid !== root.pid) seen.add(p.pid);
    return tree;
  };
  // The child first has its parent's command line, then its own.
  expect(
    await until(() => childOf(sample(), root)?.cmdline.startsWith('stand-in --type=renderer') === true, 10_000),
  ).toBe(true);
  expect(tree[0]?.pid).toBe(root.pid);
  expect(tree[0]?.cmdline.split(' ')).toContain(marker);
  // The 200 MB it allocates show in the next sample once the kernel counts them, not at the
  // next exact reading (every second).
  const child = childOf(tree, root) as ProcessInfo;
  const before = { resident: residentMb(child.pid), estimate: child.rss / MiB };
  expect(await until(() => residentMb(child.pid) - before.resident > 190, 10_000)).toBe(true);
  expect((childOf(sample(), root)?.rss ?? 0) / MiB - before.estimate).toBeGreaterThan(185);
  // Once it holds still, an exact reading (every second, off the event loop) and the
  // estimate from it agree with a PSS read now (the PSS of shared pages moves as other
  // processes map or drop them: the comparison follows a fresh reading).
  await new Promise((resolve) => setTimeout(resolve, 1_100));
  sample();
  await new Promise((resolve) => setTimeout(resolve, 500));
  const estimate = childOf(sample(), root)?.rss ?? 0;
  const exact = processTree((cmdline) => cmdline.split(' ').includes(marker)).find((p) => p.pid !== root.pid)?.rss ?? 0;
  expect(exact).toBeGreaterThan(190 * MiB);
  expect(Math.abs(estimate - exact)).toBeLessThan(30 * MiB);
});
