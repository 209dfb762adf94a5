/**
 * A product page's declared description (src/extract/html/choose/declared-description.ts): found
 * again in the page when the chrome removal took it out, and only then.
 */
import { parseHTML } from 'linkedom';
import { describe, expect, it } from 'vitest';
import { declaredText, findDeclared, mentions } from '../../src/extract/html/choose/declared-description.js';
import type { DomElement } from '../../src/extract/html/dom.js';
import { htmlToMarkdown } from '../../src/extract/html/html-to-markdown.js';

const URL_ = 'https://shop.example/arrival-tee';

const SUMMARY =
  'The Arrival tee is cut for training: a light, quick-drying knit that moves with you through every lift and sprint, ' +
  'flat seams that do not rub under a backpack strap, and a straight hem that stays put when you reach overhead. ' +
  'Wash it cold and hang it to dry, and it keeps its shape and colour for seasons of training.';

function ld(description: string): string {
  return `<script type="application/ld+json">${JSON.stringify({ '@context': 'https://schema.org', '@type': 'Product', name: 'Arrival Tee', description })}</script>`;
}

/** A shop page whose description lives in a sheet dialog a "Description" button opens. */
function sheetPage(
  head: string,
  sheet = `<p><strong>Made to move</strong></p><p>${SUMMARY}</p><ul><li>Slim fit</li><li>Sweat-wicking knit</li><li>Crew neck</li></ul>`,
): string {
  const filters = Array.from(
    { length: 12 },
    (_, i) => `<li>Filter option ${i}: weight training, running, cycling</li>`,
  ).join('');
  const reviews = Array.from(
    { length: 4 },
    (_, i) =>
      `<div class="review"><p>Review ${i}: fits well but the neck is a little tight after washing it twice.</p></div>`,
  ).join('');
  return (
    `<!DOCTYPE html><html><head><title>Arrival Tee</title>${head}</head><body><main><h1>Arrival Tee</h1><p>$22</p>` +
    `<section><button>Description</button><div role="dialog" aria-modal="false"><aside><h5>Description</h5><div class="sheet-content">${sheet}</div></aside></div></section>` +
    `<section><h2>Reviews</h2><ul class="filters">${filters}</ul>${reviews}</section></main></body></html>`
  );
}

describe('the declared description', () => {
  it('reads the declared text without markup, and only when it is long enough to anchor on', () => {
    expect(declaredText(`<p>${SUMMARY}</p>`)).toBe(SUMMARY);
    expect(declaredText('A tee.')).toBeNull();
    expect(declaredText(42)).toBeNull();
  });

  it('finds the element around the declared words, across inline markup, grown to the whole description', () => {
    const { document } = parseHTML(
      `<html><body><div id="page"><div id="text"><p>The <b>Arrival</b> tee is cut for <i>training</i>: a light, quick-drying knit${SUMMARY.slice(SUMMARY.indexOf(' that moves'))}</p><ul><li>Slim fit</li></ul></div><p>${'Other text. '.repeat(80)}</p></div></body></html>`,
    );
    const body = document.body as unknown as DomElement;
    expect(findDeclared(body, SUMMARY)?.getAttribute('id')).toBe('text');
    expect(mentions(body, SUMMARY)).toBe(true);
    expect(findDeclared(body, SUMMARY.replace('Arrival', 'Departure'))).toBeNull();
  });

  it('takes a description the chrome removal took out, under the product name', () => {
    const result = htmlToMarkdown(sheetPage(ld(SUMMARY)), URL_);
    expect(result.stage).toBe('product-description');
    expect(result.markdown).toMatch(/^# Arrival Tee\n/);
    expect(result.markdown).toContain('The Arrival tee is cut for training');
    expect(result.markdown).toContain('- Sweat-wicking knit');
    expect(result.markdown).not.toMatch(/Filter option|Review 0/);
  });

  it('changes nothing when the page does not hold the declared text, or no description is declared', () => {
    const elsewhere = sheetPage(ld(SUMMARY), '<p>Ask in store for details of this tee.</p>');
    expect(htmlToMarkdown(elsewhere, URL_).stage).not.toBe('product-description');
    expect(htmlToMarkdown(sheetPage(''), URL_).stage).not.toBe('product-description');
    expect(htmlToMarkdown(sheetPage(ld('A light training tee.')), URL_).stage).not.toBe('product-description');
  });

  it('does not take a card that only quotes the opening words', () => {
    const teaser = `<aside class="recent"><h3>Recently viewed</h3><p>${SUMMARY.split(' ').slice(0, 15).join(' ')}...</p></aside>`;
    const html = sheetPage(ld(SUMMARY), '<p>Ask in store.</p>').replace(
      '<section><h2>Reviews</h2>',
      `<div class="recently">${teaser}</div><section><h2>Reviews</h2>`,
    );
    expect(htmlToMarkdown(html, URL_).stage).not.toBe('product-description');
  });

  it('reads entities and markup in the declared text, in linear time', () => {
    expect(declaredText(`&lt;p&gt;${SUMMARY}&lt;/p&gt; &amp;amp; more`)).toBe(`${SUMMARY} & more`);
    const started = performance.now();
    expect(declaredText(`${'a<'.repeat(100_000)}`)).not.toBeNull();
    expect(performance.now() - started).toBeLessThan(1_000);
  });

  it('changes nothing when the declared text is already in the content', () => {
    const html = sheetPage(ld(SUMMARY)).replace('<p>$22</p>', `<p>$22</p><div class="intro"><p>${SUMMARY}</p></div>`);
    const result = htmlToMarkdown(html, URL_);
    expect(result.stage).not.toBe('product-description');
    expect(result.markdown).toContain('The Arrival tee is cut for training');
  });
});
