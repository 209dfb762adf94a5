/**
 * A product page's declared price (src/extract/html/finish/product-offer.ts): read from JSON-LD,
 * microdata or Open Graph, written for a reader, added under the title only when the
 * Markdown lacks it and the page is about the product that declares it.
 */
import { parseHTML } from 'linkedom';
import { describe, expect, it } from 'vitest';
import { htmlToMarkdown } from '../../src/extract/html/html-to-markdown.js';
import type { DomElement } from '../../src/extract/html/dom.js';
import { metaMap } from '../../src/extract/html/read/metadata.js';
import {
  jsonLdOffer,
  microdataOffer,
  offerLine,
  openGraphOffer,
  parseAmount,
  showsAmount,
  withOffer,
} from '../../src/extract/html/finish/product-offer.js';
import { readProductPage } from '../../src/extract/html/read/product-page.js';
import { sourceWords } from '../../src/extract/html/read/source-words.js';

const URL_ = 'https://shop.example/kettle';

function description(words = 90): string {
  const sentence = 'The kettle heats water on any hob, pours cleanly from its long spout and keeps its handle cool';
  return Array.from({ length: Math.ceil(words / 18) }, (_, i) => `${sentence}, note ${i + 1}.`).join(' ');
}

function productPage(head: string, buyBox = '', title = 'Stovetop Kettle'): string {
  return (
    `<!DOCTYPE html><html><head><title>${title} | Shop</title>${head}</head><body><main><h1>${title}</h1>${buyBox}` +
    `<div class="product-description"><p>${description()}</p></div>` +
    `<section><h2>Reviews</h2><div class="review"><p>${description(40)}</p></div></section></main></body></html>`
  );
}

function ld(value: unknown): string {
  return `<script type="application/ld+json">${JSON.stringify(value)}</script>`;
}

describe('reading the declared offer', () => {
  it('reads amounts as schema.org writes them, and nothing else', () => {
    expect(parseAmount(35)).toBe(35);
    expect(parseAmount('1299.00')).toBe(1299);
    expect(parseAmount(' 1,299.50 ')).toBe(1299.5);
    expect(parseAmount('Call for price')).toBeNaN();
    expect(parseAmount('12,5')).toBeNaN();
    expect(parseAmount(null)).toBeNaN();
    expect(parseAmount(Number.POSITIVE_INFINITY)).toBeNaN();
  });

  it('reads an Offer, a list of offers, an AggregateOffer and a price specification', () => {
    expect(
      jsonLdOffer({
        '@type': 'Offer',
        price: '35.00',
        priceCurrency: 'usd',
        availability: 'https://schema.org/InStock',
      }),
    ).toEqual({
      low: 35,
      high: 35,
      currency: 'USD',
      availability: 'in stock',
    });
    expect(
      jsonLdOffer([
        { price: 24, priceCurrency: 'EUR' },
        { price: 10, priceCurrency: 'EUR', availability: 'OutOfStock' },
        { price: 5, priceCurrency: 'GBP' },
      ]),
    ).toEqual({
      low: 10,
      high: 24,
      currency: 'EUR',
      availability: 'out of stock',
    });
    expect(
      jsonLdOffer({ '@type': 'AggregateOffer', lowPrice: '10', highPrice: 8, priceCurrency: 'CAD' }),
    ).toMatchObject({ low: 10, high: 10 });
    expect(
      jsonLdOffer({
        priceSpecification: { price: 9.5, priceCurrency: 'GBP' },
        availability: 'http://schema.org/PreOrder',
      }),
    ).toEqual({
      low: 9.5,
      high: 9.5,
      currency: 'GBP',
      availability: 'available to pre-order',
    });
    expect(
      jsonLdOffer([
        { price: 30, priceCurrency: 'USD', availability: 'OutOfStock' },
        { price: 20, priceCurrency: 'USD', availability: 'InStock' },
      ]),
    ).toMatchObject({
      low: 20,
      high: 30,
      availability: 'in stock',
    });
    expect(
      jsonLdOffer(Array.from({ length: 200_000 }, (_, i) => ({ price: i + 1, priceCurrency: 'USD' }))),
    ).toMatchObject({ low: 1, high: 200_000 });
    expect(jsonLdOffer({ price: 0, priceCurrency: 'USD' })).toBeNull();
    expect(jsonLdOffer({ price: 1e21, priceCurrency: 'USD' })).toBeNull();
    expect(jsonLdOffer({ price: '1000000000000000000000', priceCurrency: 'USD' })).toBeNull();
    expect(jsonLdOffer({ price: 'See store' })).toBeNull();
    expect(jsonLdOffer('35')).toBeNull();
  });

  it('reads microdata and Open Graph product tags', () => {
    const { document } = parseHTML(
      '<div itemscope itemtype="https://schema.org/Product"><span itemprop="name">Kettle</span><div itemprop="offers" itemscope><meta itemprop="priceCurrency" content="EUR"><span itemprop="price" content="49.90">49,90 €</span><link itemprop="availability" href="https://schema.org/SoldOut"></div></div>',
    );
    expect(microdataOffer(document.querySelector('[itemscope]') as unknown as DomElement)).toEqual({
      low: 49.9,
      high: 49.9,
      currency: 'EUR',
      availability: 'sold out',
    });
    const metas = new Map([
      ['product:price:amount', '19.99'],
      ['product:price:currency', 'GBP'],
    ]);
    expect(openGraphOffer(metas)).toEqual({ low: 19.99, high: 19.99, currency: 'GBP', availability: undefined });
    expect(openGraphOffer(new Map())).toBeNull();
  });

  it('writes the price as a reader knows it', () => {
    expect(offerLine({ low: 3665, high: 3665, currency: 'USD', availability: 'in stock' })).toBe(
      'Price: $3,665.00 (in stock)',
    );
    expect(offerLine({ low: 10, high: 24.5, currency: 'EUR' })).toBe('Price: €10.00 to €24.50');
    expect(offerLine({ low: 27.23, high: 27.23, currency: 'AUD' })).toBe('Price: A$27.23');
    expect(offerLine({ low: 7, high: 7, currency: 'XQZ' })).toBe('Price: XQZ 7.00');
    expect(offerLine({ low: 7.5, high: 7.5, currency: 'dollars' })).toBe('Price: 7.5 dollars');
    expect(offerLine({ low: 12, high: 12 })).toBe('Price: 12');
  });
});

describe('adding the price to the Markdown', () => {
  it('tells whether the Markdown already shows the amount', () => {
    expect(showsAmount('Now only $3,665.00!', 3665)).toBe(true);
    expect(showsAmount('3.665,00 €', 3665)).toBe(true);
    expect(showsAmount('3 665 kr', 3665)).toBe(true);
    expect(showsAmount('Price 3665', 3665)).toBe(true);
    expect(showsAmount('Weighs 13665 g', 3665)).toBe(false);
    expect(showsAmount('3,665,000 sold', 3665)).toBe(false);
    expect(showsAmount('Model 35B', 35)).toBe(true);
    expect(showsAmount('Holds 1-12 cards', 35)).toBe(false);
  });

  it('puts the line under the title, or on top, once', () => {
    const offer = { low: 35, high: 35, currency: 'USD' };
    expect(withOffer('# Kettle\n\nIt boils.', offer)).toBe('# Kettle\n\nPrice: $35.00\n\nIt boils.');
    expect(withOffer('# Kettle', offer)).toBe('# Kettle\n\nPrice: $35.00');
    expect(withOffer('It boils.', offer)).toBe('Price: $35.00\n\nIt boils.');
    expect(withOffer('# Kettle\n\nNow $35.', offer)).toBe('# Kettle\n\nNow $35.');
    expect(withOffer('', offer)).toBe('');
    expect(withOffer('It boils.', null)).toBe('It boils.');
  });
});

describe('the price of a product page, end to end', () => {
  const offers = { '@type': 'Offer', price: '49.00', priceCurrency: 'USD', availability: 'https://schema.org/InStock' };

  it('adds the declared price under the product name when the content lacks it', () => {
    const result = htmlToMarkdown(
      productPage(ld({ '@context': 'https://schema.org', '@type': 'Product', name: 'Stovetop Kettle', offers })),
      URL_,
    );
    expect(result.stage).toBe('product-description');
    expect(result.markdown.startsWith('# Stovetop Kettle\n\nPrice: $49.00 (in stock)\n\nThe kettle heats')).toBe(true);
  });

  it('leaves the content alone when it shows the price already', () => {
    const html = productPage(ld({ '@type': 'Product', name: 'Stovetop Kettle', offers }), '').replace(
      '<p>The kettle',
      '<p>Yours for $49. The kettle',
    );
    const { markdown } = htmlToMarkdown(html, URL_);
    expect(markdown).not.toContain('Price:');
    expect(markdown).toContain('Yours for $49.');
  });

  it('reads the price from microdata or Open Graph when there is no JSON-LD offer', () => {
    const microdata = productPage('').replace(
      '<main>',
      '<main itemscope itemtype="https://schema.org/Product"><meta itemprop="name" content="Stovetop Kettle"><span itemprop="offers" itemscope><meta itemprop="price" content="52.5"><meta itemprop="priceCurrency" content="GBP"></span>',
    );
    expect(htmlToMarkdown(microdata, URL_).markdown).toContain('Price: £52.50');
    const openGraph = productPage(
      '<meta property="og:type" content="product"><meta property="og:title" content="Stovetop Kettle"><meta property="product:price:amount" content="60"><meta property="product:price:currency" content="EUR">',
    );
    expect(htmlToMarkdown(openGraph, URL_).markdown).toContain('Price: €60.00');
  });

  it('reads a heading cut short as the product name, and a category heading inside the name as a category', () => {
    const name = 'Stovetop Kettle 1.8 L Enamel, Induction Ready';
    const cut = productPage(ld({ '@type': 'Product', name, offers }), '', 'Stovetop Kettle 1.8 L Enamel');
    expect(htmlToMarkdown(cut, URL_).markdown).toContain('Price: $49.00');
    const category = productPage(
      ld({ '@type': 'Product', name: 'Nike Pegasus Running Shoes', offers }),
      '',
      'Running Shoes',
    );
    expect(htmlToMarkdown(category, URL_).markdown).not.toContain('Price:');
  });

  it('keeps the content when the declared amount is absurd', () => {
    const { markdown } = htmlToMarkdown(
      productPage(ld({ '@type': 'Product', name: 'Stovetop Kettle', offers: { price: 1e21, priceCurrency: 'USD' } })),
      URL_,
    );
    expect(markdown).toContain('The kettle heats');
    expect(markdown).not.toContain('Price:');
  });

  it('adds nothing on a category page that declares a product of another name, or a page without a product', () => {
    const category = productPage(ld({ '@type': 'Product', name: 'Stovetop Kettle', offers }), '', 'Kitchen appliances');
    expect(htmlToMarkdown(category, URL_).markdown).not.toContain('Price:');
    const doc = parseHTML(category).document as never;
    expect(readProductPage(doc, sourceWords(category), metaMap(doc))).toEqual({ offer: null, description: null });
    const plain = productPage('');
    expect(htmlToMarkdown(plain, URL_).markdown).not.toContain('Price:');
  });
});
