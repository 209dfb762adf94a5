/**
 * Links and images in the Markdown lose the parameters that only track the click
 * (core/drop-tracking-params.ts), once made absolute: in HTML pages and in feeds.
 */
import { describe, expect, it } from 'vitest';
import { convertXml } from '../../src/extract/xml.js';
import { fragmentMarkdown as md } from '../helpers/fragment-markdown.js';

describe('tracking parameters in the Markdown', () => {
  it('leaves them out of links, relative ones made absolute first', () => {
    expect(md('<p>Read <a href="/guide?utm_source=newsletter&amp;page=2#step-3">the guide</a>.</p>')).toBe(
      'Read [the guide](https://example.com/guide?page=2#step-3).',
    );
    expect(md('<p><a href="https://twitter.com/someone/status/1?ref_src=twsrc%5Etfw">May 1, 2024</a></p>')).toBe(
      '[May 1, 2024](https://twitter.com/someone/status/1)',
    );
  });

  it('leaves them out of images and of the links around them', () => {
    expect(
      md(
        '<p><a href="https://shop.example/sale?gclid=abc"><img src="/banner.png?v=3&amp;utm_campaign=spring" alt="Spring sale"></a></p>',
      ),
    ).toBe('[![Spring sale](https://example.com/banner.png?v=3)](https://shop.example/sale)');
  });

  it('keeps links without them as they were', () => {
    expect(md('<p><a href="/search?q=a+b&amp;ref=nav">search</a></p>')).toBe(
      '[search](https://example.com/search?q=a+b&ref=nav)',
    );
  });

  it("leaves them out of a feed's item links", () => {
    const feed = `<?xml version="1.0"?><rss version="2.0"><channel><title>Notes</title>
      <item><title>Bread</title><link>https://blog.example.org/bread?utm_source=feedburner&amp;utm_medium=feed</link></item></channel></rss>`;
    expect(convertXml(feed, 'https://blog.example.org/feed.xml').markdown).toContain(
      '- [Bread](https://blog.example.org/bread)',
    );
  });
});
