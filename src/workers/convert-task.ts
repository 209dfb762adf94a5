/**
 * What crosses the thread boundary: a conversion's input out, and back either the output
 * or the converter's AppError as plain data (structured cloning keeps only an Error's
 * name and message, so the code would be lost).
 */
import { AppError, type ErrorCode } from '../core/errors.js';
import type { ConvertOutput } from '../extract/index.js';

export interface SerializedError {
  code: ErrorCode;
  message: string;
  retryable: boolean;
  statusCode?: number;
}

export type ConvertReply = { ok: true; output: ConvertOutput } | { ok: false; error: SerializedError };

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
