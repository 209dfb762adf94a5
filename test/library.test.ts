/**
 * The library entry (src/index.ts), as an importer uses it: settings checked at creation,
 * the API's JSON in and out, AppError for a bad request, htmlToMarkdown, close.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError, ConfigError, createWebSearch, htmlToMarkdown, crawlResponseSchema } from '../src/index.js';
import { startFixtureSite } from './helpers/fixture-site.js';

type Site = Awaited<ReturnType<typeof startFixtureSite>>;
let site: Site;
beforeAll(async () => {
  site = await startFixtureSite();
});
afterAll(async () => {
  await site?.close();
});

describe('createWebSearch', () => {
  it('extracts pages as the API does, and refuses a bad request with AppError', async () => {
    const web = createWebSearch({ env: {}, config: { store: { path: ':memory:' }, fetch: { allowPrivateAddresses: true } } });
    try {
      const answer = await web.extract({ urls: [`${site.origin}/html`, 'not a url'] });
      expect(crawlResponseSchema.parse(answer)).toEqual(answer);
      expect(answer.results.map((r) => r.success)).toEqual([true, false]);
      expect(answer.metadata.credits_used).toBe(1);
      const error = await web.extract({ urls: [] }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(AppError);
      expect(error).toMatchObject({ code: 'invalid_request', details: [{ path: 'urls' }] });
      await expect(web.search({ q: '' })).rejects.toMatchObject({ code: 'invalid_request' });
    } finally {
      await web.close();
    }
    await expect(web.extract({ urls: [`${site.origin}/html`] })).rejects.toThrow(/closed/);
    await expect(web.search({ q: 'x' })).rejects.toBeInstanceOf(AppError);
  });

  it('checks its settings at once', () => {
    expect(() => createWebSearch({ env: { WEBSEARCH_FETCH_TIMEOUT_MS: 'soon' } })).toThrow(ConfigError);
    // The engine settings too, not only on the first search.
    expect(() => createWebSearch({ env: { WEBSEARCH_ENGINES: 'bing' } })).toThrow(/WEBSEARCH_ENGINES/);
    expect(createWebSearch({ env: {}, config: { fetch: { timeoutMs: 2_000 } } }).config.fetch.timeoutMs).toBe(2_000);
  });

  it('exports the converter the pipeline runs', () => {
    const { markdown, title } = htmlToMarkdown('<html><head><title>T</title></head><body><article><h1>Hello</h1><p>A paragraph of text.</p></article></body></html>', 'https://example.com/');
    expect(title).toBe('T');
    expect(markdown).toContain('A paragraph of text.');
  });
});
