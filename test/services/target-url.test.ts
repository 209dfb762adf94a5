/**
 * A submitted URL passes the fetcher's own rules (net/request-url.ts) before anything is
 * fetched: one implementation, so a URL the extractor accepts is one the fetcher accepts.
 */
import { describe, expect, it } from 'vitest';
import { AppError } from '../../src/core/errors.js';
import { parseTargetUrl } from '../../src/services/page-extractor.js';

const refused = (raw: string): string => {
  const parsed = parseTargetUrl(raw);
  expect(parsed, raw).toBeInstanceOf(AppError);
  expect((parsed as AppError).code).toBe('invalid_url');
  return (parsed as AppError).message;
};

describe('parseTargetUrl', () => {
  it('refuses what cannot be fetched, saying why', () => {
    expect(refused('   ')).toBe('The URL is empty.');
    expect(refused('not a url')).toMatch(/not a valid absolute URL: not a url/);
    expect(refused('ftp://files.test/a')).toMatch(/http or https, not ftp/);
    expect(refused('http://127.0.0.1:0/')).toMatch(/port 0/);
    expect(refused('https://example.test:0/a')).toMatch(/port 0/);
  });

  it('keeps the rest, credentials left out (never sent, never echoed)', () => {
    const url = parseTargetUrl(' https://user:secret@example.test:8443/a?b=1#c ') as URL;
    expect(url.href).toBe('https://example.test:8443/a?b=1#c');
    expect((parseTargetUrl('http://example.test:00080/') as URL).port).toBe('');
  });
});
