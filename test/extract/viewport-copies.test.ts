/**
 * Copies of the page made for narrow screens (viewport-copies.ts): an element a class
 * hides on a desktop goes when its words are said elsewhere on the page; one that says
 * something of its own stays, as does whatever a desktop shows.
 */
import { describe, expect, it } from 'vitest';
import { parseDocument } from '../../src/extract/html/read/parse.js';
import { htmlToMarkdown } from '../../src/extract/html/html-to-markdown.js';
import { dropMobileCopies } from '../../src/extract/html/prepare/viewport-copies.js';
import { runPipeline } from '../../src/extract/html/pipeline.js';
import type { SwitchName } from '../../src/extract/html/switches.js';
import { measureHtml } from '../../src/extract/html/read/input-bounds.js';

const SPECS = '<h3>Specifications</h3><p>Material: anodised aluminium</p><p>Weight: 2 oz</p><p>Holds 1 to 12 cards</p>';

/** The body's text, white space collapsed, after the pass (gated, as the pipeline runs it, by the class values of the page's tags). */
function after(body: string): string {
  const html = `<html><body>${body}</body></html>`;
  const doc = parseDocument(html);
  dropMobileCopies(doc.body!, measureHtml(html).classes);
  return (doc.body!.textContent ?? '').replace(/\s+/g, ' ').trim();
}

describe('copies for narrow screens', () => {
  it("keeps the desktop's copy of a section and drops the phone's, whichever comes first", () => {
    const once = after(`<div class="mobile">${SPECS}</div><div class="desktop">${SPECS}</div>`);
    expect(once.match(/Specifications/g)).toHaveLength(1);
    expect(once).toContain('Holds 1 to 12 cards');
    const twice = after(
      `<div class="desktop">${SPECS}</div><div class="tablet">${SPECS}</div><div class="mobile">${SPECS}</div>`,
    );
    expect(twice.match(/Specifications/g)).toHaveLength(1);
  });

  it.each([
    'sm:hidden',
    'd-sm-none',
    'visible-md',
    'is-hidden-widescreen',
    'md:hidden',
    'lg:hidden',
    'min-[1200px]:hidden',
    'md:hidden 2xl:block',
    'd-md-none',
    'd-lg-none',
    'hidden-lg',
    'hidden-md-up',
    'vc_hidden-lg',
    'visible-xs',
    'visible-sm-block',
    'hide-for-large',
    'hide-for-medium-up',
    'show-for-small-only',
    'is-hidden-desktop',
    'is-hidden-tablet',
    'mobile',
    'mobile-only',
    'mobile_view',
    'show-mobile',
    'visible_on_mobile',
    'hide-desktop',
    'hidden-on-desktop',
    'hidden_desktop',
    'tablet',
    'visible-phone',
  ])('drops a copy under %s', (name) => {
    expect(after(`<div class="box ${name}">${SPECS}</div><section>${SPECS}</section>`).match(/Weight/g)).toHaveLength(
      1,
    );
  });

  it.each([
    'hide-mobile',
    'hidden-mobile',
    'no-mobile',
    'is-mobile',
    'hidden-md',
    'hidden-md-down',
    'hidden-xs',
    'max-md:hidden',
    'is-hidden-touch',
    'mobile-menu',
    'd-md-none d-lg-block',
    'md:hidden lg:flex',
    'md:hidden lg:!block',
    'md:hidden lg:table-cell',
    'd-md-none d-lg-table-cell',
    'visible-xs visible-lg',
    'hover:lg:hidden',
    'dark:lg:hidden',
    'Mobile',
    // WordPress files a post or product under its categories and tags by class.
    'product_cat-mobile',
    'category-mobile',
    'tag-tablet',
    'toc-mobile',
  ])('keeps both copies when the class is %s (a desktop shows it)', (names) => {
    expect(after(`<div class="${names}">${SPECS}</div><section>${SPECS}</section>`).match(/Weight/g)).toHaveLength(2);
  });

  it('keeps a phone copy whose desktop twin is in the chrome, which goes later', () => {
    const hours =
      '<h3>Opening hours</h3><p>Monday to Friday 9am to 6pm, closed on Sundays.</p><p>Call 0161 555 0199 to book.</p>';
    const result = after(
      `<main><p>Physiotherapy for runners.</p><div class="d-lg-none">${hours}</div></main><aside class="sidebar d-none d-lg-block">${hours}</aside>`,
    );
    expect(result.match(/Opening hours/g)).toHaveLength(2);
    expect(
      after(
        `<main><div class="mobile">${hours}</div></main><nav>${hours}</nav><footer role="contentinfo">${hours}</footer>`,
      ).match(/Opening hours/g),
    ).toHaveLength(3);
  });

  it('reads word order: the same words said otherwise are no copy', () => {
    const result = after(
      '<p>We do not ship to Ireland yet. Orders arrive within 30 days.</p><div class="mobile-only"><p>We ship to Ireland within 30 days.</p></div>',
    );
    expect(result).toContain('We ship to Ireland within 30 days.');
    // A copy edited a little is still a copy: most of its pairs of words are said again.
    const edited = after(
      `<p>${'Large prints, framed by hand and shipped flat to your door, ready to hang. '.repeat(3)}We collaborate with ninety artists.</p><div class="hidden_desktop"><p>${'Large prints, framed by hand and shipped flat to your door, ready to hang. '.repeat(3)}We now collaborate with ninety artists.</p></div>`,
    );
    expect(edited).not.toContain('We now collaborate');
  });

  it('keeps one of two phone copies that only copy each other, and reads one-word text nodes', () => {
    expect(after(`<div class="mobile">${SPECS}</div><div class="tablet">${SPECS}</div>`).match(/Weight/g)).toHaveLength(
      1,
    );
    const words = (cls: string) =>
      `<div class="${cls}"><span>Anodised</span> <span>aluminium</span> <span>wallet</span> <span>Slim</span></div>`;
    expect(after(`${words('mobile')}<section>${words('card')}</section>`).match(/Anodised/g)).toHaveLength(1);
  });

  it("leaves a phone copy's own chrome out of the reckoning, and counts no twin in a complementary region", () => {
    expect(
      after(
        `<div class="mobile">${SPECS}<nav><a href="/">Back to the shop</a></nav></div><section>${SPECS}</section>`,
      ).match(/Weight/g),
    ).toHaveLength(1);
    expect(
      after(`<main><div class="mobile">${SPECS}</div></main><div role="complementary">${SPECS}</div>`).match(/Weight/g),
    ).toHaveLength(2);
  });

  it('keeps what only the phone copy says', () => {
    // The words of a note written for phones alone are nowhere else.
    expect(
      after(
        `<section>${SPECS}</section><div class="mobile-only"><p>Tap a picture to zoom into the grain of the metal.</p></div>`,
      ),
    ).toContain('Tap a picture to zoom');
    // Most words elsewhere is not enough when the copy says more of its own (under 80 %).
    const partial = after(
      `<section>${SPECS}</section><div class="d-lg-none">${SPECS}<p>Also sold with a money clip, a cash strap and a leather key case.</p></div>`,
    );
    expect(partial).toContain('money clip');
  });

  it('counts repeated words: a copy needs as many of each outside it', () => {
    // "cards" is said once elsewhere, but the phone block says it three times.
    expect(after('<p>Holds cards</p><div class="mobile"><p>cards cards cards</p></div>')).toContain(
      'cards cards cards',
    );
  });

  it('judges what is inside a phone block that stays', () => {
    const result = after(
      `<section>${SPECS}</section><div class="mobile-nav mobile"><p>Free returns within ninety days of delivery to the door.</p><div class="lg:hidden">${SPECS}</div></div>`,
    );
    expect(result).toContain('Free returns within ninety days');
    expect(result.match(/Weight/g)).toHaveLength(1);
  });

  describe("a phone's copy of a section heading", () => {
    const features =
      '<p>Forty colours, each mixed by hand in small batches and tested on three kinds of paper before it ships.</p>';

    it('goes when its twin beside it is marked up otherwise, the one a desktop shows staying', () => {
      const html = `<h2 class="title d-none d-md-block"><span>Our</span> <span>features</span></h2><h2 class="title d-md-none">Our features</h2>${features}`;
      const doc = parseDocument(`<html><body>${html}</body></html>`);
      dropMobileCopies(doc.body!, measureHtml(html).classes);
      const headings = Array.from(doc.body!.querySelectorAll('h2'));
      expect(headings).toHaveLength(1);
      expect(headings[0]!.getAttribute('class')).toContain('d-md-block');
    });

    it('goes from a phone-only wrapper after the section, and when the twins sit in a section header', () => {
      expect(
        after(
          `<h3 class="hidden-xs">Our features<a href="#features">#</a></h3>${features}<div class="visible-xs"><h3><i class="icon"></i>Our features:</h3></div>`,
        ).match(/Our features/g),
      ).toHaveLength(1);
      const header = `<section><header><h2 class="d-none d-lg-block">Our features</h2><h2 class="d-lg-none">Our features</h2></header>${features}</section>`;
      expect(after(header).match(/Our features/g)).toHaveLength(1);
    });

    it('stays when the nearest heading a desktop shows says something else', () => {
      const far = `<h2><span>Reader</span> <span>comments</span></h2><p>First comment on the colours.</p><h2>Related posts</h2><p>More about paper.</p><div class="mobile-only"><h2>Reader comments</h2></div>`;
      expect(after(far).match(/Reader comments/g)).toHaveLength(2);
    });

    it('stays when its twin is in chrome it does not share, or is a phone copy too', () => {
      expect(
        after(
          `<main><h2 class="md:hidden">Opening hours</h2>${features}</main><aside><h2>Opening hours</h2></aside>`,
        ).match(/Opening hours/g),
      ).toHaveLength(2);
      expect(
        after(`<h2 class="mobile"><b>Opening</b> hours</h2><h2 class="tablet">Opening hours</h2>${features}`).match(
          /Opening hours/g,
        ),
      ).toHaveLength(2);
    });

    it('leaves headings a desktop shows alone, however often they repeat', () => {
      const twice = `<h2 class="hidden-sm">Comments</h2><p>${'Nice colours. '.repeat(5)}</p><h2 class="d-none d-md-block">Comments</h2><p>${'Great paper. '.repeat(5)}</p>`;
      expect(after(twice).match(/Comments/g)).toHaveLength(2);
    });

    it('is written once from the cleaned body, which keeps section headers (twice without the pass)', () => {
      const page = `<!doctype html><html><head><title>Paints</title></head><body><main><article><h1>Hand-mixed paints</h1>
        <p>${'Our studio mixes every colour by hand from pigments we grind ourselves in the workshop. '.repeat(5)}</p>
        <section><header><h2 class="d-none d-md-block"><span>Why</span> <span>painters</span> <span>choose</span> <span>us</span></h2><h2 class="d-md-none">Why painters choose us</h2></header>
        <p>${'Each batch is tested on three papers and kept for a year to see how it ages in the light. '.repeat(5)}</p></section></article></main></body></html>`;
      const twins = (off: SwitchName[]) =>
        runPipeline(page, 'https://paints.example/', { off }).markdown.match(/Why painters choose us/g);
      expect(twins(['readability'])).toHaveLength(1);
      expect(twins(['readability', 'viewport-copies'])).toHaveLength(2);
    });
  });

  it('reads a page of deeply nested phone blocks and headings in linear time', () => {
    const depth = 20_000;
    const nested = '<div class="mobile">x '.repeat(depth) + '</div>'.repeat(depth);
    const wide = Array.from(
      { length: 300 },
      (_, i) => `<div class="mobile"><p>copy ${i} of the desktop text</p></div><p>copy ${i} of the desktop text</p>`,
    ).join('');
    const headings =
      '<div class="mobile"><h2>Features</h2><h2 class="d-none d-md-block">Features</h2>'.repeat(depth) +
      '</div>'.repeat(depth);
    for (const page of [
      nested + wide,
      '<div class="mobile"><i></i>'.repeat(depth) + '</div>'.repeat(depth),
      headings,
    ]) {
      // The pass against the parse of the same page, timed in the same turn: a loaded machine
      // slows both, a pass quadratic in the depth (20,000) would take minutes.
      const html = `<html><body>${page}</body></html>`;
      const parsing = Date.now();
      const doc = parseDocument(html);
      const parseMs = Date.now() - parsing;
      const started = Date.now();
      dropMobileCopies(doc.body!, measureHtml(html).classes);
      const passMs = Date.now() - started;
      expect(passMs).toBeLessThan(Math.max(1_000, 10 * parseMs));
    }
  });

  it('writes an article without the phone copy of its key facts, end to end (Readability reads both otherwise)', () => {
    const facts =
      '<h2>At a glance</h2><p>Distance: 12 miles, climbing 2,400 feet over the two summits.</p><p>Time: five to six hours at a steady walking pace.</p>';
    const html = `<!doctype html><html><head><title>Ridge walk</title></head><body><main><article><h1>The ridge walk</h1>
      <div class="d-lg-none">${facts}</div>
      <p>${'The path leaves the village by the church and climbs through oak woods to the open fell. '.repeat(6)}</p>
      <div class="facts d-none d-lg-block">${facts}</div>
      <p>${'From the second summit the ridge drops gently to the tarn, where the path turns for home. '.repeat(6)}</p></article></main></body></html>`;
    const result = htmlToMarkdown(html, 'https://walks.example/ridge');
    expect(result.stage).toBe('readability');
    expect(result.markdown.match(/Distance: 12 miles/g)).toHaveLength(1);
    expect(result.markdown).toContain('where the path turns for home');
  });

  it('keeps every card of a shop category filed under "Mobile", with a sidebar naming the same products', () => {
    const products = [
      'Pixel 8 Pro 128GB',
      'Galaxy S24 Ultra 256GB',
      'Xperia 1 V 256GB',
      'Nokia G42 5G 128GB',
      'Moto Edge 40 Neo',
    ];
    const card = (name: string, i: number) =>
      `<li class="product type-product post-${100 + i} product_cat-mobile instock"><a href="/product/${i}"><h2>${name}</h2><span class="price">£${i}99.00</span></a></li>`;
    const sidebar = `<div class="widget_products"><h2>Best sellers</h2><ul>${products.map((name, i) => `<li><a href="/product/${i}">${name}</a><span class="price">£${i}99.00</span></li>`).join('')}</ul></div>`;
    const html = `<!doctype html><html><head><title>Mobile</title></head><body class="term-mobile"><main><h1>Mobile</h1><p>Showing all 5 results</p><ul class="products">${products.map(card).join('')}</ul></main>${sidebar}</body></html>`;
    const { markdown } = htmlToMarkdown(html, 'https://shop.example/product-category/mobile/');
    for (const name of products) expect(markdown).toContain(name);
  });
});
