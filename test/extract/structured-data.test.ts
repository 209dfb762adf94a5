/**
 * The structured-data reader (src/extract/html/read/structured-data/). Golden files: each
 * test/fixtures/structured-data/NN-name.html (pages written for this project) must read to
 * exactly NN-name.expected.json, the page parsed as the pipeline parses it (input bounds,
 * then parseDocument) at https://www.example.com/NN-name/. After a deliberate change,
 * regenerate with `UPDATE_GOLDEN=1 npx vitest run test/extract/structured-data.test.ts`
 * and review the diff. Then the bounds, hostile input, authorsOf and determinism.
 */
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { boundHtml } from '../../src/extract/html/read/input-bounds.js';
import { metaMap } from '../../src/extract/html/read/metadata.js';
import { parseDocument } from '../../src/extract/html/read/parse.js';
import type { StructuredData } from '../../src/extract/html/read/structured-data/structured-data.js';
import { authorsOf, readStructuredData } from '../../src/extract/html/read/structured-data/structured-data.js';
import { readAmount } from '../../src/extract/html/read/structured-data/amount.js';
import { jsonLdBlocks } from '../../src/extract/html/read/json-ld-blocks.js';

const FIXTURES = fileURLToPath(new URL('../fixtures/structured-data', import.meta.url));
const UPDATE = process.env.UPDATE_GOLDEN === '1';

function read(html: string, pageUrl = 'https://www.example.com/page/'): StructuredData {
  const bounded = boundHtml(html);
  const doc = parseDocument(bounded.html, bounded.shape.capitalNames);
  return readStructuredData(doc, metaMap(doc), { pageUrl });
}

describe('structured-data golden pages', () => {
  const pages = readdirSync(FIXTURES)
    .filter((name) => name.endsWith('.html'))
    .map((name) => name.slice(0, -'.html'.length))
    .sort();
  it('has the pages', () => expect(pages.length).toBeGreaterThanOrEqual(40));
  it.each(pages)('%s', (page) => {
    const html = readFileSync(join(FIXTURES, `${page}.html`), 'utf8');
    const data = read(html, `https://www.example.com/${page}/`);
    const file = join(FIXTURES, `${page}.expected.json`);
    if (UPDATE || !existsSync(file)) writeFileSync(file, `${JSON.stringify(data, null, 2)}\n`);
    expect(data).toEqual(JSON.parse(readFileSync(file, 'utf8')));
  });
});

function page(head: string, body = ''): string {
  return `<!DOCTYPE html><html><head><title>t</title>${head}</head><body>${body}</body></html>`;
}

function ld(value: unknown): string {
  return `<script type="application/ld+json">${JSON.stringify(value)}</script>`;
}

function bytes(data: StructuredData): number {
  return Buffer.byteLength(JSON.stringify(data), 'utf8');
}

/** A small deterministic generator (mulberry32), so the garbage is the same on every run. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe('bounds', () => {
  it('keeps at most 100 items, says so and marks the result truncated', () => {
    const people = Array.from({ length: 150 }, (_, i) => ({ '@type': 'Person', name: `Person ${i}` }));
    const data = read(page(ld({ '@context': 'https://schema.org', '@graph': people })));
    expect(data.items).toHaveLength(100);
    expect(data.items[99]!.name).toBe('Person 99');
    expect(data.truncated).toBe(true);
    expect(data.notes).toContain('items truncated at 100');
  });

  it('merges duplicates before counting: 300 declarations of 50 entities are 50 items', () => {
    const people = Array.from({ length: 300 }, (_, i) => ({ '@type': 'Person', name: `Person ${i % 50}` }));
    const data = read(page(ld({ '@graph': people })));
    expect(data.items).toHaveLength(50);
    expect(data.truncated).toBeUndefined();
  });

  it('reads the first 1,000 declarations, and says the rest were left out', () => {
    const people = Array.from({ length: 1500 }, (_, i) => ({
      '@type': 'Person',
      name: `Person ${i % 50}`,
      url: `#${i}`,
    }));
    const data = read(page(ld({ '@graph': people.map(({ url: _url, ...person }) => person) })));
    expect(data.items).toHaveLength(50);
    expect(data.truncated).toBe(true);
    expect(data.notes).toEqual(['declarations past the first 1000 left out']);
  });

  it('visits at most 200,000 elements for microdata, however many items share them by itemref', () => {
    const shared = `<div id="big">${'<span itemprop="name">x</span>'.repeat(5000)}</div>`;
    const data = read(
      page('', shared + '<div itemscope itemtype="https://schema.org/Thing" itemref="big"></div>'.repeat(60)),
    );
    expect(data.notes).toContain('microdata read up to 200000 elements (the rest left out)');
  });

  it('skips a JSON-LD block over 1,000,000 characters with a note, and reads the others', () => {
    const huge = { '@type': 'Article', headline: 'Huge', articleBody: 'x'.repeat(1_000_001) };
    const data = read(page(ld(huge) + ld({ '@type': 'Article', headline: 'Small' })));
    expect(data.items.map((item) => item.headline)).toEqual(['Small']);
    expect(data.notes).toEqual(['JSON-LD block 1 is longer than 1000000 characters (skipped)']);
  });

  it('reads a large block under the bound (a catalogue), within the item bound', () => {
    const products = Array.from({ length: 3000 }, (_, i) => ({
      '@type': 'Product',
      name: `Product ${i}`,
      sku: `SKU-${i}`,
      offers: { '@type': 'Offer', price: i + 0.5, priceCurrency: 'EUR' },
    }));
    const data = read(page(ld({ '@context': 'https://schema.org', '@graph': products })));
    expect(data.items).toHaveLength(100);
    expect(data.items[0]).toMatchObject({ type: 'Product', sku: 'SKU-0', offers: [{ price: 0.5, currency: 'EUR' }] });
    expect(data.truncated).toBe(true);
  });

  it('cuts nesting at depth 8', () => {
    let node: Record<string, unknown> = { '@type': 'CreativeWork', name: 'bottom' };
    for (let i = 0; i < 20; i += 1) node = { '@type': 'CreativeWork', name: `level ${19 - i}`, hasPart: node };
    const data = read(page(ld(node)));
    let depth = 0;
    for (let at = data.items[0]!.properties as any; at?.hasPart !== undefined; at = at.hasPart) depth += 1;
    expect(depth).toBe(8);
    expect(data.notes).toEqual(['JSON-LD block 1 nests deeper than 8 levels (deeper values left out)']);
  });

  it('cuts strings at 5,000 characters and lists at 100 entries', () => {
    const data = read(
      page(
        ld({
          '@type': 'Article',
          headline: 'Long',
          description: 'd'.repeat(7000),
          keywords: Array.from({ length: 150 }, (_, i) => `k${i}`),
          image: Array.from({ length: 150 }, (_, i) => `https://www.example.com/${i}.jpg`),
        }),
      ),
    );
    const [item] = data.items;
    expect(item!.description).toHaveLength(5000);
    expect(item!.keywords).toHaveLength(100);
    expect(item!.image).toHaveLength(100);
    expect(data.notes).toEqual(['string values cut at 5000 characters', 'lists cut at 100 entries']);
  });

  it('never cuts a string inside a surrogate pair', () => {
    const data = read(page(ld({ '@type': 'Article', headline: `${'a'.repeat(4999)}😀😀` })));
    expect(data.items[0]!.headline).toBe('a'.repeat(4999));
  });

  it('keeps the whole result within 256 KB: raw properties of the last items go first, then items', () => {
    const things = Array.from({ length: 100 }, (_, i) => ({
      '@type': 'Dataset',
      name: `Dataset ${i}`,
      description: `${i} `.repeat(1500),
      about: Array.from({ length: 5 }, (_, j) => `topic ${i}-${j} `.repeat(200)),
    }));
    // Ten blocks of ten: each block under its own bound.
    const blocks = Array.from({ length: 10 }, (_, i) => ld({ '@graph': things.slice(i * 10, i * 10 + 10) }));
    const data = read(page(blocks.join('')));
    expect(bytes(data)).toBeLessThanOrEqual(256 * 1024);
    expect(data.truncated).toBe(true);
    expect(data.items).toHaveLength(100);
    expect(data.items[0]!.properties).toBeDefined();
    expect(data.items[99]!.properties).toBeUndefined();
    expect(data.notes?.some((note) => /^raw properties of \d+ items left out/.test(note))).toBe(true);
  });

  it('drops the last items when their shapes alone pass 256 KB', () => {
    const articles = Array.from({ length: 100 }, (_, i) => ({
      '@type': 'Article',
      headline: `Article ${i}`,
      description: 'w'.repeat(4000),
      keywords: Array.from({ length: 20 }, (_, j) => `keyword ${j} of article ${i}`),
    }));
    const data = read(page(ld({ '@graph': articles })));
    expect(bytes(data)).toBeLessThanOrEqual(256 * 1024);
    expect(data.items.length).toBeLessThan(100);
    expect(data.items[0]!.headline).toBe('Article 0');
    expect(data.notes?.some((note) => /^\d+ items left out to keep the result within 262144 bytes$/.test(note))).toBe(
      true,
    );
  });
});

describe('never throws', () => {
  it('on random bytes as JSON-LD, and says each block is not JSON', () => {
    const next = random(42);
    const blocks = Array.from({ length: 20 }, () => {
      const text = Array.from({ length: 300 }, () => String.fromCharCode(Math.floor(next() * 0x3000))).join('');
      return `<script type="application/ld+json">${text.replace(/<\/script/gi, '')}</script>`;
    });
    const data = read(page(blocks.join('')));
    expect(data.items).toEqual([]);
    expect(data.notes?.length).toBeGreaterThan(0);
  });

  it('on random fragments of JSON-LD', () => {
    const source = readFileSync(join(FIXTURES, '02-yoast-graph.html'), 'utf8');
    const json = /<script[^>]*>([\s\S]*?)<\/script>/.exec(source)![1]!;
    const next = random(7);
    for (let i = 0; i < 50; i += 1) {
      const start = Math.floor(next() * json.length);
      const cut = json.slice(0, start) + json.slice(start + Math.floor(next() * 40));
      expect(() => read(page(`<script type="application/ld+json">${cut}</script>`))).not.toThrow();
    }
  });

  it('on arrays nested 10,000 deep, as a block and as a value', () => {
    const deep = `${'['.repeat(10_000)}"x"${']'.repeat(10_000)}`;
    const value = `{"@type": "Article", "headline": "Deep", "image": ${deep}}`;
    const data = read(
      page(`<script type="application/ld+json">${deep}</script><script type="application/ld+json">${value}</script>`),
    );
    expect(data.items).toEqual([{ type: 'Article', sources: ['json-ld'], headline: 'Deep' }]);
    expect(data.notes).toEqual([
      'JSON-LD block 1 nests deeper than 8 levels (deeper values left out)',
      'JSON-LD block 2 nests deeper than 8 levels (deeper values left out)',
    ]);
  });

  it('on objects nested 10,000 deep', () => {
    const deep = `${'{"@type": "Thing", "about": '.repeat(10_000)}"x"${'}'.repeat(10_000)}`;
    expect(read(page(`<script type="application/ld+json">${deep}</script>`)).items).toHaveLength(1);
  });

  it('on cyclic @id references', () => {
    const data = read(
      page(
        ld({
          '@graph': [
            { '@type': 'Article', '@id': '#a', headline: 'Loop', author: { '@id': '#b' }, isPartOf: { '@id': '#a' } },
            { '@type': 'Person', '@id': '#b', author: { '@id': '#a' }, knows: { '@id': '#b' } },
            { '@id': '#c', sameAs: { '@id': '#c' } },
          ],
        }),
      ),
    );
    expect(data.items.map((item) => item.type)).toEqual(['Article', 'Person']);
    expect(data.items[0]!.authors).toBeUndefined();
  });

  it('on HowTo sections that hold themselves', () => {
    const data = read(
      page(
        ld({
          '@graph': [
            { '@type': 'HowTo', name: 'Loop', step: { '@id': '#s' } },
            { '@type': 'HowToSection', '@id': '#s', itemListElement: [{ '@id': '#s' }, 'Step one'] },
          ],
        }),
      ),
    );
    expect(data.items[0]!.steps?.filter((step) => step.text === 'Step one').length).toBeGreaterThan(0);
  });

  it('on microdata and RDFa nested thousands deep, with itemrefs in circles', () => {
    const microdata = '<div itemprop="hasPart" itemscope itemtype="https://schema.org/CreativeWork">'.repeat(400);
    const rdfa = '<div property="hasPart" typeof="CreativeWork">'.repeat(400);
    const html = page(
      '',
      `<div itemscope itemtype="https://schema.org/CreativeWork" id="a" itemref="a b">${microdata}</div>` +
        `<div id="b" itemscope itemref="a b" itemprop="x"></div>` +
        `<div vocab="https://schema.org/" typeof="CreativeWork">${rdfa}</div>`,
    );
    const data = read(html);
    expect(data.items.map((item) => item.sources[0])).toContain('rdfa');
    expect(data.notes).toContain('microdata nests deeper than 8 levels (deeper items left out)');
    expect(data.notes).toContain('RDFa nests deeper than 8 levels (deeper items left out)');
  });

  it('on odd values where text, numbers and URLs are expected', () => {
    const data = read(
      page(
        ld({
          '@type': 'Product',
          name: { '@value': 'Valued name' },
          offers: [
            { '@type': 'Offer', price: { nested: true }, priceCurrency: 42, url: 'javascript:alert(1)' },
            null,
            7,
          ],
          image: [null, 12, true, { '@type': 'ImageObject' }, 'http://[broken'],
          aggregateRating: { '@type': 'AggregateRating', ratingValue: 'five' },
          brand: [],
        }),
      ),
    );
    expect(data.items).toEqual([
      { type: 'Product', sources: ['json-ld'], name: 'Valued name', offers: [{ currency: '42' }] },
    ]);
  });

  it("on property names that are Object.prototype's", () => {
    const block =
      '{"@type": "Thing", "__proto__": "p", "constructor": "c", "toString": {"@type": "Thing", "__proto__": "q"}}';
    const html = `<meta property="og:__proto__" content="x"><script type="application/ld+json">${block}</script>`;
    const data = read(page(html));
    expect(JSON.stringify(data.items[0]!.properties)).toBe(
      '{"__proto__":"p","constructor":"c","toString":{"@type":"Thing","__proto__":"q"}}',
    );
    expect(JSON.stringify(data.open_graph)).toBe('{"__proto__":"x"}');
  });
});

describe('authorsOf', () => {
  const authors = (head: string, body = ''): string[] => authorsOf(read(page(head, body)));

  it("reads the first article's authors, names trimmed, repeats in any case left out", () => {
    expect(
      authors(
        ld({ '@type': 'WebPage', author: { '@type': 'Person', name: 'Page Owner' } }) +
          ld({
            '@type': 'NewsArticle',
            author: [
              { '@type': 'Person', name: '  Ada   Byron ' },
              'ada byron',
              { '@type': 'Person', givenName: 'Grace', familyName: 'Hopper' },
              { '@type': 'Organization', name: 'Newsroom' },
            ],
          }) +
          ld({ '@type': 'Article', author: 'Someone Else' }),
      ),
    ).toEqual(['Ada Byron', 'Grace Hopper', 'Newsroom']);
  });

  it('reads a name given as a URL from the person declared there, else skips it', () => {
    expect(
      authors(
        ld({
          '@graph': [
            {
              '@type': 'BlogPosting',
              author: [
                'https://www.example.com/people/mo',
                'https://www.example.com/people/unknown',
                { '@id': '#kim' },
              ],
            },
            { '@type': 'Person', name: 'Mo Ali', url: 'https://www.example.com/people/mo' },
            { '@type': 'Person', '@id': '#kim', name: 'Kim Lee' },
            { '@type': 'Person', '@id': '#url', name: 'https://www.example.com/not-a-name' },
          ],
        }),
      ),
    ).toEqual(['Mo Ali', 'Kim Lee']);
  });

  it('falls back to another item with authors, then to a web page, then to Open Graph names', () => {
    expect(
      authors(
        ld({ '@type': 'Article', headline: 'No byline' }) +
          ld({ '@type': 'WebPage', author: 'Page Owner' }) +
          ld({ '@type': 'Recipe', name: 'Soup', author: 'Cook' }),
      ),
    ).toEqual(['Cook']);
    expect(authors(ld({ '@type': 'WebPage', author: 'Page Owner' }) + ld({ '@type': 'Article' }))).toEqual([
      'Page Owner',
    ]);
    expect(
      authors(
        '<meta property="og:type" content="article"><meta property="article:author" content="https://social.example.net/x">' +
          '<meta property="article:author" content="Desk Editor">' +
          ld({ '@type': 'Article', headline: 'A byline only in Open Graph' }),
      ),
    ).toEqual(['Desk Editor']);
    expect(
      authors('<meta property="og:type" content="article"><meta property="article:author" content="Noor">'),
    ).toEqual(['Noor']);
  });

  it('is empty without authors, and ignores other vocabularies', () => {
    expect(authors('')).toEqual([]);
    expect(authors(ld({ '@type': 'Organization', name: 'Only an organisation' }))).toEqual([]);
    expect(
      authors(ld({ '@context': 'https://www.w3.org/ns/activitystreams', '@type': 'Article', author: 'X' })),
    ).toEqual([]);
  });

  it('gives at most 20 names', () => {
    const people = Array.from({ length: 30 }, (_, i) => ({ '@type': 'Person', name: `Author ${i}` }));
    expect(authors(ld({ '@type': 'ScholarlyArticle', author: people }))).toHaveLength(20);
  });

  it('reads the golden pages as a reader would', () => {
    const fixture = (name: string): string[] =>
      authorsOf(read(readFileSync(join(FIXTURES, `${name}.html`), 'utf8'), `https://www.example.com/${name}/`));
    expect(fixture('02-yoast-graph')).toEqual(['Tomas Reyes']);
    expect(fixture('27-og-only-article')).toEqual(['Noor Haddad']);
    expect(fixture('35-two-articles')).toEqual(['Yusuf Demir']);
    expect(fixture('39-live-blog-and-og')).toEqual(['Desk Editor']);
    expect(fixture('37-no-structured-data')).toEqual([]);
  });
});

describe('determinism', () => {
  it('reads every golden page the same way twice, from fresh parses', () => {
    for (const name of readdirSync(FIXTURES).filter((file) => file.endsWith('.html'))) {
      const html = readFileSync(join(FIXTURES, name), 'utf8');
      expect(JSON.stringify(read(html))).toBe(JSON.stringify(read(html)));
    }
  });

  it('gives the same result for the same garbage', () => {
    const next = random(99);
    const garbage = Array.from({ length: 2000 }, () => '{}[]",:@ abc'[Math.floor(next() * 12)]).join('');
    const html = page(`<script type="application/ld+json">${garbage}</script>`);
    expect(read(html)).toEqual(read(html));
  });
});

describe('JSON-LD blocks', () => {
  const blocks = (html: string) => {
    const bounded = boundHtml(html);
    return [...jsonLdBlocks(parseDocument(bounded.html, bounded.shape.capitalNames))];
  };

  it('unwraps comments and CDATA, drops trailing commas and escapes raw line breaks, only when the text does not parse', () => {
    const found = blocks(
      page(
        '<script type="application/ld+json"><!-- {"a": 1} --></script>' +
          '<script type="application/ld+json">/*<![CDATA[*/ {"b": [1, 2,],} /*]]>*/</script>' +
          '<script type="application/ld+json">{"c": "one\ntwo", "d": "a,]"}</script>' +
          '<script type="application/ld+json">{"e": "x\\", "f": "a\\"b"}</script>',
      ),
    );
    expect(found.map((block) => block.value ?? block.problem)).toEqual([
      { a: 1 },
      { b: [1, 2] },
      { c: 'one\ntwo', d: 'a,]' },
      'invalid',
    ]);
  });

  it('filters by a needle before parsing, as jsonLdValues does', () => {
    const html = page(ld({ '@type': 'Product' }) + ld({ '@type': 'Article' }));
    expect(blocks(html).length).toBe(2);
    const bounded = boundHtml(html);
    const doc = parseDocument(bounded.html, bounded.shape.capitalNames);
    expect([...jsonLdBlocks(doc, 'Product')].map((block) => block.index)).toEqual([1]);
  });
});

describe('readAmount', () => {
  it('reads amounts as pages write them', () => {
    expect(readAmount(35)).toBe(35);
    expect(readAmount('1299.00')).toBe(1299);
    expect(readAmount('1,299.50')).toBe(1299.5);
    expect(readAmount('1.299,00')).toBe(1299);
    expect(readAmount('1.299.000')).toBe(1299000);
    expect(readAmount('1 299,5')).toBe(1299.5);
    expect(readAmount("CHF 1'320.50")).toBe(1320.5);
    expect(readAmount('$1,349.99')).toBe(1349.99);
    expect(readAmount('49,90 €')).toBe(49.9);
    expect(readAmount('12,5')).toBe(12.5);
    expect(readAmount('0')).toBe(0);
  });

  it('reads nothing from what is not one amount', () => {
    expect(readAmount('1.299')).toBe(1.299);
    expect(readAmount('call for price')).toBeUndefined();
    expect(readAmount('10 to 20')).toBeUndefined();
    expect(readAmount('1,2,3')).toBeUndefined();
    expect(readAmount(Number.NaN)).toBeUndefined();
    expect(readAmount(null)).toBeUndefined();
  });
});
