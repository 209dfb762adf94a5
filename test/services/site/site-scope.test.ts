import { describe, expect, it } from 'vitest';
import { normalizedUrl, SiteScope } from '../../../src/services/site/site-scope.js';
import { rankLinks } from '../../../src/extract/passages/rank-links.js';

describe('a site scope', () => {
  it('spells each page once: no fragment, default port, tracking or session parameters', () => {
    expect(normalizedUrl('https://Example.com:443/a?utm_source=x&id=2#top').href).toBe('https://example.com/a?id=2');
    expect(normalizedUrl('http://example.com/a;jsessionid=ABC?PHPSESSID=1&page=2').href).toBe(
      'http://example.com/a?page=2',
    );
    expect(normalizedUrl('/b', 'http://example.com/a/').href).toBe('http://example.com/b');
  });

  it('keeps to the start origin, or its subdomains when asked, and to the globs', () => {
    const scope = new SiteScope('https://www.example.com/docs/', {
      include_subdomains: false,
      include_paths: ['/docs/**'],
      exclude_paths: ['/docs/old/**'],
    });
    expect(scope.resolve('https://www.example.com/docs/a')).toEqual({ url: 'https://www.example.com/docs/a' });
    expect(scope.resolve('https://api.example.com/docs/a')).toEqual({ out: 'offsite' });
    expect(scope.resolve('/blog/x', 'https://www.example.com/')).toEqual({ out: 'excluded' });
    expect(scope.resolve('/docs/old/x', 'https://www.example.com/')).toEqual({ out: 'excluded' });
    expect(scope.resolve('mailto:a@example.com')).toEqual({ out: 'invalid' });
    const wide = new SiteScope('https://www.example.com/', { include_subdomains: true });
    expect(wide.resolve('https://api.example.com/x')).toEqual({ url: 'https://api.example.com/x' });
    expect(wide.resolve('https://example.com/x')).toEqual({ url: 'https://example.com/x' });
    expect(wide.resolve('https://notexample.com/x')).toEqual({ out: 'offsite' });
  });

  it('refuses a start URL that cannot be fetched with a 400 naming url', () => {
    for (const url of ['ftp://example.com/', 'not a url', 'javascript:alert(1)']) {
      try {
        new SiteScope(url, { include_subdomains: false });
        expect.unreachable(url);
      } catch (err) {
        expect((err as any).code).toBe('invalid_request');
        expect((err as any).details[0].path).toBe('url');
      }
    }
  });
});

describe('links ranked by a query', () => {
  it('finds a page by its path words, stemmed, and by its title', () => {
    const links = [
      { url: 'https://x.test/docs/tls/certificate-rotation' },
      { url: 'https://x.test/docs/webhooks/retries', title: 'Retrying failed deliveries' },
      { url: 'https://x.test/blog/2026/launch' },
      { url: 'https://x.test/docs/getting-started' },
    ];
    const [tls, hooks, blog, start] = rankLinks('rotating certificates', links);
    expect(tls).toBeGreaterThan(0);
    expect(hooks).toBe(0);
    expect(blog).toBe(0);
    expect(start).toBe(0);
    const retry = rankLinks('how do I retry a delivery', links);
    expect(retry.indexOf(Math.max(...retry))).toBe(1);
    expect(rankLinks('the of and', links)).toEqual([0, 0, 0, 0]);
  });
});
