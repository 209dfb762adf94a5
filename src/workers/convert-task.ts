/**
 * What crosses the thread boundary: a task out (a conversion's input, or a page's Markdown
 * and a query to rank its passages), and back either its output or the AppError it threw
 * as plain data (structured cloning keeps only an Error's name and message, so the code
 * would be lost).
 */
import { AppError, type ErrorCode } from '../core/errors.js';
import type { ConvertInput, ConvertOutput, Passage, PassagesInput } from '../extract/index.js';

export interface SerializedError {
  code: ErrorCode;
  message: string;
  retryable: boolean;
  statusCode?: number;
}

/** The two kinds of work a worker does. */
export type WorkerTask = { kind: 'convert'; input: ConvertInput } | { kind: 'passages'; input: PassagesInput };

/**
 * The operator's word vectors as each worker receives them in piscina's `workerData`
 * (WEBSEARCH_WORD_VECTORS): the matrix's SharedArrayBuffer is shared, not copied; the
 * words are cloned once per worker.
 */
export interface SharedWordVectors {
  words: readonly string[];
  matrix: Float32Array;
  dims: number;
}

/** What every worker of the pool is started with. */
export interface PoolWorkerData {
  vectors?: SharedWordVectors;
}

export type TaskReply<Output> = { ok: true; output: Output } | { ok: false; error: SerializedError };
export type ConvertReply = TaskReply<ConvertOutput>;
export type PassagesReply = TaskReply<Passage[]>;

export function serializeError(error: AppError): SerializedError {
  return {
    code: error.code,
    message: error.message,
    retryable: error.retryable,
    ...(error.statusCode === undefined ? {} : { statusCode: error.statusCode }),
  };
}

export function deserializeError(error: SerializedError): AppError {
  return new AppError(error.code, error.message, {
    retryable: error.retryable,
    ...(error.statusCode === undefined ? {} : { statusCode: error.statusCode }),
  });
}
