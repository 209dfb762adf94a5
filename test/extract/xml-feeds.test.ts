import { describe, expect, it } from 'vitest';
import { convertXml } from '../../src/extract/xml.js';

const BASE = 'https://blog.example.org/feed.xml';

const RSS2 = `<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0" xmlns:content="http://purl.org/rss/1.0/modules/content/" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:atom="http://www.w3.org/2005/Atom">
  <channel>
    <title>Kitchen Notes &amp; Recipes</title>
    <link>https://blog.example.org/</link>
    <atom:link href="https://blog.example.org/feed.xml" rel="self" type="application/rss+xml"/>
    <description>&lt;p&gt;Bread, &lt;b&gt;soup&lt;/b&gt; and Q&A&lt;/p&gt;</description>
    <item>
      <title>Sourdough [part 1]</title>
      <link>/posts/sourdough-1</link>
      <pubDate>Tue, 05 Mar 2024 09:30:00 GMT</pubDate>
      <description><![CDATA[<p>Starter &amp; <em>patience</em>.</p><script>alert(1)</script>]]></description>
    </item>
    <item>
      <title>Caf&#233; au lait &#x2014; the basics</title>
      <guid isPermaLink="true">https://blog.example.org/posts/cafe</guid>
      <dc:date>2024-02-01T08:00:00+01:00</dc:date>
      <content:encoded><![CDATA[<div>Milk, coffee, a bowl.</div>]]></content:encoded>
    </item>
    <item>
      <title>No link here</title>
      <guid isPermaLink="false">tag:blog.example.org,2024:3</guid>
      <pubDate>sometime last week</pubDate>
    </item>
    <item>
      <title>Sneaky</title>
      <link>javascript:alert(1)</link>
    </item>
  </channel>
</rss>`;

describe('convertXml: RSS 2.0', () => {
  it('renders title, description and items with links, dates and summaries', () => {
    const result = convertXml(RSS2, BASE);
    expect(result.title).toBe('Kitchen Notes & Recipes');
    expect(result.description).toBe('Bread, soup and Q&A');
    expect(result.markdown).toBe(
      [
        '# Kitchen Notes & Recipes',
        '',
        'Bread, soup and Q&A',
        '',
        '- [Sourdough \\[part 1\\]](https://blog.example.org/posts/sourdough-1) — 2024-03-05T09:30:00Z',
        '  Starter & patience.',
        '- [Café au lait — the basics](https://blog.example.org/posts/cafe) — 2024-02-01T08:00:00+01:00',
        '  Milk, coffee, a bowl.',
        '- No link here — sometime last week',
        '- Sneaky',
      ].join('\n'),
    );
  });

  it('trims long summaries to about 300 characters at a word boundary', () => {
    const long = 'word '.repeat(200);
    const feed = `<rss><channel><title>T</title><item><title>A</title><link>https://x.example/a</link><description>${long}</description></item></channel></rss>`;
    const summary = convertXml(feed, BASE).markdown.split('\n').at(-1)!;
    expect(summary.startsWith('  word word')).toBe(true);
    expect(summary.endsWith('word…')).toBe(true);
    expect(summary.length).toBeLessThanOrEqual(2 + 301);
  });
});

describe('convertXml: RSS 1.0 (RDF)', () => {
  it('reads items beside the channel', () => {
    const rdf = `<?xml version="1.0"?>
<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns="http://purl.org/rss/1.0/" xmlns:dc="http://purl.org/dc/elements/1.1/">
  <channel rdf:about="https://news.example.net/">
    <title>Example News</title>
    <description>Daily headlines</description>
    <items><rdf:Seq><rdf:li rdf:resource="https://news.example.net/1"/></rdf:Seq></items>
  </channel>
  <item rdf:about="https://news.example.net/1">
    <title>First headline</title>
    <link>https://news.example.net/1</link>
    <dc:date>2024-01-15</dc:date>
    <description>Something happened.</description>
  </item>
  <item rdf:about="https://news.example.net/2">
    <title>Second headline</title>
  </item>
</rdf:RDF>`;
    expect(convertXml(rdf, BASE)).toEqual({
      title: 'Example News',
      description: 'Daily headlines',
      markdown:
        '# Example News\n\nDaily headlines\n\n- [First headline](https://news.example.net/1) — 2024-01-15\n  Something happened.\n- [Second headline](https://news.example.net/2)',
    });
  });
});

describe('convertXml: Atom', () => {
  it('reads entries, alternate links, html titles and xhtml content', () => {
    const atom = `<?xml version="1.0" encoding="utf-8"?>
<feed xmlns="http://www.w3.org/2005/Atom">
  <title type="html">Dev &lt;em&gt;Log&lt;/em&gt;</title>
  <subtitle>Notes from the workshop</subtitle>
  <link href="https://dev.example.com/" rel="alternate"/>
  <entry>
    <title>Release 2.0 (finally)</title>
    <link rel="edit" href="https://dev.example.com/edit/2"/>
    <link rel="alternate" type="text/html" href="https://dev.example.com/posts/(2.0)"/>
    <published>2024-04-01T12:00:00Z</published>
    <updated>2024-04-02T12:00:00Z</updated>
    <summary type="html">&lt;p&gt;It &amp;amp; more&lt;/p&gt;</summary>
  </entry>
  <entry>
    <title>Plain entry</title>
    <link href="posts/plain"/>
    <updated>2024-03-01T00:00:00Z</updated>
    <content type="xhtml"><div xmlns="http://www.w3.org/1999/xhtml"><p>Inline <b>XHTML</b> body</p></div></content>
  </entry>
</feed>`;
    const result = convertXml(atom, 'https://dev.example.com/atom.xml');
    expect(result.title).toBe('Dev Log');
    expect(result.markdown).toBe(
      [
        '# Dev Log',
        '',
        'Notes from the workshop',
        '',
        '- [Release 2.0 (finally)](<https://dev.example.com/posts/(2.0)>) — 2024-04-01T12:00:00Z',
        '  It & more',
        '- [Plain entry](https://dev.example.com/posts/plain) — 2024-03-01T00:00:00Z',
        '  Inline XHTML body',
      ].join('\n'),
    );
  });
});

describe('convertXml: sitemaps', () => {
  it('lists the URLs of a urlset with lastmod', () => {
    const sitemap = `<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
  <url><loc>https://shop.example/</loc><lastmod>2024-05-01</lastmod><priority>1.0</priority></url>
  <url><loc>https://shop.example/a?x=1&amp;y=2</loc></url>
  <url><loc>not a url at all</loc></url>
</urlset>`;
    expect(convertXml(sitemap, 'https://shop.example/sitemap.xml')).toEqual({
      markdown:
        '# Sitemap\n\n- <https://shop.example/> — 2024-05-01\n- <https://shop.example/a?x=1&y=2>\n- <https://shop.example/not%20a%20url%20at%20all>',
    });
  });

  it('lists the sitemaps of a sitemap index', () => {
    const index = `<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
  <sitemap><loc>https://shop.example/sitemap-1.xml</loc><lastmod>2024-05-02T10:00:00+00:00</lastmod></sitemap>
  <sitemap><loc>https://shop.example/sitemap-2.xml</loc></sitemap>
</sitemapindex>`;
    expect(convertXml(index, BASE).markdown).toBe(
      '# Sitemap index\n\n- <https://shop.example/sitemap-1.xml> — 2024-05-02T10:00:00+00:00\n- <https://shop.example/sitemap-2.xml>',
    );
  });
});

describe('convertXml: other and broken XML', () => {
  it('fences any other XML as source', () => {
    const xml = '<?xml version="1.0"?>\n<config><item key="a">1</item></config>';
    expect(convertXml(xml, BASE)).toEqual({
      markdown: '```xml\n<?xml version="1.0"?>\n<config><item key="a">1</item></config>\n```',
    });
  });

  it('falls back to the fenced source for a malformed feed', () => {
    const broken = '<rss><channel><title>Broken</title><item><title>Unclosed</item></channel></rss>';
    expect(convertXml(broken, BASE)).toEqual({ markdown: `\`\`\`xml\n${broken}\n\`\`\`` });
    expect(convertXml('', BASE)).toEqual({ markdown: '' });
    expect(convertXml('not xml at all', BASE)).toEqual({ markdown: '```xml\nnot xml at all\n```' });
  });

  it('repairs bare ampersands rather than giving up on a feed', () => {
    const feed =
      '<rss><channel><title>Q&A Weekly</title><item><title>Salt & pepper</title><link>https://x.example/?a=1&b=2</link></item></channel></rss>';
    expect(convertXml(feed, BASE).markdown).toBe('# Q&A Weekly\n\n- [Salt & pepper](https://x.example/?a=1&b=2)');
  });

  it('keeps a DOCTYPE inside CDATA content and handles nested CDATA text', () => {
    const feed =
      '<rss><channel><title>T</title><item><title><![CDATA[Tom & Jerry]]></title><link>https://x.example/t</link><description><![CDATA[<!DOCTYPE html><p>Body</p>]]></description></item></channel></rss>';
    expect(convertXml(feed, BASE).markdown).toBe('# T\n\n- [Tom & Jerry](https://x.example/t)\n  Body');
  });
});

describe('convertXml: entity attacks', () => {
  const laughs = `<?xml version="1.0"?>
<!DOCTYPE lolz [
  <!ENTITY lol "lol">
  <!ENTITY lol1 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
  <!ENTITY lol2 "&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;">
  <!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">
  <!ENTITY lol4 "&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;">
  <!ENTITY lol5 "&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;">
  <!ENTITY lol6 "&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;">
  <!ENTITY lol7 "&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;">
  <!ENTITY lol8 "&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;">
  <!ENTITY lol9 "&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;">
]>
<rss version="2.0"><channel><title>&lol9;</title><item><title>Laugh &lol9;</title><link>https://x.example/l</link></item></channel></rss>`;

  it('does not expand billion laughs: fast, bounded output', () => {
    const started = performance.now();
    const result = convertXml(laughs, BASE);
    expect(performance.now() - started).toBeLessThan(500);
    expect(result.markdown.length).toBeLessThan(laughs.length);
    expect(result.markdown).not.toContain('lollol');
    expect(result.markdown).toBe('# &lol9;\n\n- [Laugh &lol9;](https://x.example/l)');
  });

  it('does not expand billion laughs in generic XML either', () => {
    const generic = laughs.replace(/<rss[\s\S]*<\/rss>/, '<lolz>&lol9;</lolz>');
    const result = convertXml(generic, BASE);
    expect(result.markdown.length).toBeLessThan(generic.length + 20);
    expect(result.markdown).not.toContain('lollol');
  });

  it('neither resolves nor fetches external entities', () => {
    const xxe = `<?xml version="1.0"?>
<!DOCTYPE rss [ <!ENTITY xxe SYSTEM "file:///etc/passwd"> <!ENTITY remote SYSTEM "http://127.0.0.1:1/evil.dtd"> %remote; ]>
<rss version="2.0"><channel><title>Feed &xxe;</title><item><title>&remote;</title><link>https://x.example/1</link></item></channel></rss>`;
    const result = convertXml(xxe, BASE);
    expect(result.markdown).toBe('# Feed &xxe;\n\n- [&remote;](https://x.example/1)');
    expect(result.markdown).not.toContain('root:');
  });

  it('reads the prolog exactly: comments, PIs and a DOCTYPE before the root', () => {
    const feed = `\ufeff<?xml version="1.0"?>\n<!-- not a <!DOCTYPE x> -->\n<?xml-stylesheet href="s.xsl"?>\n<!DOCTYPE rss>\n<rss><channel><title>Prolog</title></channel></rss>`;
    expect(convertXml(feed, BASE).markdown).toBe('# Prolog');
  });

  it('honours quotes inside the internal subset when cutting the DOCTYPE', () => {
    const tricky = `<!DOCTYPE x [ <!ENTITY a "]>"> ]><rss><channel><title>Still &a; fine</title></channel></rss>`;
    expect(convertXml(tricky, BASE).markdown).toBe('# Still &a; fine');
  });
});
