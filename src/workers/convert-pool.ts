/**
 * The converter port over a piscina pool of worker threads: conversion leaves the event
 * loop, so one hostile page holds one worker, never the server. Each conversion runs
 * under what is left of its URL's deadline (an abort terminates its worker, piscina
 * starts another) and under the workers' heap bound (`resourceLimits`); a full queue
 * answers `busy` at once instead of making the URL wait for a deadline it cannot meet.
 * After a page of LARGE_INPUT_BYTES or more, the main thread's heap is collected once the
 * pool has been idle a while (collect-garbage.ts).
 */
import type { Worker } from 'node:worker_threads';
import { Piscina } from 'piscina';
import type { ConverterPort } from '../core/ports/converter-port.js';
import { DeadlineScope } from '../core/deadline-scope.js';
import { AppError } from '../core/errors.js';
import type { RequestDeadline } from '../core/request-context.js';
import type { ConvertInput, ConvertOutput } from '../extract/index.js';
import { collectGarbage } from './collect-garbage.js';
import { deserializeError, type ConvertReply } from './convert-task.js';

export interface ConvertPoolOptions {
  threads: number;
  maxQueue: number;
  memoryMb: number;
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
    ? new URL('../../dist/workers/convert-worker.js', moduleUrl)
    : new URL('./convert-worker.js', moduleUrl);
}

export class ConvertPool implements ConverterPort<ConvertInput, ConvertOutput> {
  readonly #options: ConvertPoolOptions;
  #started: Piscina<ConvertInput, ConvertReply> | undefined;
  #pending = 0;
  readonly #collect: (() => void) | undefined;
  readonly #collectAfterMs: number;
  #collectTimer: NodeJS.Timeout | undefined;

  constructor(options: ConvertPoolOptions, collect: CollectOptions = {}) {
    this.#options = options;
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

  /** Started on the first conversion: a command that converts nothing starts no thread. */
  get #pool(): Piscina<ConvertInput, ConvertReply> {
    const options = this.#options;
    const footprint = options.sizing === 'footprint';
    return (this.#started ??= new Piscina({
      filename: workerEntry().href,
      minThreads: footprint ? 0 : options.threads,
      maxThreads: options.threads,
      maxQueue: options.maxQueue,
      // Workers stay warm: starting one and loading the HTML cascade costs ~0.3 s.
      idleTimeout: options.idleTimeoutMs ?? (footprint ? FOOTPRINT_IDLE_MS : 5 * 60_000),
      resourceLimits: {
        maxOldGenerationSizeMb: options.memoryMb,
        maxYoungGenerationSizeMb: footprint ? FOOTPRINT_YOUNG_GENERATION_MB : youngGenerationMb(options.memoryMb),
      },
    }));
  }

  async convert(input: ConvertInput, ctx: RequestDeadline): Promise<ConvertOutput> {
    const { threads, maxQueue } = this.#options;
    const scope = new DeadlineScope(ctx, {
      timeout: (ms) =>
        new AppError(
          'timeout',
          `The page was downloaded but not converted within the ${ms} ms left of its deadline; the conversion was stopped.`,
          { retryable: true },
        ),
      cancelled: () => new AppError('cancelled', 'The request was cancelled while the page was being converted.'),
    });
    let reply: ConvertReply;
    try {
      if (scope.failure?.code === 'cancelled')
        throw new AppError('cancelled', 'The request was cancelled before the page was converted.');
      const pool = this.#pool;
      if (pool.queueSize >= maxQueue) {
        throw new AppError(
          'busy',
          `The server is converting all it can (${threads} at a time, ${maxQueue} waiting); the page was not converted and nothing was charged: try again shortly.`,
          { retryable: true },
        );
      }
      reply = await this.#run(pool, input, scope);
    } finally {
      scope.dispose();
    }
    if (!reply.ok) throw deserializeError(reply.error);
    return reply.output;
  }

  /** Runs one conversion under the scope: past its deadline (or on cancellation) its worker is terminated. */
  async #run(
    pool: Piscina<ConvertInput, ConvertReply>,
    input: ConvertInput,
    scope: DeadlineScope,
  ): Promise<ConvertReply> {
    const { memoryMb } = this.#options;
    try {
      this.#pending += 1;
      return await pool.run(input, { signal: scope.signal });
    } catch (err) {
      if (scope.failure) throw scope.failure;
      if ((err as NodeJS.ErrnoException).code === 'ERR_WORKER_OUT_OF_MEMORY') {
        throw new AppError(
          'too_large',
          `Converting the page needs more than the ${memoryMb} MB of memory a conversion may use (WEBSEARCH_CONVERT_MEMORY_MB); it was stopped.`,
        );
      }
      // The worker stopped under it (killed, crashed): piscina has started another.
      throw new AppError(
        'busy',
        `The worker converting the page stopped (${(err as Error).message}); it was replaced and the page may be tried again.`,
        { retryable: true, cause: err },
      );
    } finally {
      this.#pending -= 1;
      // A footprint pool collects after any work once idle: what it gives back matters more than the collection.
      if (input.bytes.length >= LARGE_INPUT_BYTES || this.#options.sizing === 'footprint') this.#scheduleCollection();
    }
  }

  /** Conversions on a worker right now (tests stop one mid-conversion). */
  get running(): number {
    return this.#pending - (this.#started?.queueSize ?? 0);
  }

  /** The live worker threads. */
  get threads(): readonly Worker[] {
    return this.#started?.threads ?? [];
  }

  async close(): Promise<void> {
    clearTimeout(this.#collectTimer);
    this.#collectTimer = undefined;
    await this.#started?.destroy();
  }
}
