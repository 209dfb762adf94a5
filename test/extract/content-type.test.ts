import { describe, expect, it } from 'vitest';
import { classifyContentType, parseContentType } from '../../src/extract/content-type.js';

describe('parseContentType', () => {
  it('returns the lower-cased essence and charset', () => {
    expect(parseContentType('Text/HTML; Charset=UTF-8')).toEqual({ essence: 'text/html', charset: 'utf-8' });
    expect(parseContentType('text/plain')).toEqual({ essence: 'text/plain' });
    expect(parseContentType('  application/json ;  charset = "ISO-8859-1" ')).toEqual({
      essence: 'application/json',
      charset: 'iso-8859-1',
    });
  });

  it('ignores other parameters and keeps quoted separators inside quotes', () => {
    expect(parseContentType('text/html; boundary="a;b,c"; charset=shift_jis')).toEqual({
      essence: 'text/html',
      charset: 'shift_jis',
    });
  });

  it('returns null for missing or malformed headers', () => {
    expect(parseContentType(null)).toBeNull();
    expect(parseContentType('')).toBeNull();
    expect(parseContentType('html')).toBeNull();
    expect(parseContentType('text/')).toBeNull();
    expect(parseContentType('/html')).toBeNull();
    expect(parseContentType('*/*')).toBeNull();
    expect(parseContentType('text html/x')).toBeNull();
  });

  it('takes the last value of a repeated header, carrying the charset of the same essence', () => {
    expect(parseContentType('text/html; charset=utf-8, text/html')).toEqual({ essence: 'text/html', charset: 'utf-8' });
    expect(parseContentType('text/plain; charset=utf-8, text/html')).toEqual({ essence: 'text/html' });
    expect(parseContentType('text/html, bogus')).toEqual({ essence: 'text/html' });
  });
});

describe('classifyContentType', () => {
  const table: [string | null, string | null][] = [
    ['text/html', 'html'],
    ['text/html; charset=windows-1251', 'html'],
    ['TEXT/HTML', 'html'],
    ['application/xhtml+xml', 'html'],
    ['text/plain; charset=us-ascii', 'text'],
    ['text/markdown; variant=GFM', 'markdown'],
    ['text/x-markdown', 'markdown'],
    ['text/csv; header=present', 'csv'],
    ['text/tab-separated-values', 'csv'],
    ['application/json', 'json'],
    ['text/json', 'json'],
    ['application/ld+json', 'json'],
    ['application/feed+json', 'json'],
    ['application/problem+json; charset=utf-8', 'json'],
    ['application/xml', 'xml'],
    ['text/xml; charset=iso-8859-1', 'xml'],
    ['application/rss+xml', 'xml'],
    ['application/atom+xml; type=feed', 'xml'],
    ['image/svg+xml', null],
    ['image/png', null],
    ['image/jpeg', null],
    ['application/pdf', null],
    ['application/octet-stream', null],
    ['video/mp4', null],
    ['audio/mpeg', null],
    ['font/woff2', null],
    ['application/zip', null],
    ['application/vnd.openxmlformats-officedocument.wordprocessingml.document', null],
    ['text/javascript', null],
    ['text/css', null],
    ['model/gltf+json', null],
    [null, null],
    ['', null],
  ];
  it.each(table)('%s → %s', (header, kind) => {
    expect(classifyContentType(header)).toBe(kind);
  });
});
