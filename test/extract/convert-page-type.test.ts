/**
 * convert() with the real HTML cascade: `page_type` is the cascade's guess, set only on
 * HTML converted to Markdown; format html runs no cascade, and other kinds have none.
 */
import { describe, expect, it } from 'vitest';
import { convert } from '../../src/extract/index.js';
import { PAGE_TYPES } from '../../src/core/page-types.js';

const URL_ = 'https://site.example/notes/tides';
const utf8 = (text: string) => new TextEncoder().encode(text);
const ARTICLE =
  '<!doctype html><html lang="en"><head><title>Tides</title></head><body><nav><a href="/">Home</a></nav>' +
  '<article><h1>Tides</h1><p>The tide rises for about six hours, then falls for about six hours.</p>' +
  '<p>Spring tides follow the new and the full moon; neap tides the quarters.</p></article></body></html>';

describe('convert: page_type', () => {
  it("carries the cascade's guess, one of PAGE_TYPES, for HTML and XHTML as Markdown", async () => {
    for (const contentType of ['text/html; charset=utf-8', 'application/xhtml+xml', null]) {
      const out = await convert({ bytes: utf8(ARTICLE), contentType, url: URL_, format: 'markdown' });
      expect(out.markdown, String(contentType)).toContain('six hours');
      expect(PAGE_TYPES, String(contentType)).toContain(out.page_type);
    }
  });

  it('is absent with format html: no cascade runs', async () => {
    const out = await convert({ bytes: utf8(ARTICLE), contentType: 'text/html', url: URL_, format: 'html' });
    expect(out.html).toBe(ARTICLE);
    expect(out).not.toHaveProperty('page_type');
  });

  it.each([
    ['text/plain', 'plain words'],
    ['text/markdown', '# Notes\n\nwords'],
    ['text/csv', 'a,b\n1,2\n'],
    ['application/json', '{"a":1}'],
    [
      'application/rss+xml',
      '<rss version="2.0"><channel><title>News</title><item><title>One</title><link>/1</link></item></channel></rss>',
    ],
  ])('is absent for %s', async (contentType, body) => {
    for (const format of ['markdown', 'html'] as const) {
      const out = await convert({ bytes: utf8(body), contentType, url: URL_, format });
      expect(out, format).not.toHaveProperty('page_type');
    }
  });
});
