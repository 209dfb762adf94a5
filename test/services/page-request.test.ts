/**
 * The page request: a submitted URL passes the fetcher's own rules (net/request-url.ts)
 * once, before anything is fetched, and carries the one notion of "the same page" (its key)
 * and the cache key built on it.
 */
import { describe, expect, it } from 'vitest';
import { AppError } from '../../src/core/errors.js';
import { PAGE_STEPS } from '../../src/services/pages/page-journey.js';
import { pageRequest, type ExtractOptions, type PageRequest } from '../../src/services/pages/page-request.js';
import { PAGE_STEP_NAMES } from '../../src/services/pages/page-step-names.js';
import { testContext } from '../helpers/request-context.js';

const markdown: ExtractOptions = { format: 'markdown' };
const request = (raw: string, options: ExtractOptions = markdown) => pageRequest(testContext(), raw, options);
const accepted = (raw: string, options: ExtractOptions = markdown): PageRequest => {
  const page = request(raw, options);
  if (page instanceof AppError) throw page;
  return page;
};
const refused = (raw: string): string => {
  const page = request(raw);
  expect(page, raw).toBeInstanceOf(AppError);
  expect((page as AppError).code).toBe('invalid_url');
  return (page as AppError).message;
};

describe('pageRequest', () => {
  it('refuses what cannot be fetched, saying why', () => {
    expect(refused('   ')).toBe('The URL is empty.');
    expect(refused('not a url')).toMatch(/not a valid absolute URL: not a url/);
    expect(refused('ftp://files.test/a')).toMatch(/http or https, not ftp/);
    expect(refused('http://127.0.0.1:0/')).toMatch(/port 0/);
    expect(refused('https://example.test:0/a')).toMatch(/port 0/);
  });

  it('keeps the rest, credentials left out (never sent, never echoed), the submitted text as it was', () => {
    const page = accepted(' https://user:secret@example.test:8443/a?b=1#c ');
    expect(page.url.href).toBe('https://example.test:8443/a?b=1#c');
    expect(page.raw).toBe(' https://user:secret@example.test:8443/a?b=1#c ');
    expect(accepted('http://example.test:00080/').url.port).toBe('');
  });

  it('says "the same page" once: the URL without its fragment, an empty one too', () => {
    const keys = ['https://example.test/a', 'https://example.test/a#top', 'https://example.test/a#'].map(
      (raw) => accepted(raw).key,
    );
    expect(new Set(keys)).toEqual(new Set(['https://example.test/a']));
    expect(accepted('https://example.test/a?x=1').key).not.toBe(keys[0]);
  });

  it('caches under the format, the key and a digest of the options that change the output', () => {
    const plain = accepted('https://example.test/a#x');
    expect(plain.cacheKey).toBe('page:markdown:https://example.test/a');
    expect(accepted('https://example.test/a', { format: 'html' }).cacheKey).toBe('page:html:https://example.test/a');
    const linked = accepted('https://example.test/a', { format: 'markdown', controls: { includeLinks: true } });
    expect(linked.cacheKey).toMatch(/^page:markdown:[0-9a-f]{16}:https:\/\/example\.test\/a$/);
    // What is asked of the answer, not of the page, keeps the page's key.
    const asked = accepted('https://example.test/a', {
      format: 'markdown',
      maxAge: 0,
      passages: { query: 'q', max: 3, maxChars: 1500 },
    });
    expect(asked.cacheKey).toBe(plain.cacheKey);
  });
});

describe('the page journey', () => {
  it('runs its steps in the order of their names', () => {
    expect(PAGE_STEPS.map((step) => step.name)).toEqual([...PAGE_STEP_NAMES]);
  });
});
