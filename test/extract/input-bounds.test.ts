/**
 * The input bounds' pre-scan: counts as the tree builder would nest, flattens past the depth
 * bound (no text lost), cuts before the tag past the element bound, and stays linear on
 * hostile shapes.
 */
import { describe, expect, it } from 'vitest';
import { HTML_BOUNDS, boundHtml, measureHtml } from '../../src/extract/html/input-bounds.js';
import { htmlToMarkdown } from '../../src/extract/html/html-to-markdown.js';
import { ARTICLE_HTML } from '../helpers/fixture-pages.js';

const bounds = { maxElements: 10, maxDepth: 3 };

describe('measureHtml', () => {
  it('counts start tags and the deepest nesting, void elements and end tags included', () => {
    expect(measureHtml('<html><body><div><p>a<br>b</p><img src=x></div></body></html>')).toEqual({ elements: 6, depth: 4, flattened: 0, cutAt: -1 });
  });

  it('closes what HTML closes implicitly: sibling <li>, <p> before a block, stray end tags', () => {
    expect(measureHtml('<ul><li>a<li>b<li>c</ul>').depth).toBe(2);
    expect(measureHtml('<p>a<p>b<div>c</div>').depth).toBe(1);
    expect(measureHtml('<div></span></b></div><div>x</div>').depth).toBe(1);
    expect(measureHtml('<table><tr><td>a<td>b<tr><td>c</table>').depth).toBe(3);
  });

  it('skips comments, doctypes, raw text and quoted ">" in attributes', () => {
    const html = '<!doctype html><!-- <div><div> --><script>var s = "<div><div><div>";</script><a title="a>b"><b>x</b></a><style>p>b{}</style>';
    expect(measureHtml(html)).toEqual({ elements: 4, depth: 2, flattened: 0, cutAt: -1 });
  });

  it('closes elements past the depth bound at once, their content following them', () => {
    const deep = '<div><div><div><div class="x">text<b>bold</b></div>after</div></div></div>';
    const { html, shape } = boundHtml(deep, bounds);
    expect(html).toBe('<div><div><div><div class="x"></div>text<b></b>boldafter</div></div></div>');
    expect(shape).toMatchObject({ depth: 3, flattened: 2, cutAt: -1 });
  });

  it('cuts before the start tag past the element bound', () => {
    const many = '<br>'.repeat(20);
    expect(boundHtml(many, bounds)).toEqual({ html: '<br>'.repeat(10), shape: { elements: 10, depth: 0, flattened: 0, cutAt: 40 } });
  });

  it('returns the page itself when it is within the bounds', () => {
    expect(boundHtml(ARTICLE_HTML).html).toBe(ARTICLE_HTML);
  });

  it('is linear on a million nested elements and on 200,000 tiny ones', () => {
    const started = performance.now();
    const nested = boundHtml(`${'<div>'.repeat(1_000_000)}deep text`);
    expect(nested.shape).toMatchObject({ depth: HTML_BOUNDS.maxDepth, cutAt: HTML_BOUNDS.maxElements * 5 });
    const flat = '<p>x</p>'.repeat(200_000);
    expect(measureHtml(flat).cutAt).toBe(HTML_BOUNDS.maxElements * 8);
    // Generous: the scan takes milliseconds; the parser on these took seconds to minutes.
    expect(performance.now() - started).toBeLessThan(2_000);
  });
});

describe('htmlToMarkdown within the bounds', () => {
  it('leaves a real page whole', () => {
    expect(measureHtml(ARTICLE_HTML).cutAt).toBe(-1);
  });

  it('keeps every text of a page nested past the depth bound, in order', () => {
    const html = `<html><body><p>Readable words before the nesting starts.</p>${'<div>'.repeat(5_000)}the bottom${'</div>'.repeat(5_000)}<p>And after it.</p></body></html>`;
    const { markdown } = htmlToMarkdown(html, 'https://example.test/');
    expect(markdown).toMatch(/Readable words before the nesting starts\.[\s\S]*the bottom[\s\S]*And after it\./);
  });
});
