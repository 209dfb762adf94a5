/**
 * One HTTP exchange through an undici dispatcher, with a response body that never pushes
 * back on undici's HTTP/1 parser. undici 7 pauses the parser when a body's reader falls
 * behind, and a peer that closes the connection while it is paused (a body delimited by
 * the close, HTTP/1.0 style) trips an assertion in the socket's 'end' handler that no
 * caller can catch: the process dies (fixed upstream only in undici 8, which needs Node 22).
 * So the body is taken as fast as it arrives and buffered here instead, bounded: more than
 * `maxBufferedBytes` waiting for a reader fails the exchange `too_large`, the same cap the
 * reader applies to what it has read (docs/decisions.md, "Limits and politeness").
 */
import type { IncomingHttpHeaders } from 'node:http';
import { Readable } from 'node:stream';
import type { Dispatcher } from 'undici';
import { AppError } from '../core/errors.js';

export interface SendInit {
  method: Dispatcher.HttpMethod;
  headers: Record<string, string>;
  body?: string | Uint8Array;
  signal: AbortSignal;
  /** Bytes that may wait in the body for its reader before the exchange fails `too_large`. */
  maxBufferedBytes: number;
}

export interface SentResponse {
  statusCode: number;
  statusText: string;
  headers: IncomingHttpHeaders;
  /** The raw (still content-encoded) body; destroying it aborts the exchange. */
  body: Readable;
}

/** Sends the request; resolves at the final (non-1xx) response head, rejects on any failure before it. */
export function sendRequest(dispatcher: Dispatcher, url: URL, init: SendInit): Promise<SentResponse> {
  return new Promise((resolve, reject) => {
    let controller: Dispatcher.DispatchController | undefined;
    let body: Readable | undefined;
    let ended = false;
    let status = 0;
    const { signal } = init;

    const abort = (reason: Error): void => {
      if (controller && !controller.aborted) controller.abort(reason);
    };
    const onAbort = (): void => abort(asError(signal.reason));
    const finish = (): void => signal.removeEventListener('abort', onAbort);
    signal.addEventListener('abort', onAbort, { once: true });

    const handler: Dispatcher.DispatchHandler = {
      onRequestStart(started) {
        controller = started;
        if (signal.aborted) onAbort();
      },
      onResponseStart(_controller, statusCode, headers, statusMessage) {
        // 1xx heads are interim (RFC 9110 15.2): the final response follows on the same exchange.
        if (statusCode < 200) return;
        status = statusCode;
        body = new Readable({
          read() {},
          destroy(error, callback) {
            // A reader that gives up (cap, truncation, hook error) ends the exchange and its socket.
            if (!ended) abort(error ?? new AppError('cancelled', 'the response body was discarded'));
            finish();
            callback(error);
          },
        });
        // The body may fail before its reader attaches (the same parse that delivered the head
        // can cross the cap); the reader still sees the error through the stream's state.
        body.on('error', () => undefined);
        resolve({ statusCode, statusText: statusMessage ?? '', headers, body });
      },
      onResponseData(_controller, chunk) {
        if (!body || body.destroyed) return;
        body.push(chunk);
        if (body.readableLength > init.maxBufferedBytes) {
          body.destroy(
            new AppError('too_large', `response body exceeds ${init.maxBufferedBytes} bytes`, { statusCode: status }),
          );
        }
      },
      onResponseEnd() {
        ended = true;
        finish();
        body?.push(null);
      },
      onResponseError(_controller, error) {
        finish();
        if (body) {
          if (!body.destroyed) body.destroy(error);
        } else reject(error);
      },
    };

    dispatcher.dispatch(
      {
        origin: url.origin,
        path: `${url.pathname}${url.search}`,
        method: init.method,
        headers: init.headers,
        body: init.body,
      },
      handler,
    );
  });
}

function asError(value: unknown): Error {
  return value instanceof Error ? value : new AppError('cancelled', String(value ?? 'aborted'));
}
