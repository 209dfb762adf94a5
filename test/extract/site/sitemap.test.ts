import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import type { AppError } from '../../../src/core/errors.js';
import { MAX_SITEMAP_ENTRIES, gunzipCapped, isGzip, parseSitemap } from '../../../src/extract/site/sitemap.js';

describe('parseSitemap: urlset', () => {
  it('reads each url’s loc and lastmod, lastmod as ISO 8601', () => {
    const xml = `<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
  <url>
    <loc>
      https://example.com/
    </loc>
    <lastmod>2024-03-05</lastmod>
    <changefreq>weekly</changefreq>
    <priority>1.0</priority>
  </url>
  <url><loc>https://example.com/a?x=1&amp;y=2</loc><lastmod>2024-03-05T10:00+01:00</lastmod></url>
  <url><loc>https://example.com/b</loc><lastmod>last tuesday</lastmod></url>
  <url><loc>   </loc></url>
  <url><lastmod>2024-01-01</lastmod></url>
</urlset>`;
    expect(parseSitemap(xml)).toEqual({
      kind: 'urlset',
      urls: [
        { loc: 'https://example.com/', lastmod: '2024-03-05' },
        { loc: 'https://example.com/a?x=1&y=2', lastmod: '2024-03-05T10:00:00+01:00' },
        { loc: 'https://example.com/b' },
      ],
      truncated: false,
    });
  });

  it('tolerates a namespace prefix, CDATA, comments and attributes', () => {
    const xml = `<?xml version="1.0"?>
<!-- generated -->
<sm:urlset xmlns:sm="http://www.sitemaps.org/schemas/sitemap/0.9">
  <!-- <sm:url><sm:loc>https://example.com/commented</sm:loc></sm:url> -->
  <sm:url id="1"><sm:loc><![CDATA[https://example.com/c?a=1&b=<2>]]></sm:loc></sm:url>
  <sm:url>
    <sm:loc>https://example.com/<!-- split -->d</sm:loc>
    <sm:lastmod><![CDATA[2023-12-31T23:59:59Z]]></sm:lastmod>
  </sm:url>
  <url><loc>https://example.com/unprefixed</loc></url>
</sm:urlset>`;
    expect(parseSitemap(xml)).toEqual({
      kind: 'urlset',
      urls: [
        { loc: 'https://example.com/c?a=1&b=<2>' },
        { loc: 'https://example.com/d', lastmod: '2023-12-31T23:59:59Z' },
        { loc: 'https://example.com/unprefixed' },
      ],
      truncated: false,
    });
  });

  it('never takes an extension’s loc for the page’s', () => {
    const xml = `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"
        xmlns:image="http://www.google.com/schemas/sitemap-image/1.1"
        xmlns:video="http://www.google.com/schemas/sitemap-video/1.1">
  <url>
    <image:image><image:loc>https://cdn.example.com/a.jpg</image:loc></image:image>
    <loc>https://example.com/gallery</loc>
    <video:video><video:content_loc>https://cdn.example.com/v.mp4</video:content_loc></video:video>
  </url>
  <url><image:image><image:loc>https://cdn.example.com/only-an-image.jpg</image:loc></image:image></url>
</urlset>`;
    expect(parseSitemap(xml)).toEqual({
      kind: 'urlset',
      urls: [{ loc: 'https://example.com/gallery' }],
      truncated: false,
    });
  });

  it('decodes XML’s own references only and never reads a DOCTYPE', () => {
    const xml = `<?xml version="1.0"?>
<!DOCTYPE urlset [<!ENTITY a "https://evil.example/"><!ENTITY b "&a;&a;&a;&a;">]>
<urlset><url><loc>&b;x</loc></url><url><loc>https://example.com/caf&#233;&#x2F;&lt;&gt;&quot;&apos;&copy;</loc></url></urlset>`;
    expect(parseSitemap(xml)).toEqual({
      kind: 'urlset',
      urls: [{ loc: '&b;x' }, { loc: 'https://example.com/café/<>"\'&copy;' }],
      truncated: false,
    });
  });

  it('stops at 50,000 entries and says so', () => {
    const entries = (n: number): string =>
      `<urlset>${Array.from({ length: n }, (_, i) => `<url><loc>https://example.com/${i}</loc></url>`).join('')}</urlset>`;
    const full = parseSitemap(entries(MAX_SITEMAP_ENTRIES));
    expect(full.kind === 'urlset' && [full.urls.length, full.truncated]).toEqual([MAX_SITEMAP_ENTRIES, false]);
    const over = parseSitemap(entries(MAX_SITEMAP_ENTRIES + 2));
    expect(over.kind === 'urlset' && [over.urls.length, over.truncated, over.urls.at(-1)?.loc]).toEqual([
      MAX_SITEMAP_ENTRIES,
      true,
      `https://example.com/${MAX_SITEMAP_ENTRIES - 1}`,
    ]);
  });

  it('keeps what it read of a cut-off file', () => {
    expect(
      parseSitemap('<urlset><url><loc>https://example.com/a</loc></url><url><loc>https://example.com/b</lo'),
    ).toEqual({ kind: 'urlset', urls: [{ loc: 'https://example.com/a' }], truncated: false });
  });
});

describe('parseSitemap: sitemap index', () => {
  it('reads each sitemap’s loc and lastmod', () => {
    const xml = `<?xml version="1.0" encoding="UTF-8"?>
<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
  <sitemap><loc>https://example.com/sitemap-posts.xml.gz</loc><lastmod>2004-10-01T18:23:17+00:00</lastmod></sitemap>
  <sitemap><loc>/sitemap-pages.xml</loc></sitemap>
</sitemapindex>`;
    expect(parseSitemap(xml)).toEqual({
      kind: 'index',
      sitemaps: [
        { loc: 'https://example.com/sitemap-posts.xml.gz', lastmod: '2004-10-01T18:23:17+00:00' },
        { loc: '/sitemap-pages.xml' },
      ],
      truncated: false,
    });
  });
});

describe('parseSitemap: text and other documents', () => {
  it('reads a text sitemap, one URL a line', () => {
    expect(
      parseSitemap('\uFEFF\n https://example.com/a \r\nhttps://example.com/b\n\nnot a url\nhttp://example.com/c\n'),
    ).toEqual({
      kind: 'urlset',
      urls: [{ loc: 'https://example.com/a' }, { loc: 'https://example.com/b' }, { loc: 'http://example.com/c' }],
      truncated: false,
    });
  });

  it('calls anything else other', () => {
    for (const text of [
      '',
      '<!DOCTYPE html><html><body>Not found</body></html>',
      '<?xml version="1.0"?><rss version="2.0"><channel><item><link>https://example.com/</link></item></channel></rss>',
      'User-agent: *\nDisallow: /',
      '{"urls": ["https://example.com/"]}',
    ])
      expect(parseSitemap(text)).toEqual({ kind: 'other' });
  });
});

describe('gzip', () => {
  const xml = '<urlset><url><loc>https://example.com/</loc></url></urlset>';

  it('knows gzip by its magic number', () => {
    expect(isGzip(gzipSync(xml))).toBe(true);
    expect(isGzip(new TextEncoder().encode(xml))).toBe(false);
    expect(isGzip(new Uint8Array([0x1f]))).toBe(false);
  });

  it('decompresses up to the cap', () => {
    const bytes = gzipSync(xml);
    expect(new TextDecoder().decode(gunzipCapped(bytes, xml.length))).toBe(xml);
  });

  it('refuses more than the cap as too_large', () => {
    // 10 MB of zeros is ~10 KB of gzip.
    const bomb = gzipSync(new Uint8Array(10 * 1024 * 1024));
    expect(bomb.length).toBeLessThan(20_000);
    expect(() => gunzipCapped(bomb, 1024 * 1024)).toThrow(expect.objectContaining({ code: 'too_large' }) as AppError);
  });

  it('refuses corrupt data as unsupported_content_type', () => {
    const bytes = gzipSync(xml);
    for (const corrupt of [bytes.subarray(0, 12), new Uint8Array([0x1f, 0x8b, 1, 2, 3, 4])])
      expect(() => gunzipCapped(corrupt, 1024)).toThrow(
        expect.objectContaining({ code: 'unsupported_content_type' }) as AppError,
      );
  });
});
