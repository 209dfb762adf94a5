/**
 * The processes under this one, read from Linux's /proc: to kill a browser that no longer
 * answers its control pipe (Playwright's launch() hands out no process), to watch the
 * memory of the browser's processes (memory-watchdog.ts) and to measure the whole tree
 * (the render benchmark). Elsewhere the lists are empty.
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

/** A process as listed: its parent only (the command line and memory are read for the processes wanted). */
type Listed = Pick<ProcessInfo, 'pid' | 'ppid'>;

function read(pid: number): Listed | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
    // The command name is in parentheses and may hold spaces or parentheses itself.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { pid, ppid: Number(fields[1]) };
  } catch {
    // Gone between the listing and the read, or no /proc at all.
    return undefined;
  }
}

function cmdlineOf(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'latin1').replaceAll('\0', ' ').trim();
  } catch {
    return '';
  }
}

/** Memory of one process in bytes (see ProcessInfo.rss); 0 once it is gone. */
function memoryOf(pid: number): number {
  try {
    const pss = /^Pss:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/smaps_rollup`, 'latin1'))?.[1];
    if (pss !== undefined) return Number(pss) * 1024;
  } catch {
    // No smaps_rollup (old kernel, or another user's process): the RSS below.
  }
  try {
    return Number(readFileSync(`/proc/${pid}/statm`, 'latin1').split(' ')[1]) * PAGE_SIZE;
  } catch {
    return 0;
  }
}

/** Every process with its parent (the watchdog lists them ten times a second while pages render). */
function all(): Listed[] {
  try {
    return readdirSync('/proc')
      .filter((name) => /^\d+$/.test(name))
      .flatMap((name) => read(Number(name)) ?? []);
  } catch {
    return [];
  }
}

function subtree(list: Listed[], root: number): Listed[] {
  const children = new Map<number, Listed[]>();
  for (const p of list) children.set(p.ppid, [...(children.get(p.ppid) ?? []), p]);
  const out: Listed[] = [];
  const walk = (pid: number): void => {
    for (const child of children.get(pid) ?? []) {
      out.push(child);
      walk(child.pid);
    }
  };
  walk(root);
  return out;
}

const described = (p: Listed): ProcessInfo => ({ ...p, cmdline: cmdlineOf(p.pid), rss: memoryOf(p.pid) });

/** Every live descendant of `root` (not `root` itself). */
export function descendants(root: number = process.pid): ProcessInfo[] {
  return subtree(all(), root).map(described);
}

/**
 * The first descendant of this process whose command line `matches`, then all of its own
 * descendants: one browser's processes, its main process first. Empty when none matches.
 */
export function processTree(matches: (cmdline: string) => boolean): ProcessInfo[] {
  const list = all();
  const main = subtree(list, process.pid).find((p) => matches(cmdlineOf(p.pid)));
  return main ? [main, ...subtree(list, main.pid)].map(described) : [];
}

/** Memory of `root` and all its descendants, in bytes (see ProcessInfo.rss). */
export function treeRss(root: number = process.pid): number {
  return memoryOf(root) + descendants(root).reduce((sum, p) => sum + p.rss, 0);
}
