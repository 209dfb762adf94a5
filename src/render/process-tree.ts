/**
 * The processes under this one, read from Linux's /proc: to kill a browser that no longer
 * answers its control pipe (Playwright's launch() hands out no process), and to measure
 * the memory of the whole tree (the render benchmark). Elsewhere the lists are empty.
 */
import { readdirSync, readFileSync } from 'node:fs';

export interface ProcessInfo {
  pid: number;
  ppid: number;
  /**
   * Memory in bytes: the proportional set size (shared pages split between the processes
   * sharing them, so a tree's sum counts Chromium's shared memory once), else the RSS.
   */
  rss: number;
  cmdline: string;
}

const PAGE_SIZE = 4096;

function read(pid: number): ProcessInfo | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
    // The command name is in parentheses and may hold spaces or parentheses itself.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'latin1').replaceAll('\0', ' ').trim();
    return { pid, ppid: Number(fields[1]), rss: memoryOf(pid), cmdline };
  } catch {
    // Gone between the listing and the read, or no /proc at all.
    return undefined;
  }
}

function memoryOf(pid: number): number {
  try {
    const pss = /^Pss:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/smaps_rollup`, 'latin1'))?.[1];
    if (pss !== undefined) return Number(pss) * 1024;
  } catch {
    // No smaps_rollup (old kernel, or another user's process): the RSS below.
  }
  return Number(readFileSync(`/proc/${pid}/statm`, 'latin1').split(' ')[1]) * PAGE_SIZE;
}

/** Every live descendant of `root` (not `root` itself). */
export function descendants(root: number = process.pid): ProcessInfo[] {
  let all: ProcessInfo[];
  try {
    all = readdirSync('/proc')
      .filter((name) => /^\d+$/.test(name))
      .flatMap((name) => read(Number(name)) ?? []);
  } catch {
    return [];
  }
  const children = new Map<number, ProcessInfo[]>();
  for (const p of all) children.set(p.ppid, [...(children.get(p.ppid) ?? []), p]);
  const out: ProcessInfo[] = [];
  const walk = (pid: number): void => {
    for (const child of children.get(pid) ?? []) {
      out.push(child);
      walk(child.pid);
    }
  };
  walk(root);
  return out;
}

/** Memory of `root` and all its descendants, in bytes (see ProcessInfo.rss). */
export function treeRss(root: number = process.pid): number {
  return (read(root)?.rss ?? 0) + descendants(root).reduce((sum, p) => sum + p.rss, 0);
}
