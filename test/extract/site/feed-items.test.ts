import { describe, expect, it } from 'vitest';
import { parseFeedItems } from '../../../src/extract/site/feed-items.js';

const FEED_URL = 'https://blog.example.org/feed.xml';

describe('parseFeedItems: RSS 2.0', () => {
  it('reads each item’s link, title and date, links absolute without tracking parameters', () => {
    const rss = `<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0" xmlns:dc="http://purl.org/dc/elements/1.1/">
  <channel>
    <title>Kitchen Notes &amp; Recipes</title>
    <link>https://blog.example.org/</link>
    <item>
      <title>Sourdough   [part 1]</title>
      <link>/posts/sourdough-1?utm_source=rss&amp;page=2</link>
      <pubDate>Tue, 05 Mar 2024 09:30:00 GMT</pubDate>
    </item>
    <item>
      <title><![CDATA[Café & more]]></title>
      <guid isPermaLink="true">https://blog.example.org/posts/cafe</guid>
      <dc:date>2024-02-01T08:00:00+01:00</dc:date>
    </item>
    <item><title>No link</title><guid isPermaLink="false">tag:blog.example.org,2024:3</guid></item>
    <item><title>Sneaky</title><link>javascript:alert(1)</link></item>
    <item><link>https://blog.example.org/posts/untitled</link><pubDate>sometime</pubDate></item>
  </channel>
</rss>`;
    expect(parseFeedItems(rss, FEED_URL)).toEqual({
      title: 'Kitchen Notes & Recipes',
      items: [
        {
          url: 'https://blog.example.org/posts/sourdough-1?page=2',
          title: 'Sourdough [part 1]',
          published: '2024-03-05T09:30:00Z',
        },
        { url: 'https://blog.example.org/posts/cafe', title: 'Café & more', published: '2024-02-01T08:00:00+01:00' },
        { url: 'https://blog.example.org/posts/untitled' },
      ],
    });
  });

  it('needs the feed’s URL for relative links', () => {
    const rss = `<rss version="2.0"><channel><title>T</title>
      <item><link>/relative</link></item><item><link>https://example.org/absolute</link></item></channel></rss>`;
    expect(parseFeedItems(rss)).toEqual({ title: 'T', items: [{ url: 'https://example.org/absolute' }] });
  });
});

describe('parseFeedItems: RSS 1.0', () => {
  it('reads the items beside the channel, rdf:about when there is no link', () => {
    const rdf = `<?xml version="1.0"?>
<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns="http://purl.org/rss/1.0/" xmlns:dc="http://purl.org/dc/elements/1.1/">
  <channel rdf:about="https://news.example.net/"><title>News</title></channel>
  <item rdf:about="https://news.example.net/1"><title>One</title><link>https://news.example.net/1</link><dc:date>2024-05-01</dc:date></item>
  <item rdf:about="https://news.example.net/2"><title>Two</title></item>
</rdf:RDF>`;
    expect(parseFeedItems(rdf, 'https://news.example.net/rss')).toEqual({
      title: 'News',
      items: [
        { url: 'https://news.example.net/1', title: 'One', published: '2024-05-01' },
        { url: 'https://news.example.net/2', title: 'Two' },
      ],
    });
  });
});

describe('parseFeedItems: Atom', () => {
  it('takes the alternate link (or the first), resolved against xml:base', () => {
    const atom = `<?xml version="1.0" encoding="utf-8"?>
<feed xmlns="http://www.w3.org/2005/Atom" xml:base="https://dev.example.com/blog/">
  <title type="html">Dev &lt;em&gt;Log&lt;/em&gt;</title>
  <entry>
    <title>Release 2.0</title>
    <link rel="edit" href="https://dev.example.com/edit/2"/>
    <link rel="alternate" type="text/html" href="posts/2.0"/>
    <published>2024-04-01T12:00:00Z</published>
    <updated>2024-04-02T12:00:00Z</updated>
  </entry>
  <entry xml:base="/archive/">
    <title>Old entry</title>
    <link href="old"/>
    <updated>2020-01-01T00:00:00Z</updated>
  </entry>
  <entry>
    <title>Only an edit link</title>
    <link rel="edit" href="https://dev.example.com/edit/3"/>
  </entry>
  <entry><title>No link at all</title></entry>
</feed>`;
    expect(parseFeedItems(atom, 'https://dev.example.com/atom.xml')).toEqual({
      title: 'Dev Log',
      items: [
        { url: 'https://dev.example.com/blog/posts/2.0', title: 'Release 2.0', published: '2024-04-01T12:00:00Z' },
        { url: 'https://dev.example.com/archive/old', title: 'Old entry', published: '2020-01-01T00:00:00Z' },
        { url: 'https://dev.example.com/edit/3', title: 'Only an edit link' },
      ],
    });
  });

  it('resolves relative links against the feed’s URL without xml:base', () => {
    const atom = `<feed xmlns="http://www.w3.org/2005/Atom"><entry><title>A</title><link href="a.html"/></entry></feed>`;
    expect(parseFeedItems(atom, 'https://dev.example.com/feeds/atom.xml')?.items).toEqual([
      { url: 'https://dev.example.com/feeds/a.html', title: 'A' },
    ]);
  });
});

describe('parseFeedItems: not a feed', () => {
  it('returns undefined for anything else, a malformed feed included', () => {
    for (const text of [
      '',
      '<!DOCTYPE html><html><body>Hello</body></html>',
      '<urlset><url><loc>https://example.com/</loc></url></urlset>',
      '<rss version="2.0"><channel><item><link>https://example.com/</link></item>',
      '<rss version="2.0"></rss>',
    ])
      expect(parseFeedItems(text, FEED_URL)).toBeUndefined();
  });

  it('never expands entities a DOCTYPE declares', () => {
    const rss = `<?xml version="1.0"?>
<!DOCTYPE rss [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">]>
<rss version="2.0"><channel><title>&lol2;</title><item><title>&lol2;</title><link>https://example.com/x</link></item></channel></rss>`;
    expect(parseFeedItems(rss, FEED_URL)).toEqual({
      title: '&lol2;',
      items: [{ url: 'https://example.com/x', title: '&lol2;' }],
    });
  });
});
