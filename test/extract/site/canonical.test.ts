/**
 * The page's `<link rel=canonical>`: read raw by the head scan (readHtmlMeta), carried
 * absolute by the converter as the internal `canonical_url` in either format.
 */
import { describe, expect, it } from 'vitest';
import { readHtmlMeta } from '../../../src/extract/html-meta.js';
import { convert } from '../../../src/extract/index.js';

const PAGE = 'https://shop.example.com/p/42?color=red';
const utf8 = (text: string): Uint8Array => new TextEncoder().encode(text);

describe('readHtmlMeta: canonical', () => {
  it('reads the head’s canonical href as written, references decoded', () => {
    const html = `<head><title>T</title><link rel="stylesheet" href="/s.css">
      <link href=" /p/42?a=1&amp;b=2 " rel="alternate canonical"></head><body></body>`;
    expect(readHtmlMeta(html)).toEqual({ title: 'T', canonical: '/p/42?a=1&b=2' });
  });

  it('ignores one in the body or a comment, and two that disagree', () => {
    expect(readHtmlMeta('<head></head><body><link rel="canonical" href="/injected"></body>')).toEqual({});
    expect(readHtmlMeta('<head><!-- <link rel="canonical" href="/old"> --></head>')).toEqual({});
    expect(readHtmlMeta('<link rel="canonical" href="/a"><link rel="canonical" href="/b">')).toEqual({});
    expect(readHtmlMeta('<link rel="canonical" href="/a"><link rel="canonical" href="/a">')).toEqual({
      canonical: '/a',
    });
    expect(readHtmlMeta('<link rel="canonical" href="  ">')).toEqual({});
  });
});

describe('convert: canonical_url', () => {
  const html = `<!doctype html><html><head><title>Red shoe</title>
    <link rel="canonical" href="/p/42?utm_source=feed"></head>
    <body><article><h1>Red shoe</h1><p>${'A comfortable red shoe for long walks. '.repeat(20)}</p></article></body></html>`;

  it('is the canonical, absolute, tracking parameters dropped, in both formats', async () => {
    for (const format of ['markdown', 'html'] as const) {
      const output = await convert({ bytes: utf8(html), contentType: 'text/html', url: PAGE, format });
      expect(output.canonical_url).toBe('https://shop.example.com/p/42');
      expect(output).not.toHaveProperty('canonical');
    }
  });

  it('is absent without one, or when it is not http(s)', async () => {
    for (const page of [html.replace(/<link[^>]*>/, ''), html.replace('/p/42?utm_source=feed', 'ftp://x/y')]) {
      for (const format of ['markdown', 'html'] as const) {
        const output = await convert({ bytes: utf8(page), contentType: 'text/html', url: PAGE, format });
        expect(output).not.toHaveProperty('canonical_url');
        expect(output).not.toHaveProperty('canonical');
      }
    }
  });

  it('is never read from content that is not HTML', async () => {
    const output = await convert({
      bytes: utf8('<link rel="canonical" href="/x">'),
      contentType: 'text/plain',
      url: PAGE,
      format: 'markdown',
    });
    expect(output).not.toHaveProperty('canonical_url');
  });
});
