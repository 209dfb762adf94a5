/**
 * The processes under this one, read from Linux's /proc: to kill a browser that no longer
 * answers its control pipe (Playwright's launch() hands out no process), to watch the
 * memory of the browser's processes (memory-watchdog.ts, through TreeSampler) and to
 * measure the whole tree (the render benchmark). Elsewhere the lists are empty.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';

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
  return residentOf(pid) ?? 0;
}

/** The resident set in bytes from statm (the kernel's counters: cheap at any size), or undefined once gone. */
function residentOf(pid: number): number | undefined {
  return statmOf(pid)?.rss;
}

/** RSS and its anonymous part (RSS less file and shmem pages) in bytes, from statm; undefined once gone. */
function statmOf(pid: number): { rss: number; anon: number } | undefined {
  try {
    const [, resident, shared] = readFileSync(`/proc/${pid}/statm`, 'latin1').split(' ').map(Number);
    return { rss: (resident ?? 0) * PAGE_SIZE, anon: ((resident ?? 0) - (shared ?? 0)) * PAGE_SIZE };
  } catch {
    return undefined;
  }
}

/** The PSS and the anonymous pages of one smaps_rollup text (one walk of the process's pages). */
function parseRollup(text: string): { pss: number; anon: number } | undefined {
  const pss = /^Pss:\s+(\d+) kB/m.exec(text)?.[1];
  const anon = /^Anonymous:\s+(\d+) kB/m.exec(text)?.[1];
  return pss === undefined || anon === undefined ? undefined : { pss: Number(pss) * 1024, anon: Number(anon) * 1024 };
}

/** The children forked by a process's main thread (a zygote's renderers); undefined when unreadable. */
function childrenOf(pid: number): number[] | undefined {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, 'latin1').split(' ').filter(Boolean).map(Number);
  } catch {
    return undefined;
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

/** How often the sampler lists every process (a helper forked by a thread other than the main one shows up then). */
const LIST_MS = 1_000;
/** How often the exact PSS of every process is read again, off the event loop. */
const EXACT_MS = 1_000;

interface Tracked {
  ppid: number;
  cmdline: string;
  /**
   * Whether the command line is the process's own: a zygote's fork starts with the zygote's
   * and writes a renderer's over it a moment later (a read meanwhile may get half of each),
   * so it is read again at each sample until two reads agree and no other process has it.
   */
  settled: boolean;
  /** The last exact PSS, and the anonymous memory of the same reading. */
  exact?: { pss: number; anon: number };
  /** smaps_rollup cannot be read (old kernel, another user's process): the RSS stands for it. */
  rssOnly?: boolean;
}

/**
 * One browser's processes and their memory, cheap enough to sample every few tens of
 * milliseconds from the event loop. The exact PSS (smaps_rollup) walks every page of a
 * process under its memory map's lock: ~20 ms for a renderer of 1 GB, up to 400 ms while
 * that renderer allocates in a loop; a watchdog reading it for every process ten times a
 * second fell far behind the pages it watched. So a sample reads only statm (the kernel's
 * counters: no walk, no lock) and estimates each PSS as the last exact one plus the
 * anonymous memory grown since: what a page allocates (its heap, buffers, canvases) is its
 * own, and counts whole in both. The exact PSS is read again, one process at a time off the
 * event loop, every EXACT_MS and as soon as a process shows up; until then a new process
 * counts its anonymous memory. Renderers are found as they start (children of a zygote's
 * main thread), everything else at the listing every LIST_MS.
 */
export class TreeSampler {
  readonly #matches: (cmdline: string) => boolean;
  #root: number | undefined;
  readonly #tracked = new Map<number, Tracked>();
  #listedAt = -Infinity;
  #exactAt = -Infinity;
  #refreshing = false;

  /** `matches`: the command line of the browser's main process (a descendant of this one). */
  constructor(matches: (cmdline: string) => boolean) {
    this.#matches = matches;
  }

  /** The browser's processes now, its main process first, `rss` their estimated PSS; empty when it is gone. */
  sample(): ProcessInfo[] {
    const now = performance.now();
    if (this.#root === undefined || now - this.#listedAt >= LIST_MS) this.#list(now);
    else this.#discover();
    const out: ProcessInfo[] = [];
    for (const [pid, tracked] of this.#tracked) {
      const statm = statmOf(pid);
      if (statm === undefined) {
        this.#tracked.delete(pid);
        continue;
      }
      if (!tracked.settled) this.#settle(pid, tracked);
      const { exact } = tracked;
      const estimate = tracked.rssOnly
        ? statm.rss
        : exact
          ? Math.max(0, exact.pss + statm.anon - exact.anon)
          : statm.anon;
      out.push({ pid, ppid: tracked.ppid, rss: estimate, cmdline: tracked.cmdline });
    }
    if (this.#tracked.size === 0) this.#root = undefined;
    if (now - this.#exactAt >= EXACT_MS) this.#refresh(now);
    return out;
  }

  /** Every process: the root found (or still there), its subtree tracked, the gone dropped. */
  #list(now: number): void {
    this.#listedAt = now;
    const list = all();
    const mine = subtree(list, process.pid);
    if (this.#root === undefined || !mine.some((p) => p.pid === this.#root)) {
      this.#tracked.clear();
      this.#root = mine.find((p) => this.#matches(cmdlineOf(p.pid)))?.pid;
    }
    if (this.#root === undefined) return;
    const root = list.find((p) => p.pid === this.#root) as Listed;
    const processes = [root, ...subtree(list, root.pid)];
    const alive = new Set(processes.map((p) => p.pid));
    for (const pid of this.#tracked.keys()) if (!alive.has(pid)) this.#tracked.delete(pid);
    for (const p of processes) this.#track(p.pid, p.ppid);
  }

  /** New children of the tracked processes' main threads (a renderer forked for a page). */
  #discover(): void {
    for (const pid of [...this.#tracked.keys()]) {
      for (const child of childrenOf(pid) ?? []) this.#track(child, pid);
    }
  }

  #track(pid: number, ppid: number): void {
    if (this.#tracked.has(pid)) return;
    const tracked = { ppid, cmdline: '', settled: false };
    this.#settle(pid, tracked);
    this.#tracked.set(pid, tracked);
    // Its exact memory in a round started with the next sample (or after the one running).
    this.#exactAt = -Infinity;
  }

  #settle(pid: number, tracked: Tracked): void {
    const cmdline = cmdlineOf(pid);
    let twin = false;
    for (const [other, t] of this.#tracked) twin ||= other !== pid && t.cmdline === cmdline;
    tracked.settled = cmdline !== '' && cmdline === tracked.cmdline && !twin;
    tracked.cmdline = cmdline;
  }

  /** The exact PSS of every tracked process, read one at a time on libuv's threads. */
  #refresh(now: number): void {
    if (this.#refreshing) return;
    this.#refreshing = true;
    this.#exactAt = now;
    void (async () => {
      for (const pid of [...this.#tracked.keys()]) {
        const text = await readFile(`/proc/${pid}/smaps_rollup`, 'latin1').catch(() => undefined);
        const tracked = this.#tracked.get(pid);
        if (!tracked) continue;
        const exact = text === undefined ? undefined : parseRollup(text);
        if (exact) tracked.exact = exact;
        // Unreadable while the process lives: this kernel or user gives no PSS.
        else if (statmOf(pid)) tracked.rssOnly = true;
      }
    })().finally(() => {
      this.#refreshing = false;
      // A process that showed up during the round: the next round at once.
      if ([...this.#tracked.values()].some((t) => !t.exact && !t.rssOnly)) this.#exactAt = -Infinity;
    });
  }
}
