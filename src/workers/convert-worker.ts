/**
 * The worker entry of the conversion pool: the same `convert` the rest of the code calls,
 * and the passage ranker, run on a worker thread so that a slow or hostile page holds this
 * thread, never the server's event loop. Errors come back as data (convert-task.ts).
 */
import v8 from 'node:v8';
import { workerData } from 'node:worker_threads';
import { toAppError } from '../core/errors.js';
import { convert } from '../extract/index.js';
import type * as Ranker from '../extract/passages/index.js';
import type { WordVectors } from '../extract/passages/word-vectors.js';
import { collectGarbage } from './collect-garbage.js';
import { serializeError, type PoolWorkerData, type TaskReply, type WorkerTask } from './convert-task.js';

/** Past this heap a conversion is followed by a full collection (no dev page reaches it: BENCHMARKS.md). */
const COLLECT_ABOVE = v8.getHeapStatistics().heap_size_limit / 4;

/** The ranker, loaded on a worker's first query: a worker that only converts never loads it. */
let passages: Promise<typeof Ranker> | undefined;

/**
 * The operator's word vectors as the pool hands them to each worker (convert-pool.ts): the
 * matrix on a SharedArrayBuffer every thread reads, the words a copy of this worker's own.
 */
const shared = (workerData as PoolWorkerData | undefined)?.vectors;
/** This worker's view of them, made on its first query. */
let vectors: WordVectors | undefined;

async function perform(task: WorkerTask): Promise<unknown> {
  if (task.kind === 'convert') return convert(task.input);
  const { rankPassages, wordVectors } = await (passages ??= import('../extract/passages/index.js'));
  if (shared !== undefined) vectors ??= wordVectors(shared.words, shared.matrix, shared.dims);
  return rankPassages(task.input, vectors);
}

async function run(task: WorkerTask): Promise<TaskReply<unknown>> {
  try {
    return { ok: true, output: await perform(task) };
  } catch (err) {
    return { ok: false, error: serializeError(toAppError(err)) };
  }
}

export default async function workerTask(task: WorkerTask): Promise<TaskReply<unknown>> {
  const reply = await run(task);
  if (collectGarbage !== undefined && v8.getHeapStatistics().total_heap_size > COLLECT_ABOVE) collectGarbage();
  return reply;
}
