/**
 * Reads a response body through its Content-Encoding decoders while counting DECODED
 * bytes (docs/decisions.md, "Limits and politeness": the 10 MiB cap is on the decoded
 * body). The whole chain is one stream.pipeline, so any failure — cap crossed, hook
 * thrown, decoder error, abort — destroys every stage, including the socket-backed
 * source: nothing is left half-read.
 */
import { Writable, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { AppError } from '../core/errors.js';
import { createDecoder, type Encoding } from './content-decoding.js';

/** Magic-byte sniffers (file-type) look at up to 4100 bytes. */
export const FIRST_BYTES_LENGTH = 4100;

export interface BodyReadOptions {
  encodings: Encoding[];
  /** Decoded bytes allowed; crossing it fails with 'too_large'. */
  maxBytes: number;
  /** Stop quietly once this many decoded bytes arrived (robots.txt parse limit). */
  truncateAt?: number;
  /** HTTP status of the response, carried by 'too_large' errors. */
  status: number;
  onFirstBytes?: (bytes: Uint8Array) => void | Promise<void>;
  signal: AbortSignal;
}

/** Internal sentinel: the truncation limit was reached; not an error for the caller. */
class Truncated extends Error {}

class Collector extends Writable {
  readonly chunks: Buffer[] = [];
  total = 0;
  #hookDone = false;
  readonly #options: BodyReadOptions;

  constructor(options: BodyReadOptions) {
    super();
    this.#options = options;
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
    const { maxBytes, truncateAt, status } = this.#options;
    const next = this.total + chunk.length;
    let stop: Error | undefined;
    if (truncateAt !== undefined && truncateAt <= maxBytes && next >= truncateAt) {
      chunk = chunk.subarray(0, truncateAt - this.total);
      stop = new Truncated();
    } else if (next > maxBytes) {
      // Fail the moment the cap is crossed; the pipeline then destroys the decoders and
      // the socket, so a bomb or an endless stream costs at most ~maxBytes of work.
      callback(new AppError('too_large', `response body exceeds ${maxBytes} bytes (decoded)`, { statusCode: status }));
      return;
    }
    if (chunk.length > 0) this.chunks.push(chunk);
    this.total += chunk.length;
    if (!this.#hookDone && (this.total >= FIRST_BYTES_LENGTH || stop)) {
      this.#runHook(() => callback(stop), callback);
      return;
    }
    callback(stop);
  }

  override _final(callback: (error?: Error | null) => void): void {
    if (!this.#hookDone) this.#runHook(() => callback(), callback);
    else callback();
  }

  /** Calls onFirstBytes once, holding the stream (no more reads) until it settles. */
  #runHook(onDone: () => void, onError: (error: Error) => void): void {
    this.#hookDone = true;
    const hook = this.#options.onFirstBytes;
    if (!hook) return onDone();
    const head = this.chunks.length === 1 ? (this.chunks[0] as Buffer) : Buffer.concat(this.chunks);
    const first = new Uint8Array(head.subarray(0, FIRST_BYTES_LENGTH));
    try {
      Promise.resolve(hook(first)).then(onDone, (error: unknown) => onError(asError(error)));
    } catch (error) {
      onError(asError(error));
    }
  }
}

function asError(value: unknown): Error {
  return value instanceof Error ? value : new Error(String(value));
}

/**
 * Streams `source` through the decoders into memory. Resolves with the decoded bytes
 * (possibly cut at `truncateAt`); rejects with the first failure, after every stage of
 * the chain has been destroyed.
 */
export async function readBody(source: Readable, options: BodyReadOptions): Promise<Uint8Array> {
  const collector = new Collector(options);
  const decoders = options.encodings.map(createDecoder);
  try {
    await pipeline([source, ...decoders, collector], { signal: options.signal });
  } catch (error) {
    if (!(error instanceof Truncated)) throw error;
    // pipeline destroyed the source: the truncated rest is never downloaded.
  }
  const body = Buffer.concat(collector.chunks, collector.total);
  return new Uint8Array(body.buffer, body.byteOffset, body.byteLength);
}
