/**
 * include_selectors / exclude_selectors in the converter: excluded elements never reach the
 * content (nor the plain-text fallback); included ones, in page order, each once, are the
 * content (content_source "selectors"), nothing when none matches; a selector the
 * request's validation accepts is standard CSS that linkedom matches (the same css-select).
 */
import { describe, expect, it } from 'vitest';
import { cssSelectorProblem } from '../../src/core/css-selector.js';
import { AppError } from '../../src/core/errors.js';
import { htmlToMarkdown } from '../../src/extract/html/html-to-markdown.js';
import { convert } from '../../src/extract/index.js';
import type { ConvertInput, PageControls } from '../../src/extract/types.js';
import { CSV_PAGE } from '../helpers/fixture-pages.js';
import {
  SIDEBAR_ARTICLE,
  SIDEBAR_ASIDE,
  SIDEBAR_HTML,
  SIDEBAR_NOTE,
  SIDEBAR_REMARK,
} from '../helpers/page-control-scenarios.js';

const input = (controls: PageControls | undefined, html = SIDEBAR_HTML): ConvertInput => ({
  bytes: new TextEncoder().encode(html),
  contentType: 'text/html; charset=utf-8',
  url: 'http://harbour.test/controls/sidebar',
  format: 'markdown',
  ...(controls ? { controls } : {}),
});

describe('exclude_selectors', () => {
  it('removes the matched elements before extraction', async () => {
    const before = await convert(input(undefined));
    expect(before.markdown).toContain(SIDEBAR_REMARK);
    const after = await convert(input({ excludeSelectors: ['.remark'] }));
    expect(after.markdown).not.toContain(SIDEBAR_REMARK);
    expect(after.markdown).toContain(SIDEBAR_ARTICLE);
    expect(after).not.toHaveProperty('content_source');
  });

  it('also from the plain-text fallback, which parses the page again', async () => {
    // No block of prose: the stages find nothing and the plain text of the body is the content.
    const html = `<html><body><div class="a">alpha words here</div><div class="b">beta words here</div></body></html>`;
    const before = await convert(input(undefined, html));
    expect(before.markdown).toContain('beta');
    const after = await convert(input({ excludeSelectors: ['.b'] }, html));
    expect(after.markdown).toContain('alpha');
    expect(after.markdown).not.toContain('beta');
  });

  it('a selector naming the page itself (html, body, :root) leaves nothing, as it says', async () => {
    for (const selector of ['html', 'body', ':root', 'html > body']) {
      const output = await convert(input({ excludeSelectors: [selector] }));
      expect(output.markdown, selector).toBe('');
    }
  });
});

describe('include_selectors', () => {
  it('makes the matches the content, in page order, a nested match once, and says so', async () => {
    const output = await convert(input({ includeSelectors: ['.note', 'h1', '.related'] }));
    expect(output.content_source).toBe('selectors');
    const md = output.markdown;
    expect(md.indexOf('# Harbour office')).toBe(0);
    expect(md.indexOf(SIDEBAR_NOTE)).toBeGreaterThan(0);
    expect(md.indexOf(SIDEBAR_ASIDE)).toBeGreaterThan(md.indexOf(SIDEBAR_NOTE));
    // `.note.inner` lies inside `.related`: written once.
    expect(md.split('Nested note inside the related box.')).toHaveLength(2);
    expect(md).not.toContain(SIDEBAR_ARTICLE);
  });

  it('content the extractor would drop (a sidebar) is kept when selected', async () => {
    const plain = await convert(input(undefined));
    expect(plain.markdown).not.toContain(SIDEBAR_NOTE);
    const selected = await convert(input({ includeSelectors: ['aside.sidebar'] }));
    expect(selected.markdown).toContain(SIDEBAR_NOTE);
  });

  it('exclusions apply inside the selection', async () => {
    const output = await convert(input({ includeSelectors: ['article'], excludeSelectors: ['.remark'] }));
    expect(output.markdown).toContain(SIDEBAR_ARTICLE);
    expect(output.markdown).not.toContain(SIDEBAR_REMARK);
  });

  it('a selector naming the page itself (html) keeps the whole page as the content', async () => {
    const output = await convert(input({ includeSelectors: ['html'] }));
    expect(output.content_source).toBe('selectors');
    expect(output.markdown).toContain(SIDEBAR_ARTICLE);
    expect(output.markdown).toContain(SIDEBAR_NOTE);
  });

  it('nothing matched: empty content (the page extractor names the selectors)', async () => {
    const output = await convert(input({ includeSelectors: ['#nowhere'] }));
    expect(output.markdown).toBe('');
    expect(output.content_source).toBe('selectors');
  });

  it('are ignored for content that is not HTML', async () => {
    const csv = await convert({ ...input({ includeSelectors: ['#nowhere'] }, CSV_PAGE), contentType: 'text/csv' });
    expect(csv.markdown).toContain('| day |');
    expect(csv).not.toHaveProperty('content_source');
  });
});

describe('htmlToMarkdown (the library) with a selector that cannot be matched', () => {
  it('refuses it with invalid_request naming its path, as the request schema does', () => {
    let error: unknown;
    try {
      htmlToMarkdown(SIDEBAR_HTML, 'http://harbour.test/', { includeSelectors: ['article'], excludeSelectors: ['a['] });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({ code: 'invalid_request', details: [{ path: 'excludeSelectors.0' }] });
  });

  it('refuses what css-select would match but a browser cannot parse, naming the part', () => {
    let error: unknown;
    try {
      htmlToMarkdown(SIDEBAR_HTML, 'http://harbour.test/', {
        includeSelectors: ['article', 'div >'],
        excludeSelectors: ['p:contains(harbour)'],
      });
    } catch (e) {
      error = e;
    }
    expect(error).toMatchObject({
      code: 'invalid_request',
      details: [
        { path: 'includeSelectors.1', message: 'not standard CSS: the combinator ">" has no selector after it' },
        { path: 'excludeSelectors.0', message: expect.stringContaining(':contains() is an extension of css-select') },
      ],
    });
  });
});

describe('the selectors the validation accepts', () => {
  it('are those linkedom can match', () => {
    for (const ok of ['article', '.a > p', 'div:has(p)', 'a[href^="/"]', 'li:nth-child(2n+1)']) {
      expect(cssSelectorProblem(ok)).toBeNull();
    }
    for (const bad of ['a[href', ':foo', '::before', 'div >', 'a,', '[a=]', ':contains(x)'])
      expect(cssSelectorProblem(bad)).toMatch(/\w/);
  });
});
