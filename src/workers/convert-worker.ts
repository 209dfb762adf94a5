/**
 * The worker entry of the conversion pool: the same `convert` the rest of the code calls,
 * run on a worker thread so that a slow or hostile page holds this thread, never the
 * server's event loop. Errors come back as data (convert-task.ts).
 */
import v8 from 'node:v8';
import { toAppError } from '../core/errors.js';
import { convert, type ConvertInput } from '../extract/index.js';
import { collectGarbage } from './collect-garbage.js';
import { serializeError, type ConvertReply } from './convert-task.js';

/** Past this heap a conversion is followed by a full collection (no dev page reaches it: BENCHMARKS.md). */
const COLLECT_ABOVE = v8.getHeapStatistics().heap_size_limit / 4;

async function run(input: ConvertInput): Promise<ConvertReply> {
  try {
    return { ok: true, output: await convert(input) };
  } catch (err) {
    return { ok: false, error: serializeError(toAppError(err)) };
  }
}

export default async function convertTask(input: ConvertInput): Promise<ConvertReply> {
  const reply = await run(input);
  if (collectGarbage !== undefined && v8.getHeapStatistics().total_heap_size > COLLECT_ABOVE) collectGarbage();
  return reply;
}
