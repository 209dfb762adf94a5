/**
 * The converter port over a piscina pool of worker threads: conversion (and passage
 * ranking) leaves the event loop, so one hostile page holds one worker, never the server.
 * The workers are taken in turn, key by key (fair-queue.ts): piscina is handed only as
 * many tasks as it has threads, and the rest wait in their key's lane. Each task runs
 * under what is left of its URL's deadline and under the budget of one conversion
 * (WEBSEARCH_CONVERT_TIMEOUT_MS), whichever ends first (an abort terminates its worker,
 * piscina starts another), and under the workers' heap bound (`resourceLimits`); a full
 * queue answers `busy` at once instead of making the URL wait for a deadline it cannot
 * meet. After a page of LARGE_INPUT_BYTES or more, the main thread's heap is collected
 * once the pool has been idle a while (collect-garbage.ts).
 */
import type { Worker } from 'node:worker_threads';
import { Piscina } from 'piscina';
import type { Caller } from '../core/caller.js';
import type { ConvertContext, ConverterPort } from '../core/ports/converter-port.js';
import { DeadlineScope } from '../core/deadline-scope.js';
import { AppError } from '../core/errors.js';
import type { ConvertInput, ConvertOutput, Passage, PassagesInput } from '../extract/index.js';
import type { WordVectors } from '../extract/passages/word-vectors.js';
import { collectGarbage } from './collect-garbage.js';
import { deserializeError, type PoolWorkerData, type TaskReply, type WorkerTask } from './convert-task.js';
import { FairQueue, type Refusal } from './fair-queue.js';

export interface ConvertPoolOptions {
  threads: number;
  maxQueue: number;
  memoryMb: number;
  /** The longest one task may run on its worker (ms, WEBSEARCH_CONVERT_TIMEOUT_MS); its URL's deadline may end it sooner. */
  timeoutMs: number;
  /**
   * `throughput` (default; `serve`): workers stay warm and get the large young generation
   * (youngGenerationMb). `footprint` (the stdio server a desktop client keeps all day): a
   * small young generation, and a worker idle FOOTPRINT_IDLE_MS is stopped, its heap given
   * back; the next page starts one again (~0.3 s). Figures: BENCHMARKS.md, "Memory of
   * each face".
   */
  sizing?: 'throughput' | 'footprint';
  /** How long an idle worker is kept (default: 5 minutes; `footprint`: FOOTPRINT_IDLE_MS). */
  idleTimeoutMs?: number;
  /**
   * The operator's word vectors (WEBSEARCH_WORD_VECTORS), which the workers' ranker reads:
   * their matrix must sit on a SharedArrayBuffer (parseWordVectors' `shared`), which every
   * worker reads in place; each worker copies the words once.
   */
  vectors?: WordVectors;
}

/** How long a `footprint` pool keeps an idle worker. */
export const FOOTPRINT_IDLE_MS = 30_000;

/**
 * The young generation of a `footprint` worker: the size that kept the stdio server's peak
 * lowest (BENCHMARKS.md, "Memory of each face").
 */
export const FOOTPRINT_YOUNG_GENERATION_MB = 8;

/** Main-thread collection after a huge page (collect-garbage.ts); tests pass their own. */
export interface CollectOptions {
  collect?: (() => void) | undefined;
  /** Idle time of the pool, after a conversion of LARGE_INPUT_BYTES or more, before collecting. */
  afterMs?: number;
}

/**
 * The workers' young generation. At V8's default (16 MB semi-spaces) a 48 KB article took
 * about one scavenge a conversion and a full collection every twenty, on GC threads that
 * share the cores with the workers; at 64 MB (32 MB semi-spaces) half as many of each. At
 * most an eighth of the heap bound, which it adds to. Figures: BENCHMARKS.md, "Conversion
 * under load".
 */
export function youngGenerationMb(memoryMb: number): number {
  return Math.min(64, Math.max(1, Math.floor(memoryMb / 8)));
}

/** A body this large leaves its bytes, its Markdown and its answer as garbage on the main thread. */
export const LARGE_INPUT_BYTES = 1024 * 1024;

/**
 * The built worker entry: beside this file in dist/; under the test runner, which loads
 * src/*.ts, the compiled one in dist/ (worker threads load JavaScript only; `npm test`
 * and the test setup build dist/ first).
 */
export function workerEntry(moduleUrl: string = import.meta.url): URL {
  return moduleUrl.endsWith('.ts')
    ? new URL('../../dist/workers/convert-worker-entry.cjs', moduleUrl)
    : new URL('./convert-worker-entry.cjs', moduleUrl);
}

/** What each worker starts with: the word vectors' words, dimensions and shared matrix (not their index, made per worker). */
function poolWorkerData(vectors: WordVectors | undefined): PoolWorkerData {
  if (vectors === undefined) return {};
  const { words, matrix, dims } = vectors;
  // A matrix on an ArrayBuffer would be copied into every worker: threads times its size.
  if (!(matrix.buffer instanceof SharedArrayBuffer))
    throw new TypeError('the word vectors given to the conversion pool must sit on a SharedArrayBuffer');
  return { vectors: { words, matrix, dims } };
}

/** The turn of callers without a key: stdio, the command line, the library, open mode (which no key shares). */
export const KEYLESS_LANE = 'keyless';

/** A key's lane: its id; every keyless caller shares one. */
export function laneOf(caller: Caller | undefined): string {
  return caller?.key?.id ?? KEYLESS_LANE;
}

/** How the messages of a task name what it does. */
interface TaskWords {
  /** "Converting the page" */
  doing: string;
  /** "the page was not converted" */
  undone: string;
  /** "within the N ms left of its deadline" follows. */
  late: string;
  /** "while the page was being converted" */
  during: string;
  /** "before the page was converted" */
  before: string;
  /** "conversion" */
  noun: string;
}

const CONVERT_WORDS: TaskWords = {
  doing: 'Converting the page',
  undone: 'the page was not converted',
  late: 'The page was downloaded but not converted',
  during: 'while the page was being converted',
  before: 'before the page was converted',
  noun: 'conversion',
};

const PASSAGES_WORDS: TaskWords = {
  doing: "Ranking the page's passages",
  undone: "the page's passages were not ranked",
  late: "The page's passages were not ranked",
  during: "while the page's passages were being ranked",
  before: "before the page's passages were ranked",
  noun: 'ranking',
};

export class ConvertPool implements ConverterPort<ConvertInput, ConvertOutput, PassagesInput, Passage[]> {
  readonly #options: ConvertPoolOptions;
  readonly #workerData: PoolWorkerData;
  #started: Piscina<WorkerTask, TaskReply<unknown>> | undefined;
  /** One task per thread on piscina at a time; the others wait their key's turn here. */
  readonly #queue: FairQueue;
  /** Tasks waiting or running (the collection waits for none). */
  #pending = 0;
  readonly #collect: (() => void) | undefined;
  readonly #collectAfterMs: number;
  #collectTimer: NodeJS.Timeout | undefined;

  constructor(options: ConvertPoolOptions, collect: CollectOptions = {}) {
    this.#options = options;
    this.#workerData = poolWorkerData(options.vectors);
    this.#queue = new FairQueue({ slots: options.threads, maxWaiting: options.maxQueue });
    this.#collect = 'collect' in collect ? collect.collect : collectGarbage;
    this.#collectAfterMs = collect.afterMs ?? 2_000;
  }

  /** Collects once the pool has been idle #collectAfterMs; while it converts, waits again. */
  #scheduleCollection(): void {
    const collect = this.#collect;
    if (collect === undefined) return;
    clearTimeout(this.#collectTimer);
    this.#collectTimer = setTimeout(() => {
      if (this.#pending > 0) return this.#scheduleCollection();
      this.#collectTimer = undefined;
      collect();
    }, this.#collectAfterMs);
    this.#collectTimer.unref();
  }

  /** Started on the first task: a command that converts nothing starts no thread. */
  get #pool(): Piscina<WorkerTask, TaskReply<unknown>> {
    const options = this.#options;
    const footprint = options.sizing === 'footprint';
    return (this.#started ??= new Piscina({
      filename: workerEntry().href,
      minThreads: footprint ? 0 : options.threads,
      maxThreads: options.threads,
      // The fair queue hands piscina one task per thread: piscina's own queue holds only
      // those waiting for a worker that is starting (or replacing one that was stopped).
      maxQueue: options.threads,
      // Workers stay warm: starting one and loading the HTML cascade costs ~0.3 s.
      idleTimeout: options.idleTimeoutMs ?? (footprint ? FOOTPRINT_IDLE_MS : 5 * 60_000),
      resourceLimits: {
        maxOldGenerationSizeMb: options.memoryMb,
        maxYoungGenerationSizeMb: footprint ? FOOTPRINT_YOUNG_GENERATION_MB : youngGenerationMb(options.memoryMb),
      },
      workerData: this.#workerData,
    }));
  }

  async convert(input: ConvertInput, ctx: ConvertContext): Promise<ConvertOutput> {
    return this.#submit<ConvertOutput>({ kind: 'convert', input }, input.bytes.length, ctx, CONVERT_WORDS);
  }

  /** The passages of a page for a query, ranked on a worker: byte for byte what extract/passages gives on this thread. */
  async rankPassages(input: PassagesInput, ctx: ConvertContext): Promise<Passage[]> {
    return this.#submit<Passage[]>({ kind: 'passages', input }, input.markdown.length, ctx, PASSAGES_WORDS);
  }

  /** Waits for the caller's turn, then runs the task on a worker under the request's deadline. */
  async #submit<Output>(task: WorkerTask, size: number, ctx: ConvertContext, words: TaskWords): Promise<Output> {
    const waiting = new DeadlineScope(ctx, {
      timeout: (ms) =>
        new AppError(
          'timeout',
          `${words.late} within the ${ms} ms left of its deadline (its turn at a worker included); the ${words.noun} was stopped.`,
          { retryable: true },
        ),
      cancelled: () => new AppError('cancelled', `The request was cancelled ${words.during}.`),
    });
    let reply: TaskReply<unknown>;
    this.#pending += 1;
    try {
      if (waiting.failure?.code === 'cancelled')
        throw new AppError('cancelled', `The request was cancelled ${words.before}.`);
      const release = await this.#queue.acquire(laneOf(ctx.caller), waiting.signal, (why) => this.#busy(why, words));
      try {
        reply = await this.#run(task, waiting, words);
      } finally {
        release();
      }
    } finally {
      waiting.dispose();
      this.#pending -= 1;
      // A footprint pool collects after any work once idle: what it gives back matters more than the collection.
      if (size >= LARGE_INPUT_BYTES || this.#options.sizing === 'footprint') this.#scheduleCollection();
    }
    if (!reply.ok) throw deserializeError(reply.error);
    return reply.output as Output;
  }

  #busy(why: Refusal, words: TaskWords): AppError {
    const { threads, maxQueue } = this.#options;
    const room = `The server is converting all it can (${threads} at a time, ${maxQueue} waiting)`;
    return new AppError(
      'busy',
      why === 'full'
        ? `${room}; ${words.undone} and nothing was charged: try again shortly.`
        : `${room}, and this key had the most waiting: its latest task gave its place to another key's, ${words.undone} and nothing was charged: try again shortly.`,
      { retryable: true },
    );
  }

  /**
   * Runs one task on a worker under the request's deadline and the budget of one task,
   * whichever ends first: past either (or on cancellation) its worker is terminated.
   */
  async #run(task: WorkerTask, waiting: DeadlineScope, words: TaskWords): Promise<TaskReply<unknown>> {
    const { memoryMb, timeoutMs } = this.#options;
    const budget = new DeadlineScope(waiting, {
      budgetMs: timeoutMs,
      // The request's own deadline or cancellation keeps its message; only the budget speaks of the setting.
      timeout: (ms) =>
        waiting.failure ??
        new AppError(
          'timeout',
          `${words.doing} took more than ${ms} ms, the most one conversion may take on its worker (WEBSEARCH_CONVERT_TIMEOUT_MS); it was stopped and nothing was charged.`,
          { retryable: true },
        ),
      cancelled: () => waiting.failure ?? new AppError('cancelled', `The request was cancelled ${words.during}.`),
    });
    try {
      return await this.#pool.run(task, { signal: budget.signal });
    } catch (err) {
      if (budget.failure) throw budget.failure;
      if ((err as NodeJS.ErrnoException).code === 'ERR_WORKER_OUT_OF_MEMORY') {
        throw new AppError(
          'too_large',
          `${words.doing} needs more than the ${memoryMb} MB of memory a conversion may use (WEBSEARCH_CONVERT_MEMORY_MB); it was stopped.`,
        );
      }
      // The worker stopped under it (killed, crashed): piscina has started another.
      throw new AppError(
        'busy',
        `The worker converting the page stopped (${(err as Error).message}); it was replaced and the page may be tried again.`,
        { retryable: true, cause: err },
      );
    } finally {
      budget.dispose();
    }
  }

  /** Tasks on a worker right now (tests stop one mid-conversion). */
  get running(): number {
    return this.#queue.active - (this.#started?.queueSize ?? 0);
  }

  /** Tasks waiting for their turn, every key together. */
  get waiting(): number {
    return this.#queue.waiting;
  }

  /** The live worker threads. */
  get threads(): readonly Worker[] {
    return this.#started?.threads ?? [];
  }

  async close(): Promise<void> {
    clearTimeout(this.#collectTimer);
    this.#collectTimer = undefined;
    this.#queue.refuseAll(
      () => new AppError('busy', 'The converter was closed before the page was converted.', { retryable: true }),
    );
    await this.#started?.destroy();
  }
}
