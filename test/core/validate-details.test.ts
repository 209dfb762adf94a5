/**
 * A field of the wrong type is reported once, as a type error: zod 4 would also measure a
 * string's length against an array's bounds and report "at most 10 URLs" for one URL.
 */
import { describe, expect, it } from 'vitest';
import { AppError } from '../../src/core/errors.js';
import { extractRequestSchema, searchRequestSchema } from '../../src/core/schemas.js';
import { validate } from '../../src/core/validate.js';

const extract = extractRequestSchema({ maxUrls: 10, maxTimeoutMs: 60_000 });

function detailsOf(run: () => unknown): { path: string; message: string }[] {
  try {
    run();
  } catch (err) {
    expect(err).toBeInstanceOf(AppError);
    return (err as AppError).details ?? [];
  }
  throw new Error('expected invalid_request');
}

describe('validation details', () => {
  it('a URL given as a string instead of a list: one type error, not a false count', () => {
    const details = detailsOf(() => validate(extract, { urls: 'http://127.0.0.1:9/a-long-enough-url' }));
    expect(details).toEqual([{ path: 'urls', message: expect.stringMatching(/expected array, received string/) }]);
  });

  it('the same for the selector and domain lists, and a list where text belongs', () => {
    const selectors = detailsOf(() =>
      validate(extract, { urls: ['http://a.test/'], include_selectors: 'article, main, .content, #body, x' }),
    );
    expect(selectors.map((d) => d.path)).toEqual(['include_selectors']);
    const domains = detailsOf(() =>
      validate(searchRequestSchema, { q: 'x', include_domains: 'one.test,two.test,three.test,four.test,five.test' }),
    );
    expect(domains.map((d) => d.path)).toEqual(['include_domains']);
    const query = detailsOf(() => validate(searchRequestSchema, { q: [] }));
    expect(query).toEqual([{ path: 'q', message: expect.stringMatching(/expected string/) }]);
  });

  it('still reports every problem of well-typed fields', () => {
    const details = detailsOf(() => validate(extract, { urls: Array(11).fill('http://a.test/'), max_chars: 0 }));
    expect(details.map((d) => d.path).sort()).toEqual(['max_chars', 'urls']);
  });
});
