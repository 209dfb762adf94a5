/**
 * The worker entry of the conversion pool: the same `convert` the rest of the code calls,
 * run on a worker thread so that a slow or hostile page holds this thread, never the
 * server's event loop. Errors come back as data (convert-task.ts).
 */
import { toAppError } from '../core/errors.js';
import { convert, type ConvertInput } from '../extract/index.js';
import { serializeError, type ConvertReply } from './convert-task.js';

export default async function convertTask(input: ConvertInput): Promise<ConvertReply> {
  try {
    return { ok: true, output: await convert(input) };
  } catch (err) {
    return { ok: false, error: serializeError(toAppError(err)) };
  }
}
