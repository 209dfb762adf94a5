import { describe, expect, it } from 'vitest';
import { isTrackingParam } from '../../src/core/drop-tracking-params.js';
import { hostMatches, hostMatchesAny, normalizeUrlKey, toAsciiHost } from '../../src/engines/normalize-url.js';

describe('normalizeUrlKey', () => {
  it('accepts only http and https', () => {
    expect(normalizeUrlKey('https://example.com/')).toBe('example.com/');
    expect(normalizeUrlKey('http://example.com/')).toBe('example.com/');
    expect(normalizeUrlKey('ftp://example.com/file')).toBeNull();
    expect(normalizeUrlKey('javascript:alert(1)')).toBeNull();
    expect(normalizeUrlKey('mailto:a@example.com')).toBeNull();
    expect(normalizeUrlKey('data:text/html,hi')).toBeNull();
    expect(normalizeUrlKey('not a url')).toBeNull();
    expect(normalizeUrlKey('/relative/path')).toBeNull();
    expect(normalizeUrlKey('')).toBeNull();
  });

  it('ignores the scheme', () => {
    expect(normalizeUrlKey('http://example.com/a')).toBe(normalizeUrlKey('https://example.com/a'));
  });

  it('lower-cases the host but not the path', () => {
    expect(normalizeUrlKey('https://EXAMPLE.Com/Docs/Page')).toBe('example.com/Docs/Page');
  });

  it('encodes IDN hosts to ASCII (WHATWG does punycode)', () => {
    expect(new URL('https://BÜCHER.de').host).toBe('xn--bcher-kva.de');
    expect(normalizeUrlKey('https://BÜCHER.de/katalog')).toBe('xn--bcher-kva.de/katalog');
    expect(normalizeUrlKey('https://bücher.de/katalog')).toBe(normalizeUrlKey('https://xn--bcher-kva.de/katalog'));
  });

  it('drops default ports, keeps other ports', () => {
    expect(normalizeUrlKey('https://example.com:443/a')).toBe('example.com/a');
    expect(normalizeUrlKey('http://example.com:80/a')).toBe('example.com/a');
    expect(normalizeUrlKey('https://example.com:8443/a')).toBe('example.com:8443/a');
  });

  it('drops the fragment', () => {
    expect(normalizeUrlKey('https://example.com/a#section-2')).toBe('example.com/a');
    expect(normalizeUrlKey('https://example.com/a?x=1#top')).toBe('example.com/a?x=1');
  });

  it('drops tracking parameters (utm_*, click ids, mailchimp, hubspot, …)', () => {
    expect(
      normalizeUrlKey(
        'https://example.com/p?id=3&utm_source=news&utm_Medium=mail&UTM_CAMPAIGN=x&gclid=1&dclid=2&gbraid=3&wbraid=4&fbclid=5&msclkid=6&mc_cid=7&mc_eid=8&yclid=9&igshid=10&_hsenc=11&_hsmi=12&ref_src=twsrc&spm=a.b',
      ),
    ).toBe('example.com/p?id=3');
    expect(normalizeUrlKey('https://example.com/p?utm_source=x')).toBe('example.com/p');
    expect(isTrackingParam('UTM_TERM')).toBe(true);
    expect(isTrackingParam('ref')).toBe(false);
    expect(isTrackingParam('id')).toBe(false);
  });

  it('sorts the remaining parameters by name, stably', () => {
    expect(normalizeUrlKey('https://example.com/s?b=2&a=1&c=3')).toBe('example.com/s?a=1&b=2&c=3');
    expect(normalizeUrlKey('https://example.com/s?tag=z&a=1&tag=y')).toBe('example.com/s?a=1&tag=z&tag=y');
    expect(normalizeUrlKey('https://example.com/s?b=2&a=1')).toBe(normalizeUrlKey('https://example.com/s?a=1&b=2'));
  });

  it('normalises query encoding (%20 and + are the same form value)', () => {
    expect(normalizeUrlKey('https://example.com/s?q=a%20b')).toBe(normalizeUrlKey('https://example.com/s?q=a+b'));
    expect(normalizeUrlKey('https://example.com/s?')).toBe('example.com/s');
  });

  it('normalises percent-encoding in the path', () => {
    expect(normalizeUrlKey('https://example.com/%7Euser/a%2fb')).toBe('example.com/~user/a%2Fb');
    expect(normalizeUrlKey('https://example.com/caf%C3%A9')).toBe(normalizeUrlKey('https://example.com/café'));
  });

  it('strips trailing slashes on non-root paths only', () => {
    expect(normalizeUrlKey('https://example.com/docs/')).toBe('example.com/docs');
    expect(normalizeUrlKey('https://example.com/docs//')).toBe('example.com/docs');
    expect(normalizeUrlKey('https://example.com/')).toBe('example.com/');
    expect(normalizeUrlKey('https://example.com')).toBe('example.com/');
    expect(normalizeUrlKey('https://example.com/docs/?a=1')).toBe('example.com/docs?a=1');
  });

  it('keeps www. (www.x and x may be different sites)', () => {
    expect(normalizeUrlKey('https://www.example.com/')).toBe('www.example.com/');
    expect(normalizeUrlKey('https://www.example.com/')).not.toBe(normalizeUrlKey('https://example.com/'));
  });

  it('leaves out credentials and a trailing dot of the host', () => {
    expect(normalizeUrlKey('https://user:pw@example.com./a')).toBe('example.com/a');
  });

  it('trims surrounding white space', () => {
    expect(normalizeUrlKey('  https://example.com/a \n')).toBe('example.com/a');
  });
});

describe('hostMatches', () => {
  it('matches the domain itself and its subdomains', () => {
    expect(hostMatches('example.com', 'example.com')).toBe(true);
    expect(hostMatches('docs.example.com', 'example.com')).toBe(true);
    expect(hostMatches('a.b.example.com', 'example.com')).toBe(true);
  });
  it('does not match look-alikes or parents', () => {
    expect(hostMatches('notexample.com', 'example.com')).toBe(false);
    expect(hostMatches('example.com.evil.net', 'example.com')).toBe(false);
    expect(hostMatches('example.com', 'docs.example.com')).toBe(false);
  });
  it('is case-insensitive and IDNA-aware', () => {
    expect(hostMatches('Docs.EXAMPLE.com', 'example.COM')).toBe(true);
    expect(hostMatches('xn--bcher-kva.de', 'bücher.de')).toBe(true);
    expect(hostMatches('shop.bücher.de', 'XN--BCHER-KVA.DE')).toBe(true);
  });
  it('is lenient about how the domain is written', () => {
    expect(hostMatches('example.com', 'https://example.com/path')).toBe(true);
    expect(hostMatches('a.example.com', '*.example.com')).toBe(true);
    expect(hostMatches('a.example.com', '.example.com')).toBe(true);
    expect(hostMatches('example.com.', 'example.com')).toBe(true);
    expect(hostMatches('example.com', ' ')).toBe(false);
    expect(hostMatches('', 'example.com')).toBe(false);
  });
  it('hostMatchesAny', () => {
    expect(hostMatchesAny('b.org', ['a.com', 'b.org'])).toBe(true);
    expect(hostMatchesAny('c.net', ['a.com', 'b.org'])).toBe(false);
    expect(hostMatchesAny('c.net', [])).toBe(false);
  });
  it('toAsciiHost', () => {
    expect(toAsciiHost('BÜCHER.de')).toBe('xn--bcher-kva.de');
    expect(toAsciiHost('example.com:8080')).toBe('example.com');
    expect(toAsciiHost('ftp://example.com')).toBeNull();
    expect(toAsciiHost('exa mple.com')).toBeNull();
  });
});
