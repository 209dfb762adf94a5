/**
 * The library called from plain JavaScript with arguments of the wrong kind: an AppError
 * with invalid_request and the offending path, never a TypeError from deep inside.
 */
import { describe, expect, it } from 'vitest';
import { AppError, createWebSearch, htmlToMarkdown } from '../src/index.js';

async function refusal(run: () => Promise<unknown>): Promise<AppError> {
  const error = await run().then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(error).toBeInstanceOf(AppError);
  return error as AppError;
}

describe('the library with arguments of the wrong kind', () => {
  it('call options that are not { signal }: invalid_request naming them, nothing fetched', async () => {
    const web = createWebSearch({ env: {}, config: { store: { path: ':memory:' } } });
    try {
      const anyWeb = web as any;
      for (const [call, options, path] of [
        [() => anyWeb.extract({ urls: ['http://127.0.0.1:9/'] }, null), null, '(options)'],
        [() => anyWeb.search({ q: 'x' }, null), null, '(options)'],
        [() => anyWeb.extract({ urls: ['http://127.0.0.1:9/'] }, { signal: 'x' }), 'x', 'signal'],
        [() => anyWeb.search({ q: 'x' }, 7), 7, '(options)'],
      ] as const) {
        const error = await refusal(call);
        expect(error.code, String(options)).toBe('invalid_request');
        expect(error.details?.[0]?.path).toBe(path);
      }
      // The signal a caller passes still works as before.
      const aborted = await refusal(() => web.search({ q: 'x' }, { signal: AbortSignal.abort() }));
      expect(aborted.code).toBe('cancelled');
    } finally {
      await web.close();
    }
  });

  it('htmlToMarkdown without strings: invalid_request naming html or url', () => {
    for (const [html, url, path] of [
      [{}, 'https://a.test/', 'html'],
      [null, 'https://a.test/', 'html'],
      ['<p>x</p>', undefined, 'url'],
    ] as const) {
      let error: unknown;
      try {
        htmlToMarkdown(html as any, url as any);
      } catch (err) {
        error = err;
      }
      expect(error).toBeInstanceOf(AppError);
      expect((error as AppError).code).toBe('invalid_request');
      expect((error as AppError).details?.map((d) => d.path)).toEqual([path]);
    }
    expect(htmlToMarkdown('<p>Still fine.</p>', 'https://a.test/').markdown).toContain('Still fine.');
  });
});
