/**
 * Content-Encoding decoders (RFC 9110 8.4). undici.request hands back the raw bytes, so
 * gzip/deflate/br are undone here with node:zlib STREAMS: the consumer counts decoded bytes
 * and destroys the chain at the size cap, so a gzip bomb stops after ~maxBytes of output
 * instead of being inflated whole (which gunzipSync would do).
 */
import { Transform, type TransformCallback } from 'node:stream';
import zlib from 'node:zlib';
import { AppError } from '../core/errors.js';

/** More layers than this is abuse, not compression (undici's own fetch caps the chain too). */
export const MAX_ENCODINGS = 2;

export type Encoding = 'gzip' | 'deflate' | 'br';

// Lenient flushing: servers often cut the stream a few bytes early (missing trailer);
// decode what arrived rather than failing, as browsers do.
const GZIP_OPTIONS: zlib.ZlibOptions = { flush: zlib.constants.Z_SYNC_FLUSH, finishFlush: zlib.constants.Z_SYNC_FLUSH };
const BROTLI_OPTIONS: zlib.BrotliOptions = {
  flush: zlib.constants.BROTLI_OPERATION_FLUSH,
  finishFlush: zlib.constants.BROTLI_OPERATION_FLUSH,
};

/**
 * Parses Content-Encoding into the decoding order (the reverse of the listed order,
 * RFC 9110 8.4: codings are listed in the order they were applied). `identity` is
 * dropped. Unknown codings and chains longer than MAX_ENCODINGS are refused with
 * 'unsupported_content_type': we advertised only gzip/deflate/br, and bytes we cannot
 * decode are not content we can use (retrying will not help, so not 'network').
 */
export function decodingPlan(header: string | undefined, status: number): Encoding[] {
  if (!header) return [];
  const listed = header
    .split(',')
    .map((s) => s.trim().toLowerCase())
    .filter((s) => s !== '' && s !== 'identity');
  if (listed.length > MAX_ENCODINGS) {
    throw new AppError('unsupported_content_type', `too many content encodings: ${header}`, { statusCode: status });
  }
  const plan: Encoding[] = [];
  for (const coding of listed) {
    if (coding === 'gzip' || coding === 'x-gzip') plan.push('gzip');
    else if (coding === 'deflate') plan.push('deflate');
    else if (coding === 'br') plan.push('br');
    else
      throw new AppError('unsupported_content_type', `unsupported content encoding: ${coding}`, { statusCode: status });
  }
  return plan.reverse();
}

export function createDecoder(encoding: Encoding): Transform {
  switch (encoding) {
    case 'gzip':
      return zlib.createGunzip(GZIP_OPTIONS);
    case 'br':
      return zlib.createBrotliDecompress(BROTLI_OPTIONS);
    case 'deflate':
      return new DeflateDecoder();
  }
}

/**
 * "deflate" is meant to be zlib-wrapped (RFC 1950), but some servers send raw DEFLATE
 * (RFC 1951). The first two bytes tell: a zlib header has compression method 8 in the low
 * nibble and (CMF*256 + FLG) divisible by 31 (RFC 1950 2.2).
 */
export function looksLikeZlibHeader(bytes: Uint8Array): boolean {
  const cmf = bytes[0];
  const flg = bytes[1];
  if (cmf === undefined || flg === undefined) return false;
  return (cmf & 0x0f) === 8 && (cmf * 256 + flg) % 31 === 0;
}

/** Picks Inflate or InflateRaw after seeing the first two bytes, then delegates. */
class DeflateDecoder extends Transform {
  #inner: zlib.Inflate | zlib.InflateRaw | undefined;
  #head: Buffer = Buffer.alloc(0);

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    if (this.#inner) {
      this.#inner.write(chunk, () => callback());
      return;
    }
    this.#head = Buffer.concat([this.#head, chunk]);
    if (this.#head.length < 2) return callback();
    const inner = looksLikeZlibHeader(this.#head)
      ? zlib.createInflate(GZIP_OPTIONS)
      : zlib.createInflateRaw(GZIP_OPTIONS);
    this.#inner = inner;
    inner.on('data', (data: Buffer) => this.push(data));
    inner.on('error', (error) => this.destroy(error));
    const head = this.#head;
    this.#head = Buffer.alloc(0);
    inner.write(head, () => callback());
  }

  override _flush(callback: TransformCallback): void {
    const inner = this.#inner;
    if (!inner) {
      // Fewer than two bytes in total: not a valid deflate stream of anything.
      callback(this.#head.length === 0 ? null : new Error('truncated deflate stream'));
      return;
    }
    inner.once('end', () => callback());
    inner.end();
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    this.#inner?.destroy();
    callback(error);
  }
}
