/**
 * include_links in the converter: every link of the page, absolute, one per URL with the
 * tracking parameters dropped, no javascript:, mailto:, tel: or in-page anchor, `in_content`
 * set for those inside the extracted content, at most 1,000 with `links_truncated`; nothing
 * computed, and the output unchanged, when the option is off.
 */
import { describe, expect, it } from 'vitest';
import { convert } from '../../src/extract/index.js';
import { MAX_LINKS } from '../../src/extract/html/read/links.js';
import type { ConvertInput } from '../../src/extract/types.js';
import { ARTICLE_HTML, JSON_PAGE, MARKDOWN_PAGE } from '../helpers/fixture-pages.js';
import { LINKS_HTML, MANY_LINKS_HTML, expectedLinks } from '../helpers/page-control-scenarios.js';

const ORIGIN = 'http://harbour.test';
const input = (html: string, extra: Partial<ConvertInput> = {}): ConvertInput => ({
  bytes: new TextEncoder().encode(html),
  contentType: 'text/html; charset=utf-8',
  url: `${ORIGIN}/controls/links`,
  format: 'markdown',
  ...extra,
});

describe('include_links', () => {
  it('lists every link once, absolute, tracking dropped, no script/mail/phone/in-page links; in_content as extracted', async () => {
    const output = await convert(input(LINKS_HTML, { controls: { includeLinks: true } }));
    expect(output.links).toEqual(expectedLinks(ORIGIN));
    expect(output.links_truncated).toBe(false);
    // in_content agrees with the Markdown: each link marked in content is written there.
    for (const link of output.links ?? []) expect(output.markdown.includes(`](${link.url})`)).toBe(link.in_content);
  });

  it('adds nothing and changes nothing when off', async () => {
    const plain = await convert(input(LINKS_HTML));
    const off = await convert(input(LINKS_HTML, { controls: { includeLinks: false } }));
    const on = await convert(input(LINKS_HTML, { controls: { includeLinks: true } }));
    expect(plain).not.toHaveProperty('links');
    expect(plain).not.toHaveProperty('links_truncated');
    expect(off).toEqual(plain);
    const { links: _links, links_truncated: _truncated, ...rest } = on;
    expect(rest).toEqual(plain);
  });

  it('keeps the first 1,000 links and says the page has more', async () => {
    const output = await convert(input(MANY_LINKS_HTML, { controls: { includeLinks: true } }));
    expect(output.links).toHaveLength(MAX_LINKS);
    expect(output.links?.[0]).toMatchObject({ url: `${ORIGIN}/item/0`, text: 'Item 0' });
    expect(output.links?.at(-1)?.url).toBe(`${ORIGIN}/item/999`);
    expect(output.links_truncated).toBe(true);
  });

  it('resolves against <base href>', async () => {
    const html = `<html><head><base href="https://docs.example.org/v2/"></head><body><article><h1>Guide</h1><p>${'Words of the guide. '.repeat(20)}<a href="start">Start here</a></p></article></body></html>`;
    const output = await convert(input(html, { controls: { includeLinks: true } }));
    expect(output.links).toEqual([{ url: 'https://docs.example.org/v2/start', text: 'Start here', in_content: true }]);
  });

  it('marks links in content on a page whose article Readability picks', async () => {
    const output = await convert(input(ARTICLE_HTML, { controls: { includeLinks: true } }));
    const inContent = (output.links ?? []).filter((l) => l.in_content);
    const outside = (output.links ?? []).filter((l) => !l.in_content);
    for (const link of inContent) expect(output.markdown).toContain(link.url);
    for (const link of outside) expect(output.markdown).not.toContain(`](${link.url})`);
  });

  it('with format html: the links of the page, in_content as the Markdown extraction decides', async () => {
    const output = await convert(input(LINKS_HTML, { format: 'html', controls: { includeLinks: true } }));
    expect(output.html).toBe(LINKS_HTML);
    expect(output.links).toEqual(expectedLinks(ORIGIN));
  });

  it('content that is not HTML has an empty list', async () => {
    for (const [body, type] of [
      [MARKDOWN_PAGE, 'text/markdown'],
      [JSON_PAGE, 'application/json'],
    ] as const) {
      const output = await convert(input(body, { contentType: type, controls: { includeLinks: true } }));
      expect(output.links).toEqual([]);
      expect(output.links_truncated).toBe(false);
    }
  });
});
