/**
 * The authors a page names outside its structured data (read/bylines.ts), and the
 * pipeline's choice between the two: the structured data first, else the byline.
 */
import { parseHTML } from 'linkedom';
import { describe, expect, it } from 'vitest';
import { bylineAuthors, metaAuthors } from '../../src/extract/html/read/bylines.js';
import { metaMap } from '../../src/extract/html/read/metadata.js';
import { htmlToMarkdown } from '../../src/extract/html/html-to-markdown.js';
import type { DomDocument } from '../../src/extract/html/dom.js';

function authors(html: string): string[] {
  const doc = parseHTML(html).document as unknown as DomDocument;
  return bylineAuthors(doc, metaMap(doc));
}

const STORY = '<p>The harbour board met on Tuesday and agreed to rebuild the north pier before winter.</p>'.repeat(4);

describe('bylineAuthors', () => {
  it('reads the author meta, several names split at "and", "&" and ";"', () => {
    expect(
      authors('<html><head><meta name="author" content="Ada Quill and Bram Oyelowo"></head><body></body></html>'),
    ).toEqual(['Ada Quill', 'Bram Oyelowo']);
    expect(metaAuthors(new Map([['author', 'Ada Quill; Cai Wen & Dot Roe']]))).toEqual([
      'Ada Quill',
      'Cai Wen',
      'Dot Roe',
    ]);
  });

  it('takes article:author only when it is a name, not a profile address', () => {
    expect(metaAuthors(new Map([['article:author', 'https://social.example/ada']]))).toEqual([]);
    expect(metaAuthors(new Map([['article:author', 'Ada Quill']]))).toEqual(['Ada Quill']);
  });

  it('reads rel=author links and itemprop=author in the article, names once each', () => {
    const html = `<html><body><article><p>By <a rel="author" href="/staff/ada">Ada Quill</a></p>${STORY}<span itemprop="author" itemscope><span itemprop="name">Ada Quill</span></span></article></body></html>`;
    expect(authors(html)).toEqual(['Ada Quill']);
  });

  it('reads a byline element opening with "By", without the role or date after the name', () => {
    const html = `<html><body><article><p class="story-byline">By Kirsty Abernathy, Transport reporter · 6 February 2024</p>${STORY}</article></body></html>`;
    expect(authors(html)).toEqual(['Kirsty Abernathy']);
    const two = `<html><body><article><div class="byline">By Ada Quill and Bram Oyelowo | 3 June 2024</div>${STORY}</article></body></html>`;
    expect(authors(two)).toEqual(['Ada Quill', 'Bram Oyelowo']);
  });

  it('names no one from an e-mail address, a bare address or a byline without "By"', () => {
    expect(metaAuthors(new Map([['author', 'newsdesk@example.org']]))).toEqual([]);
    expect(metaAuthors(new Map([['author', 'www.example.org']]))).toEqual([]);
    expect(
      authors(`<html><body><article><p class="byline">Updated 3 June 2024</p>${STORY}</article></body></html>`),
    ).toEqual([]);
  });
});

describe('authors in the extraction', () => {
  it("the structured data's authors come before the byline's", () => {
    const ld = JSON.stringify({
      '@context': 'https://schema.org',
      '@type': 'BlogPosting',
      headline: 'Pier',
      author: [{ '@type': 'Person', name: 'Cai Wen' }],
    });
    const html = `<html><head><meta name="author" content="Site Editor"><script type="application/ld+json">${ld}</script></head><body><article><h1>Pier</h1>${STORY}</article></body></html>`;
    expect(htmlToMarkdown(html, 'https://news.example.com/pier').authors).toEqual(['Cai Wen']);
    const plain = html.replace(/<script[\s\S]*<\/script>/, '');
    expect(htmlToMarkdown(plain, 'https://news.example.com/pier').authors).toEqual(['Site Editor']);
    expect(
      htmlToMarkdown(`<html><body><article>${STORY}</article></body></html>`, 'https://news.example.com/').authors,
    ).toBeUndefined();
  });
});
