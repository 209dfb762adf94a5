/**
 * The library entry (src/index.ts), as an importer uses it: settings checked at creation,
 * the API's JSON in and out, AppError for a bad request, htmlToMarkdown, close; and that
 * it goes through Operations like every face (one validation, a request's context).
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Logger } from '../src/core/logger.js';
import { AppError, ConfigError, createWebSearch, htmlToMarkdown, crawlResponseSchema } from '../src/index.js';
import { Operations } from '../src/services/operations.js';
import { startFixtureSite } from './helpers/fixture-site.js';
import { startTestApi } from './helpers/test-server.js';

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
    const web = createWebSearch({
      env: {},
      config: { store: { path: ':memory:' }, fetch: { allowPrivateAddresses: true } },
    });
    try {
      const answer = await web.extract({ urls: [`${site.origin}/html`, 'not a url'] });
      expect(crawlResponseSchema.parse(answer)).toEqual(answer);
      expect(answer.results.map((r) => r.success)).toEqual([true, false]);
      expect(answer.metadata.credits_used).toBe(1);
      const error = await web.extract({ urls: [] }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(AppError);
      expect(error).toMatchObject({ code: 'invalid_request', details: [{ path: 'urls' }] });
      await expect(web.search({ q: '' })).rejects.toMatchObject({ code: 'invalid_request' });
      // One selector rule on every field (docs/decisions.md, "Page controls"), by path.
      const selectors = await web
        .extract({
          urls: [`${site.origin}/html`],
          include_selectors: ['main', 'div >'],
          exclude_selectors: ['a,'],
          wait_for_selector: ':contains(x)',
        })
        .catch((e: unknown) => e);
      expect(selectors).toBeInstanceOf(AppError);
      expect((selectors as AppError).details?.map((d) => d.path)).toEqual([
        'include_selectors.1',
        'exclude_selectors.0',
        'wait_for_selector',
      ]);
    } finally {
      await web.close();
    }
    await expect(web.extract({ urls: [`${site.origin}/html`] })).rejects.toThrow(/closed/);
    await expect(web.search({ q: 'x' })).rejects.toBeInstanceOf(AppError);
  });

  it('goes through Operations: validated as the HTTP API validates, each call a request with an id in the logs', async () => {
    const extract = vi.spyOn(Operations.prototype, 'extract');
    const lines: Record<string, unknown>[] = [];
    const make = (bindings: Record<string, unknown>): Logger => {
      const write = (obj: unknown, msg?: string) => void lines.push({ ...bindings, ...(obj as object), msg });
      return {
        fatal: write,
        error: write,
        warn: write,
        info: write,
        debug: write,
        trace: write,
        child: (more) => make({ ...bindings, ...more }),
      };
    };
    const web = createWebSearch({
      env: {},
      logger: make({}),
      config: { store: { path: ':memory:' }, fetch: { allowPrivateAddresses: true } },
    });
    const http = await startTestApi();
    try {
      const answer = await web.extract({ urls: [`${site.origin}/text`] });
      expect(answer.metadata.successful_crawls).toBe(1);
      expect(extract).toHaveBeenCalledTimes(1);
      expect(lines.find((line) => line.msg === 'operation done')).toMatchObject({
        operation: 'crawl',
        request_id: expect.stringMatching(/^req_[0-9A-Z]{26}$/),
      });
      // The same refusal, word for word, as the HTTP API's 400.
      const body = { urls: [`${site.origin}/text`], timeout_ms: 10 ** 9, format: 'pdf' };
      const error = (await web.extract(body as never).catch((e: unknown) => e)) as AppError;
      const refused = (await (await http.post('/api/crawl', body)).json()) as {
        error: { code: string; message: string; details: unknown };
      };
      expect({ code: error.code, message: error.message, details: error.details }).toEqual(refused.error);
    } finally {
      extract.mockRestore();
      await web.close();
      await http.close();
    }
  });

  it('checks its settings at once', () => {
    expect(() => createWebSearch({ env: { WEBSEARCH_FETCH_TIMEOUT_MS: 'soon' } })).toThrow(ConfigError);
    // The engine settings too, not only on the first search.
    expect(() => createWebSearch({ env: { WEBSEARCH_ENGINES: 'bing' } })).toThrow(/WEBSEARCH_ENGINES/);
    expect(createWebSearch({ env: {}, config: { fetch: { timeoutMs: 2_000 } } }).config.fetch.timeoutMs).toBe(2_000);
    // A misspelt name says what it probably is.
    expect(() => createWebSearch({ env: {}, config: { fetch: { allowPrivateAdresses: true } } as never })).toThrow(
      'fetch.allowPrivateAdresses: no such setting (did you mean fetch.allowPrivateAddresses?)',
    );
  });

  it('exports the converter the pipeline runs', () => {
    const { markdown, title } = htmlToMarkdown(
      '<html><head><title>T</title></head><body><article><h1>Hello</h1><p>A paragraph of text.</p></article></body></html>',
      'https://example.com/',
    );
    expect(title).toBe('T');
    expect(markdown).toContain('A paragraph of text.');
  });
});
