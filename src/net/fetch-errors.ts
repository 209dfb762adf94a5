/**
 * Turns whatever undici, net, tls, dns or zlib threw into an AppError with a stable code
 * and a message a user can act on ("could not resolve host x", "connection refused").
 * Callers branch on `code`, never on the message (core/errors.ts).
 */
import { AppError } from '../core/errors.js';
import { HTTP_CLIENT_FAULT } from './contain-socket-faults.js';

interface ErrorLike {
  code?: unknown;
  message?: unknown;
  cause?: unknown;
}

/** The first AppError in an error's cause chain (undici/pipeline may wrap ours). */
export function findAppError(error: unknown): AppError | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current !== undefined && current !== null; depth++) {
    if (current instanceof AppError) return current;
    current = (current as ErrorLike).cause;
  }
  return undefined;
}

function codeOf(error: unknown): string {
  const code = (error as ErrorLike | null)?.code;
  if (typeof code === 'string') return code;
  const cause = (error as ErrorLike | null)?.cause;
  return cause && cause !== error ? codeOf(cause) : '';
}

function messageOf(error: unknown): string {
  const message = (error as ErrorLike | null)?.message;
  return typeof message === 'string' && message !== '' ? message : String(error);
}

export interface ErrorContext {
  /** host[:port] of the hop that failed, for messages. */
  host: string;
  idleTimeoutMs: number;
  connectTimeoutMs: number;
  /** Status of the response whose body was being read, when headers had arrived. */
  status?: number;
}

const network = (message: string, cause: unknown, retryable: boolean, status?: number): AppError =>
  new AppError('network', message, { retryable, cause, statusCode: status });

export function mapFetchError(error: unknown, context: ErrorContext): AppError {
  const own = findAppError(error);
  if (own) return own;
  const { host, status } = context;
  const code = codeOf(error);
  switch (code) {
    case 'ENOTFOUND':
      return network(`could not resolve host ${host.replace(/:\d+$/, '')}`, error, false, status);
    case 'EAI_AGAIN':
      return network(`temporary DNS failure resolving ${host.replace(/:\d+$/, '')}`, error, true, status);
    case 'ECONNREFUSED':
      return network(`connection refused by ${host}`, error, true, status);
    case 'ECONNRESET':
    case 'EPIPE':
    case 'UND_ERR_SOCKET':
    case 'ERR_STREAM_PREMATURE_CLOSE':
      return network(`connection to ${host} closed unexpectedly`, error, true, status);
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
      return network(`host ${host} is unreachable`, error, true, status);
    case 'UND_ERR_RES_CONTENT_LENGTH_MISMATCH':
      return network(`response from ${host} does not match its Content-Length`, error, true, status);
    case 'UND_ERR_CONNECT_TIMEOUT':
      return new AppError('timeout', `could not connect to ${host} within ${context.connectTimeoutMs} ms`, {
        retryable: true,
        cause: error,
      });
    case 'UND_ERR_HEADERS_TIMEOUT':
      return new AppError('timeout', `no response headers from ${host} within ${context.idleTimeoutMs} ms`, {
        retryable: true,
        cause: error,
      });
    case 'UND_ERR_BODY_TIMEOUT':
      return new AppError('timeout', `response body from ${host} stalled for ${context.idleTimeoutMs} ms`, {
        retryable: true,
        cause: error,
        statusCode: status,
      });
    case HTTP_CLIENT_FAULT:
      return network(`the HTTP client failed on the connection to ${host} (${messageOf(error)})`, error, true, status);
    case 'UND_ERR_HEADERS_OVERFLOW':
      return network(`response headers from ${host} are too large`, error, false, status);
    case 'HPE_INVALID_CONSTANT':
    case 'HPE_INVALID_HEADER_TOKEN':
    case 'HPE_INVALID_CHUNK_SIZE':
    case 'HPE_UNEXPECTED_CONTENT_LENGTH':
      return network(`malformed HTTP response from ${host}`, error, false, status);
  }
  // zlib errors are Z_*; brotli decoder errors are ERR__ERROR_* / ERR_BROTLI_*.
  if (code.startsWith('Z_') || code.startsWith('ERR_BROTLI') || code.startsWith('ERR__ERROR')) {
    return network(`could not decode the compressed response from ${host}: ${messageOf(error)}`, error, false, status);
  }
  if (
    code.startsWith('ERR_TLS') ||
    code.startsWith('ERR_SSL') ||
    code.includes('CERT') ||
    code.startsWith('DEPTH_ZERO') ||
    code.startsWith('UNABLE_TO')
  ) {
    return network(`TLS error with ${host}: ${messageOf(error)}`, error, false, status);
  }
  return network(`request to ${host} failed: ${messageOf(error)}`, error, true, status);
}
