/**
 * readBody and the Content-Encoding decoders, driven by in-memory streams so the amount of
 * compressed input actually consumed can be measured.
 */
import { Readable } from 'node:stream';
import zlib from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { readBody, FIRST_BYTES_LENGTH } from '../../src/net/body-reader.js';
import { decodingPlan, looksLikeZlibHeader } from '../../src/net/content-decoding.js';
import { GZIP_BOMB_INFLATED_BYTES, gzipBomb } from '../helpers/fixture-binaries.js';

const MiB = 1024 * 1024;

/** A stream over `bytes` in `piece`-sized chunks that records how much was pulled from it. */
function counted(bytes: Buffer, piece = 16 * 1024): { stream: Readable; pulled: () => number } {
  let offset = 0;
  const stream = new Readable({
    read() {
      if (offset >= bytes.length) return void this.push(null);
      const chunk = bytes.subarray(offset, offset + piece);
      offset += chunk.length;
      this.push(chunk);
    },
  });
  return { stream, pulled: () => offset };
}

const options = (over: Partial<Parameters<typeof readBody>[1]> = {}) => ({
  encodings: [],
  maxBytes: 10 * MiB,
  status: 200,
  signal: new AbortController().signal,
  ...over,
});

describe('readBody', () => {
  it('stops a gzip bomb after consuming only the input needed for maxBytes of output', async () => {
    const bomb = await gzipBomb();
    const source = counted(bomb);
    const error = await readBody(source.stream, options({ encodings: ['gzip'] })).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'too_large', statusCode: 200 });
    // 10 MiB of 100 MiB output needs ~10 % of the input (plus a few 16 KiB stream buffers,
    // ~20 % here); inflating the whole bomb would pull 100 %.
    expect(source.pulled() / bomb.length).toBeLessThan(0.5);
    expect(source.stream.destroyed).toBe(true);
    expect(GZIP_BOMB_INFLATED_BYTES).toBe(100 * MiB);
  });

  it('truncates without error at truncateAt', async () => {
    const body = await readBody(
      Readable.from([Buffer.alloc(3000, 1), Buffer.alloc(3000, 2)]),
      options({ truncateAt: 4000 }),
    );
    expect(body.length).toBe(4000);
    expect(body[3999]).toBe(2);
  });

  it('lets maxBytes win over a larger truncateAt', async () => {
    const error = await readBody(
      Readable.from([Buffer.alloc(3000)]),
      options({ maxBytes: 2000, truncateAt: 5000 }),
    ).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'too_large' });
  });

  it('accepts a body of exactly maxBytes', async () => {
    const body = await readBody(Readable.from([Buffer.alloc(1500), Buffer.alloc(500)]), options({ maxBytes: 2000 }));
    expect(body.length).toBe(2000);
  });

  it('gives onFirstBytes the first 4100 bytes across chunk boundaries, before reading on', async () => {
    const chunks = Array.from({ length: 10 }, (_, i) => Buffer.alloc(1000, i));
    const source = counted(Buffer.concat(chunks), 1000);
    let seenAt = -1;
    const first: Uint8Array[] = [];
    await readBody(
      source.stream,
      options({ onFirstBytes: (bytes) => void (first.push(bytes), (seenAt = source.pulled())) }),
    );
    expect(first).toHaveLength(1);
    expect(first[0]?.length).toBe(FIRST_BYTES_LENGTH);
    expect(first[0]?.[4099]).toBe(4);
    expect(seenAt).toBeLessThan(10_000);
  });

  it('passes a thrown hook error through and destroys the source', async () => {
    const source = counted(Buffer.alloc(1 * MiB));
    const refusal = new Error('binary');
    await expect(
      readBody(
        source.stream,
        options({
          onFirstBytes: () => {
            throw refusal;
          },
        }),
      ),
    ).rejects.toBe(refusal);
    expect(source.stream.destroyed).toBe(true);
    expect(source.pulled()).toBeLessThan(1 * MiB);
  });

  it('aborts on the signal', async () => {
    const controller = new AbortController();
    const endless = new Readable({
      read() {
        setTimeout(() => this.push(Buffer.alloc(10)), 5);
      },
    });
    const pending = readBody(endless, options({ signal: controller.signal }));
    setTimeout(() => controller.abort(new Error('stop')), 30);
    await expect(pending).rejects.toThrow();
    expect(endless.destroyed).toBe(true);
  });

  it('decodes a two-layer chain in reverse order of application', async () => {
    const text = Buffer.from('harbour '.repeat(1000));
    const wire = zlib.brotliCompressSync(zlib.gzipSync(text)); // Content-Encoding: gzip, br
    const body = await readBody(Readable.from([wire]), options({ encodings: decodingPlan('gzip, br', 200) }));
    expect(Buffer.from(body).equals(text)).toBe(true);
  });

  it('decodes zlib and raw deflate, even when split into 1-byte chunks', async () => {
    const text = Buffer.from('tide '.repeat(500));
    for (const wire of [zlib.deflateSync(text), zlib.deflateRawSync(text)]) {
      const bytes = [...wire].map((b) => Buffer.from([b]));
      const body = await readBody(Readable.from(bytes), options({ encodings: ['deflate'] }));
      expect(Buffer.from(body).equals(text)).toBe(true);
    }
  });
});

describe('decodingPlan', () => {
  it('parses, lower-cases, drops identity and reverses', () => {
    expect(decodingPlan(undefined, 200)).toEqual([]);
    expect(decodingPlan('', 200)).toEqual([]);
    expect(decodingPlan('identity', 200)).toEqual([]);
    expect(decodingPlan('GZIP', 200)).toEqual(['gzip']);
    expect(decodingPlan('x-gzip', 200)).toEqual(['gzip']);
    expect(decodingPlan('deflate, br', 200)).toEqual(['br', 'deflate']);
  });

  it('refuses unknown codings and long chains', () => {
    expect(() => decodingPlan('zstd', 200)).toThrow(
      expect.objectContaining({ code: 'unsupported_content_type', statusCode: 200 }),
    );
    expect(() => decodingPlan('compress', 206)).toThrow(expect.objectContaining({ statusCode: 206 }));
    expect(() => decodingPlan('gzip, gzip, gzip', 200)).toThrow(/too many content encodings/);
  });

  it('recognises a zlib header (RFC 1950 2.2)', () => {
    expect(looksLikeZlibHeader(zlib.deflateSync(Buffer.from('x')))).toBe(true);
    expect(looksLikeZlibHeader(zlib.deflateRawSync(Buffer.from('harbour lights')))).toBe(false);
    expect(looksLikeZlibHeader(new Uint8Array([0x78]))).toBe(false);
  });
});
