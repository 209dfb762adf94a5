import { describe, expect, it } from 'vitest';
import { acceptLanguage, cleanText, htmlToText, parseRetryAfter, withSiteOperators } from '../../src/engines/common.js';

describe('parseRetryAfter', () => {
  it('reads seconds and HTTP dates', () => {
    expect(parseRetryAfter('120')).toBe(120);
    const now = Date.parse('2025-01-01T00:00:00Z');
    expect(parseRetryAfter('Wed, 01 Jan 2025 00:01:30 GMT', now)).toBe(90);
    expect(parseRetryAfter('Tue, 31 Dec 2024 00:00:00 GMT', now)).toBe(0);
    expect(parseRetryAfter(undefined)).toBeUndefined();
    expect(parseRetryAfter('soon')).toBeUndefined();
  });
});

describe('text helpers', () => {
  it('htmlToText strips tags, decodes entities and collapses space, keeping a lone <', () => {
    expect(htmlToText('<span class="searchmatch">a</span> &amp; <strong>b</strong>&nbsp;&eacute;&#x27;')).toBe(
      "a & b é'",
    );
    expect(htmlToText('x < y and a<b')).toBe('x < y and a<b');
    expect(htmlToText('&half; &star; &dash; &copy 2025')).toBe('½ ☆ ‐ © 2025');
    expect(htmlToText(undefined)).toBe('');
  });
  it('cleanText', () => {
    expect(cleanText('  a \n\t b\u00a0 c ')).toBe('a b c');
  });
  it('acceptLanguage', () => {
    expect(acceptLanguage(undefined)).toBe('en-US,en;q=0.9');
    expect(acceptLanguage('fr')).toBe('fr');
    expect(acceptLanguage('pt_BR')).toBe('pt-BR,pt;q=0.9');
  });
});

describe('withSiteOperators', () => {
  const opts = { multipleIncludes: 'or-group' as const, excludes: true, maxLength: 100 };
  it('writes single, OR-grouped and excluded sites', () => {
    expect(withSiteOperators('q', ['a.com'], undefined, opts)).toBe('q site:a.com');
    expect(withSiteOperators('q', ['a.com', 'B.org', 'a.com'], ['c.net'], opts)).toBe(
      'q (site:a.com OR site:b.org) -site:c.net',
    );
    expect(withSiteOperators('q', undefined, undefined, opts)).toBe('q');
  });
  it('can leave multiple includes and excludes out', () => {
    expect(
      withSiteOperators('q', ['a.com', 'b.org'], ['c.net'], {
        multipleIncludes: 'none',
        excludes: false,
        maxLength: 100,
      }),
    ).toBe('q');
  });
  it('drops the operators when the query would get too long', () => {
    expect(withSiteOperators('q'.repeat(95), ['a.com'], undefined, opts)).toBe('q'.repeat(95));
  });
});
