import { describe, expect, it } from 'vitest';
import { readHtmlMeta, tagAttributes } from '../../src/extract/html-meta.js';

describe('readHtmlMeta', () => {
  it('reads title, description, language and publication date from the head', () => {
    const html = `<!DOCTYPE html><html class="no-js" lang="en-GB"><head>
      <title>
        Tides &amp; Currents &#8212; A Primer
      </title>
      <meta name="description" content="How the moon moves the sea">
      <meta property="og:description" content="ignored, description came first">
      <meta property="article:published_time" content="2023-11-02T08:15:00Z">
      </head><body><p>…</p></body></html>`;
    expect(readHtmlMeta(html)).toEqual({
      title: 'Tides & Currents — A Primer',
      description: 'How the moon moves the sea',
      language: 'en-GB',
      published_at: '2023-11-02T08:15:00Z',
    });
  });

  it('falls back to Open Graph, content-language and JSON-LD', () => {
    const html = `<head><meta property="og:title" content="OG title"><meta property="og:description" content='Single quoted'>
      <meta http-equiv="Content-Language" content="pt-BR, en">
      <script type="application/ld+json">{"@type":"NewsArticle","datePublished":"2022-07-01"}</script></head>`;
    expect(readHtmlMeta(html)).toEqual({
      title: 'OG title',
      description: 'Single quoted',
      language: 'pt-BR',
      published_at: '2022-07-01',
    });
  });

  it('ignores commented-out tags, bad dates and returns nothing for a bare fragment', () => {
    expect(readHtmlMeta('<!-- <title>Old</title> --><meta name="date" content="not a date"><p>x</p>')).toEqual({});
    expect(readHtmlMeta('<meta property="og:locale" content="de_DE">')).toEqual({ language: 'de-DE' });
  });

  it('parses attributes in all quoting styles', () => {
    expect([...tagAttributes('<meta NAME=a content="b c" data-x=\'d\' defer>')]).toEqual([
      ['name', 'a'],
      ['content', 'b c'],
      ['data-x', 'd'],
      ['defer', ''],
    ]);
  });
});
