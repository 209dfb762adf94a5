import iconv from 'iconv-lite';
import { describe, expect, it } from 'vitest';
import { decodeText } from '../../src/extract/charset.js';

const concat = (...parts: (Uint8Array | number[])[]) => Uint8Array.from(parts.flatMap((part) => [...part]));
const latin = (text: string) => Uint8Array.from(Buffer.from(text, 'latin1'));

describe('decodeText', () => {
  it('follows a UTF-8 BOM over everything else and strips it', () => {
    const body = concat([0xef, 0xbb, 0xbf], new TextEncoder().encode('<meta charset="windows-1251"><p>Grüße</p>'));
    expect(decodeText(body, 'text/html; charset=iso-8859-1', 'html')).toEqual({
      text: '<meta charset="windows-1251"><p>Grüße</p>',
      encoding: 'utf-8',
    });
  });

  it('follows UTF-16 BOMs in both byte orders and strips them', () => {
    const text = 'Ünïcode — 日本語';
    expect(
      decodeText(concat([0xff, 0xfe], iconv.encode(text, 'utf-16le')), 'text/plain; charset=utf-8', 'text'),
    ).toEqual({
      text,
      encoding: 'utf-16le',
    });
    expect(decodeText(concat([0xfe, 0xff], iconv.encode(text, 'utf-16be')), null, 'text')).toEqual({
      text,
      encoding: 'utf-16be',
    });
  });

  it('uses the Content-Type charset before any in-document declaration', () => {
    const body = concat(latin('<meta charset="utf-8"><p>'), iconv.encode('Привет', 'windows-1251'), latin('</p>'));
    const decoded = decodeText(body, 'text/html; charset="windows-1251"', 'html');
    expect(decoded.encoding).toBe('windows-1251');
    expect(decoded.text).toContain('Привет');
  });

  it('reads <meta charset> in the first 1024 bytes of HTML', () => {
    const body = concat(
      latin('<!doctype html><head><meta charset=koi8-r><title>'),
      iconv.encode('Заголовок', 'koi8-r'),
    );
    expect(decodeText(body, 'text/html', 'html')).toEqual({
      text: '<!doctype html><head><meta charset=koi8-r><title>Заголовок',
      encoding: 'koi8-r',
    });
  });

  it('reads <meta http-equiv="Content-Type" content="…charset=…">', () => {
    const body = concat(
      latin('<html><head><META HTTP-EQUIV="Content-Type" CONTENT="text/html; charset=EUC-KR"></head><p>'),
      iconv.encode('안녕하세요', 'euc-kr'),
    );
    const decoded = decodeText(body, null, 'html');
    expect(decoded.encoding).toBe('euc-kr');
    expect(decoded.text).toContain('안녕하세요');
  });

  it('skips a declaration inside a comment and one beyond 1024 bytes', () => {
    const commented = latin('<!-- <meta charset="koi8-r"> --><p>caf\u00e9</p>');
    expect(decodeText(commented, null, 'html').encoding).toBe('windows-1252');
    const late = latin(`<html>${' '.repeat(1100)}<meta charset="koi8-r"><p>caf\u00e9</p>`);
    expect(decodeText(late, null, 'html').encoding).toBe('windows-1252');
  });

  it('reads the XML declaration for XML', () => {
    const body = concat(
      latin('<?xml version="1.0" encoding="ISO-8859-15"?><title>'),
      iconv.encode('Prix: 5 €', 'iso-8859-15'),
      latin('</title>'),
    );
    expect(decodeText(body, 'application/rss+xml', 'xml')).toEqual({
      text: '<?xml version="1.0" encoding="ISO-8859-15"?><title>Prix: 5 €</title>',
      encoding: 'iso-8859-15',
    });
  });

  it('does not read in-document declarations for other kinds', () => {
    const body = latin('<meta charset="koi8-r"> caf\u00e9');
    expect(decodeText(body, 'text/plain', 'text').encoding).toBe('windows-1252');
  });

  it('maps latin1 labels to windows-1252 so 0x80 is the euro sign', () => {
    const body = Uint8Array.from([0x80, 0x20, 0x35, 0x20, 0x63, 0x61, 0x66, 0xe9]);
    for (const label of ['iso-8859-1', 'latin1', 'us-ascii', 'ISO_8859-1']) {
      expect(decodeText(body, `text/plain; charset=${label}`, 'text')).toEqual({
        text: '€ 5 café',
        encoding: 'windows-1252',
      });
    }
  });

  it('decodes all of 0x80–0x9F the WHATWG way (Node 20 TextDecoder does not)', () => {
    const body = Uint8Array.from({ length: 32 }, (_, i) => 0x80 + i);
    expect(decodeText(body, 'text/plain; charset=windows-1252', 'text').text).toBe(
      '€\u0081‚ƒ„…†‡ˆ‰Š‹Œ\u008dŽ\u008f\u0090‘’“”•–—˜™š›œ\u009džŸ',
    );
  });

  it('decodes Shift_JIS, GBK and Big5', () => {
    const japanese = '日本語のテキストです';
    expect(decodeText(iconv.encode(japanese, 'shift_jis'), 'text/plain; charset=Shift_JIS', 'text')).toEqual({
      text: japanese,
      encoding: 'shift_jis',
    });
    const meta = concat(latin('<meta charset="sjis">'), iconv.encode(japanese, 'shift_jis'));
    expect(decodeText(meta, null, 'html').text).toBe(`<meta charset="sjis">${japanese}`);
    expect(decodeText(iconv.encode('简体中文', 'gbk'), 'text/plain; charset=gb2312', 'text').text).toBe('简体中文');
    expect(decodeText(iconv.encode('繁體中文', 'big5'), 'text/plain; charset=big5', 'text').text).toBe('繁體中文');
  });

  it('ignores an unknown label and goes on with the next source', () => {
    const body = concat(
      latin('<meta charset="x-no-such-charset"><meta charset="windows-1251">'),
      iconv.encode('Да', 'windows-1251'),
    );
    const decoded = decodeText(body, 'text/html; charset=bogus-8', 'html');
    expect(decoded.encoding).toBe('windows-1251');
    expect(decoded.text.endsWith('Да')).toBe(true);
    expect(decodeText(new TextEncoder().encode('naïve'), 'text/plain; charset=nope', 'text')).toEqual({
      text: 'naïve',
      encoding: 'utf-8',
    });
  });

  it('ignores the replacement encoding and reads UTF-16 meta labels as UTF-8', () => {
    expect(decodeText(new TextEncoder().encode('ok ü'), 'text/plain; charset=iso-2022-kr', 'text')).toEqual({
      text: 'ok ü',
      encoding: 'utf-8',
    });
    expect(decodeText(new TextEncoder().encode('<meta charset="utf-16"><p>ü</p>'), null, 'html').encoding).toBe(
      'utf-8',
    );
  });

  it('defaults to UTF-8 and falls back to windows-1252 when the bytes are not UTF-8', () => {
    expect(decodeText(new TextEncoder().encode('Grüße €'), null, 'text')).toEqual({
      text: 'Grüße €',
      encoding: 'utf-8',
    });
    expect(decodeText(latin('Gr\u00fc\u00dfe \u0080'), null, 'html')).toEqual({
      text: 'Grüße €',
      encoding: 'windows-1252',
    });
    expect(decodeText(new Uint8Array(0), null, 'text')).toEqual({ text: '', encoding: 'utf-8' });
  });
});
