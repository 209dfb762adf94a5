import iconv from 'iconv-lite';
import { describe, expect, it } from 'vitest';
import { sniffBinary } from '../../src/extract/sniff.js';

const utf8 = (text: string) => new TextEncoder().encode(text);
const bytes = (...values: number[]) => Uint8Array.from(values);
const concat = (...parts: Uint8Array[]) => Uint8Array.from(parts.flatMap((part) => [...part]));

/** A 1×1 PNG: signature, IHDR, IDAT, IEND (checksums need not be right for sniffing). */
const PNG = concat(
  bytes(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a),
  bytes(0, 0, 0, 13),
  utf8('IHDR'),
  bytes(0, 0, 0, 1, 0, 0, 0, 1, 8, 6, 0, 0, 0, 0x1f, 0x15, 0xc4, 0x89),
  bytes(0, 0, 0, 0),
  utf8('IEND'),
  bytes(0xae, 0x42, 0x60, 0x82),
);
const GIF = concat(
  utf8('GIF89a'),
  bytes(1, 0, 1, 0, 0x80, 0, 0, 0, 0, 0, 0xff, 0xff, 0xff, 0x21, 0xf9, 4, 1, 0, 0, 0, 0, 0x2c),
);
const ZIP = concat(
  utf8('PK'),
  bytes(3, 4, 20, 0, 0, 0, 8, 0, 0, 0, 0, 0, 0, 0, 0, 0),
  bytes(0, 0, 0, 0, 0, 0, 0, 0, 5, 0, 0, 0),
  utf8('a.txt'),
);
const GZIP = bytes(0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3, 0x4b, 0x4c, 0x4a, 6, 0, 0xc2, 0x41, 0x24, 0x35, 3, 0, 0, 0);

describe('sniffBinary', () => {
  it('finds %PDF- at the start and within the first 1024 bytes', async () => {
    expect(await sniffBinary(utf8('%PDF-1.7\n%\u00e2\u00e3\n1 0 obj'))).toBe('application/pdf');
    expect(await sniffBinary(utf8(`${' '.repeat(300)}junk\n%PDF-1.4\n`))).toBe('application/pdf');
    expect(await sniffBinary(utf8(`<html>${'x'.repeat(2000)}%PDF-1.4</html>`))).toBeNull();
  });

  it('names image, archive and compression formats by their magic numbers', async () => {
    expect(await sniffBinary(PNG)).toBe('image/png');
    expect(await sniffBinary(GIF)).toBe('image/gif');
    expect(await sniffBinary(ZIP)).toBe('application/zip');
    expect(await sniffBinary(GZIP)).toBe('application/gzip');
  });

  it('refuses unknown bytes with NUL or many control bytes', async () => {
    expect(await sniffBinary(utf8('looks like text\u0000but is not'))).toBe('application/octet-stream');
    const noisy = Uint8Array.from({ length: 400 }, (_, i) => (i % 5 === 0 ? 0x01 : 0x41));
    expect(await sniffBinary(noisy)).toBe('application/octet-stream');
  });

  it('tolerates a few control bytes in text (ESC colour codes, a stray form feed)', async () => {
    expect(await sniffBinary(utf8('\u001b[31mred\u001b[0m and a page break\f here and more words of text'))).toBeNull();
    expect(await sniffBinary(utf8(`${'plain words '.repeat(20)}\u0002`))).toBeNull();
  });

  it('lets UTF-16 text with a BOM through, in both byte orders', async () => {
    const text = 'Hello, wörld — UTF-16 text with enough characters to judge.';
    expect(await sniffBinary(concat(bytes(0xff, 0xfe), iconv.encode(text, 'utf-16le')))).toBeNull();
    expect(await sniffBinary(concat(bytes(0xfe, 0xff), iconv.encode(text, 'utf-16be')))).toBeNull();
    // A UTF-16 BOM in front of binary garbage is still binary.
    expect(await sniffBinary(concat(bytes(0xff, 0xfe), bytes(0, 0, 1, 0, 2, 0, 3, 0)))).toBe(
      'application/octet-stream',
    );
  });

  it('lets UTF-8, Latin-1, HTML, XML and JSON through', async () => {
    expect(await sniffBinary(utf8('Grüße aus Köln — ünïcödé text'))).toBeNull();
    expect(await sniffBinary(iconv.encode('Café crème, 5 € à emporter', 'windows-1252'))).toBeNull();
    expect(
      await sniffBinary(utf8('<!doctype html><html><body><svg viewBox="0 0 1 1"></svg><p>Hi</p></body></html>')),
    ).toBeNull();
    expect(
      await sniffBinary(utf8('<?xml version="1.0" encoding="utf-8"?>\n<rss version="2.0"><channel/></rss>')),
    ).toBeNull();
    expect(await sniffBinary(utf8('{"a": [1, 2, 3]}'))).toBeNull();
    expect(await sniffBinary(new Uint8Array(0))).toBeNull();
  });

  it('does not mistake sentences for two-byte signatures', async () => {
    expect(await sniffBinary(utf8('BMW is a car maker from Munich.'))).toBeNull();
    expect(await sniffBinary(utf8('MZ stands for many things.'))).toBeNull();
    expect(await sniffBinary(utf8('ID3 tags explained: a guide.'))).toBeNull();
    expect(await sniffBinary(utf8('BEGIN:VCARD\nVERSION:3.0\nEND:VCARD\n'))).toBeNull();
  });

  it('still refuses text-serialised documents (RTF, PostScript)', async () => {
    expect(await sniffBinary(utf8('{\\rtf1\\ansi Hello}'))).toBe('application/rtf');
    expect(await sniffBinary(utf8('%!PS-Adobe-3.0\n%%Title: x'))).toBe('application/postscript');
  });

  it('refuses SVG documents, which docs/interface.md 4.2 treats as images', async () => {
    expect(await sniffBinary(utf8('<svg xmlns="http://www.w3.org/2000/svg"><circle r="1"/></svg>'))).toBe(
      'image/svg+xml',
    );
    expect(
      await sniffBinary(
        utf8(
          '\ufeff<?xml version="1.0"?>\n<!-- drawn by hand -->\n<!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "x">\n<svg/>',
        ),
      ),
    ).toBe('image/svg+xml');
    expect(await sniffBinary(utf8('<?xml version="1.0"?><svg:svg xmlns:svg="http://www.w3.org/2000/svg"/>'))).toBe(
      'image/svg+xml',
    );
  });

  it('looks at the first bytes only', async () => {
    const big = new Uint8Array(5_000_000).fill(0x61);
    big[4_999_999] = 0;
    const started = performance.now();
    expect(await sniffBinary(big)).toBeNull();
    expect(performance.now() - started).toBeLessThan(500);
  });
});
