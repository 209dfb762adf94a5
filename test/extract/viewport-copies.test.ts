/**
 * Copies of the page made for narrow screens (viewport-copies.ts): an element a class
 * hides on a desktop goes when its words are said elsewhere on the page; one that says
 * something of its own stays, as does whatever a desktop shows.
 */
import { describe, expect, it } from 'vitest';
import { parseDocument } from '../../src/extract/html/parse.js';
import { htmlToMarkdown } from '../../src/extract/html/html-to-markdown.js';
import { dropMobileCopies } from '../../src/extract/html/viewport-copies.js';

const SPECS = '<h3>Specifications</h3><p>Material: anodised aluminium</p><p>Weight: 2 oz</p><p>Holds 1 to 12 cards</p>';

/** The body's text, white space collapsed, after the pass. */
function after(body: string): string {
  const doc = parseDocument(`<html><body>${body}</body></html>`);
  dropMobileCopies(doc.body!);
  return (doc.body!.textContent ?? '').replace(/\s+/g, ' ').trim();
}

describe('copies for narrow screens', () => {
  it("keeps the desktop's copy of a section and drops the phone's, whichever comes first", () => {
    const once = after(`<div class="mobile">${SPECS}</div><div class="desktop">${SPECS}</div>`);
    expect(once.match(/Specifications/g)).toHaveLength(1);
    expect(once).toContain('Holds 1 to 12 cards');
    const twice = after(`<div class="desktop">${SPECS}</div><div class="tablet">${SPECS}</div><div class="mobile">${SPECS}</div>`);
    expect(twice.match(/Specifications/g)).toHaveLength(1);
  });

  it.each([
    'md:hidden', 'lg:hidden', 'sm:md:hidden', 'min-[1200px]:hidden', 'd-md-none', 'd-lg-none', 'hidden-lg', 'hidden-md-up', 'vc_hidden-lg',
    'visible-xs', 'visible-sm-block', 'hide-for-large', 'hide-for-medium-up', 'show-for-small-only', 'is-hidden-desktop', 'is-hidden-tablet',
    'mobile-only', 'toc-mobile', 'show-mobile', 'visible_on_mobile', 'hide-desktop', 'hidden-on-desktop', 'tablet',
  ])('drops a copy under %s', (name) => {
    expect(after(`<div class="box ${name}">${SPECS}</div><section>${SPECS}</section>`).match(/Weight/g)).toHaveLength(1);
  });

  it.each([
    'hide-mobile', 'hidden-mobile', 'no-mobile', 'is-mobile', 'hidden-md', 'hidden-md-down', 'hidden-xs', 'max-md:hidden', 'is-hidden-touch',
    'mobile-menu', 'd-md-none d-lg-block', 'md:hidden lg:flex', 'visible-xs visible-lg',
  ])('keeps both copies when the class is %s (a desktop shows it)', (names) => {
    expect(after(`<div class="${names}">${SPECS}</div><section>${SPECS}</section>`).match(/Weight/g)).toHaveLength(2);
  });

  it('keeps what only the phone copy says', () => {
    // The words of a note written for phones alone are nowhere else.
    expect(after(`<section>${SPECS}</section><div class="mobile-only"><p>Tap a picture to zoom into the grain of the metal.</p></div>`)).toContain('Tap a picture to zoom');
    // Most words elsewhere is not enough when the copy says more of its own (under 80 %).
    const partial = after(`<section>${SPECS}</section><div class="d-lg-none">${SPECS}<p>Also sold with a money clip, a cash strap and a leather key case.</p></div>`);
    expect(partial).toContain('money clip');
  });

  it('counts repeated words: a copy needs as many of each outside it', () => {
    // "cards" is said once elsewhere, but the phone block says it three times.
    expect(after('<p>Holds cards</p><div class="mobile"><p>cards cards cards</p></div>')).toContain('cards cards cards');
  });

  it('judges what is inside a phone block that stays', () => {
    const result = after(`<section>${SPECS}</section><div class="mobile-nav mobile"><p>Free returns within ninety days of delivery to the door.</p><div class="lg:hidden">${SPECS}</div></div>`);
    expect(result).toContain('Free returns within ninety days');
    expect(result.match(/Weight/g)).toHaveLength(1);
  });

  it('reads a page of deeply nested phone blocks in linear time', () => {
    const depth = 20_000;
    const nested = '<div class="mobile">x '.repeat(depth) + '</div>'.repeat(depth) + '<div class="mobile"><i></i>'.repeat(depth) + '</div>'.repeat(depth);
    const wide = Array.from({ length: 300 }, (_, i) => `<div class="mobile"><p>copy ${i} of the desktop text</p></div><p>copy ${i} of the desktop text</p>`).join('');
    const started = Date.now();
    after(nested + wide);
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('writes a shop page without the phone copy of its buy box, end to end', () => {
    const buyBox = '<div class="price">$76.00</div><p>Free shipping and returns on every wallet, in all colours.</p>';
    const html = `<!doctype html><html><head><title>Wallet</title></head><body><main><h1>Aluminium Wallet</h1>
      <div class="hidden-lg">${buyBox}</div><div class="visible-lg">${buyBox}</div>
      <p>${'A slim front-pocket wallet machined from one block of aluminium, light and strong. '.repeat(6)}</p></main></body></html>`;
    const { markdown } = htmlToMarkdown(html, 'https://shop.example/wallet');
    expect(markdown.match(/Free shipping and returns/g)).toHaveLength(1);
    expect(markdown).toContain('# Aluminium Wallet');
  });
});
