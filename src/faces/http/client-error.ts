/**
 * Answers what never becomes a request: malformed HTTP (a bad Content-Length, headers or
 * a URL past node's header-size limit), clients too slow to send their headers or body
 * within the timeouts, and request targets that make no URL. Node would answer these with an empty body; here they get the one
 * error body and the connection is closed. Nothing of the input or of node's parser
 * errors is echoed, and nothing is logged above debug (a client's mistake is not ours).
 */
import { STATUS_CODES } from 'node:http';
import { RequestError } from '@hono/node-server';
import type { Duplex } from 'node:stream';
import type { RequestErrorCode } from '../../core/errors.js';
import { HTTP_STATUS } from '../../core/errors.js';
import { newRequestId } from '../../core/ids.js';
import type { Logger } from '../../core/logger.js';
import { errorBody, REQUEST_ID_HEADER } from './error-response.js';

interface ClientError extends Error {
  code?: string;
  /** The bytes node's parser was looking at when it gave up. */
  rawPacket?: Buffer;
}

/** Half of node's default header-size limit. */
const LONG_REQUEST_LINE = 8 * 1024;

function classify(err: ClientError): { code: RequestErrorCode; message: string } {
  if (err.code === 'ERR_HTTP_REQUEST_TIMEOUT') {
    return {
      code: 'request_timeout',
      message: 'The request headers or body did not arrive within the server timeout.',
    };
  }
  if (err.code === 'HPE_HEADER_OVERFLOW') {
    // The request line holding most of the limit (node's 16 KiB for line and headers): the URL is the excess.
    const packet = err.rawPacket;
    const lineEnd = packet?.indexOf('\r\n') ?? -1;
    const requestLine = packet === undefined ? 0 : lineEnd >= 0 ? lineEnd : packet.length;
    if (requestLine > LONG_REQUEST_LINE && /^[A-Z]+ /.test(packet?.subarray(0, 16).toString('latin1') ?? '')) {
      return { code: 'uri_too_long', message: 'The request URL is longer than the server accepts.' };
    }
    return { code: 'headers_too_large', message: 'The request headers are larger than the server accepts.' };
  }
  return {
    code: 'invalid_request',
    message: 'The request is not valid HTTP/1.1 (request line, headers or Content-Length).',
  };
}

/** A `clientError` listener for node's HTTP server. */
export function answerClientError(logger: Logger): (err: ClientError, socket: Duplex) => void {
  return (err, socket) => {
    const response = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
    // A reset connection, or one whose answer has begun, can only be dropped.
    if (err.code === 'ECONNRESET' || !socket.writable || response?.headersSent) {
      socket.destroy();
      return;
    }
    const { code, message } = classify(err);
    const requestId = newRequestId();
    logger.debug({ code: err.code, status: HTTP_STATUS[code], requestId }, 'malformed or slow HTTP request refused');
    // Once written, the connection goes, whatever the client still sends.
    socket.end(rawErrorResponse(code, message, {}, requestId), () => socket.destroy());
  };
}

/** The one error body as a whole HTTP/1.1 response that closes the connection, for a bare socket. */
export function rawErrorResponse(
  code: RequestErrorCode,
  message: string,
  headers: Record<string, string> = {},
  requestId: string = newRequestId(),
): string {
  const status = HTTP_STATUS[code];
  const body = JSON.stringify(errorBody(code, message));
  // Every answer carries its request id, these too (a report quotes it; app.ts's header).
  const extra = Object.entries({ ...headers, [REQUEST_ID_HEADER.toLowerCase()]: requestId })
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('');
  return `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? 'Error'}\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\n${extra}connection: close\r\n\r\n${body}`;
}

/**
 * The `errorHandler` of hono's node adapter: a request node parsed but whose target or Host
 * cannot make a URL (`*`, `/a\b`, `http://[::1`, `ftp://x/`) is a RequestError, which the
 * adapter would answer 400 with an empty body; anything else thrown before hono's own
 * error handling is ours (500). Both get the one error body.
 */
export function answerUnroutableRequest(logger: Logger): (err: unknown) => Response {
  return (err) => {
    const requestId = newRequestId();
    if (err instanceof RequestError) {
      logger.debug({ reason: err.message, requestId }, 'request target refused');
      return jsonError(
        'invalid_request',
        'The request target is not a URL this server serves: a path starting with "/" (or an absolute http:// URL) without backslashes, and a valid Host header.',
        requestId,
      );
    }
    logger.error({ err, requestId }, 'request failed before routing');
    return jsonError('internal_error', 'An internal error occurred; it has been logged.', requestId);
  };
}

function jsonError(code: RequestErrorCode, message: string, requestId: string): Response {
  return Response.json(errorBody(code, message), {
    status: HTTP_STATUS[code],
    headers: { [REQUEST_ID_HEADER]: requestId },
  });
}
