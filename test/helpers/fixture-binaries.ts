/**
 * Byte-level fixtures: a small real PDF, a 1x1 PNG, a gzip bomb, text in legacy
 * encodings. Everything is generated here, nothing is copied from elsewhere.
 */
import zlib from 'node:zlib';
import iconv from 'iconv-lite';
import { BOM_HTML, latin1Html, SHIFT_JIS_HTML } from './fixture-pages.js';

/** A minimal but well-formed PDF 1.7 (header, catalog, one page, text, xref, trailer). */
export function pdfBytes(): Buffer {
  const stream = 'BT /F1 18 Tf 72 720 Td (Harbour Notes fixture PDF) Tj ET';
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    `<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ];
  let out = '%PDF-1.7\n%\xe2\xe3\xcf\xd3\n';
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(Buffer.byteLength(out, 'latin1'));
    out += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = Buffer.byteLength(out, 'latin1');
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  out += offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('');
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, 'latin1');
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(bytes: Buffer): number {
  let c = 0xffffffff;
  for (const b of bytes) c = (CRC_TABLE[(c ^ b) & 0xff] as number) ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** A valid 1x1 red RGB PNG. */
export function pngBytes(): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(1, 0); // width
  header.writeUInt32BE(1, 4); // height
  header.set([8, 2, 0, 0, 0], 8); // bit depth 8, colour type RGB, deflate, no filter, no interlace
  const pixels = zlib.deflateSync(Buffer.from([0, 0xcc, 0x22, 0x22])); // filter byte + RGB
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', header),
    pngChunk('IDAT', pixels),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

/** NUL and control bytes around some ASCII: binary data mislabelled as text/plain. */
export function binaryAsTextBytes(): Buffer {
  const bytes = Buffer.alloc(2048);
  for (let i = 0; i < bytes.length; i++) bytes[i] = i % 7 === 0 ? 0 : (i * 31) % 32;
  bytes.write('not really text', 100, 'ascii');
  return bytes;
}

export const latin1Bytes = (metaCharset: boolean): Buffer => iconv.encode(latin1Html(metaCharset), 'windows-1252');
export const shiftJisBytes = (): Buffer => iconv.encode(SHIFT_JIS_HTML, 'Shift_JIS');
export const bomUtf8Bytes = (): Buffer =>
  Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(BOM_HTML, 'utf8')]);

export const GZIP_BOMB_INFLATED_BYTES = 100 * 1024 * 1024;
/** The bomb opens like an ordinary page, so content sniffing (magic bytes, NUL bytes) lets it through. */
export const GZIP_BOMB_PREFIX = '<!doctype html><html lang="en"><head><title>Harbour log</title></head><body><p>';
let bomb: Promise<Buffer> | undefined;

/**
 * ~100 MiB of HTML (a page head, then spaces) gzipped to ~100 KB, built once per process by
 * streaming 1 MiB blocks through a gzip stream (never holding 100 MiB in memory). Spaces
 * rather than zeros: a bomb that looks like text is the one a binary sniffer cannot stop,
 * so only the decoded-byte cap can.
 */
export function gzipBomb(): Promise<Buffer> {
  bomb ??= new Promise<Buffer>((resolve, reject) => {
    const gzip = zlib.createGzip({ level: 9 });
    const parts: Buffer[] = [];
    gzip.on('data', (chunk: Buffer) => parts.push(chunk));
    gzip.on('end', () => resolve(Buffer.concat(parts)));
    gzip.on('error', reject);
    const prefix = Buffer.from(GZIP_BOMB_PREFIX, 'ascii');
    gzip.write(prefix);
    const block = Buffer.alloc(1024 * 1024, 0x20);
    let written = prefix.length;
    const pump = (): void => {
      while (written < GZIP_BOMB_INFLATED_BYTES) {
        const piece = block.subarray(0, Math.min(block.length, GZIP_BOMB_INFLATED_BYTES - written));
        written += piece.length;
        if (!gzip.write(piece)) {
          gzip.once('drain', pump);
          return;
        }
      }
      gzip.end();
    };
    pump();
  });
  return bomb;
}

/** Applies Content-Encodings in the listed order (the header lists them in that order). */
export function encodeBody(body: Buffer, encodings: string[]): Buffer {
  let out = body;
  for (const encoding of encodings) {
    if (encoding === 'gzip' || encoding === 'x-gzip') out = zlib.gzipSync(out);
    else if (encoding === 'deflate') out = zlib.deflateSync(out);
    else if (encoding === 'deflate-raw') out = zlib.deflateRawSync(out);
    else if (encoding === 'br') out = zlib.brotliCompressSync(out);
    // Unknown codings (zstd, compress...) are labelled but left as is: the client must refuse them.
  }
  return out;
}
