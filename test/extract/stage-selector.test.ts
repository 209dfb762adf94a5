/**
 * The learned stage choice (stage-selector.ts, stage-features.ts, declared-types.ts): the
 * shipped model reads the features the code computes, in their order; the features say
 * what the page says of itself; the training runs' `prefer` and the ablation's switch put
 * the stage they name first; a page that gives no text is of no known type.
 */
import { parseHTML } from 'linkedom';
import { describe, expect, it } from 'vitest';
import { readDeclaredTypes } from '../../src/extract/html/read/declared-types.js';
import type { DomDocument } from '../../src/extract/html/dom.js';
import { metaMap } from '../../src/extract/html/read/metadata.js';
import { PAGE_TYPES } from '../../src/core/page-types.js';
import { runPipeline } from '../../src/extract/html/pipeline.js';
import { STAGE_FEATURES } from '../../src/extract/html/choose/stage-features.js';
import { STAGE_MODEL, guessPageType, readabilityFirst } from '../../src/extract/html/choose/stage-selector.js';

function prose(words: number, seed: string): string {
  const out: string[] = [];
  for (let i = 0; out.length < words; i++)
    out.push(`${seed}`, 'walks', 'along', 'the', 'river', `number${i}`, 'and', 'writes.');
  return out.slice(0, words).join(' ');
}

const feature = (values: Float64Array | undefined, name: (typeof STAGE_FEATURES)[number]): number =>
  values![STAGE_FEATURES.indexOf(name)]!;

describe('the shipped model', () => {
  it('reads exactly the features the code computes, in their order', () => {
    expect(STAGE_MODEL.features).toEqual([...STAGE_FEATURES]);
  });

  it('has well-formed trees: each split names a feature and leads to nodes of its tree', () => {
    expect(STAGE_MODEL.stage.trees.length).toBeGreaterThan(0);
    for (const tree of [STAGE_MODEL.stage, ...STAGE_MODEL.pageType.models].flatMap((m) => m.trees)) {
      for (const node of tree) {
        if (node[0] === -1) {
          expect(node).toHaveLength(2);
          expect(Number.isFinite(node[1])).toBe(true);
        } else {
          expect(node).toHaveLength(4);
          expect(node[0]).toBeGreaterThanOrEqual(0);
          expect(node[0]).toBeLessThan(STAGE_FEATURES.length);
          expect(node[2]).toBeLessThan(tree.length);
          expect(node[3]).toBeLessThan(tree.length);
        }
      }
    }
  });

  it('guesses only the page types the API knows, one set of trees each', () => {
    const { classes, models } = STAGE_MODEL.pageType;
    for (const c of classes) expect(PAGE_TYPES).toContain(c);
    expect(models).toHaveLength(classes.length);
    const zeros = new Float64Array(STAGE_FEATURES.length);
    expect(PAGE_TYPES).toContain(guessPageType(zeros));
    expect(typeof readabilityFirst(zeros)).toBe('boolean');
  });
});

describe('declared types', () => {
  const read = (html: string): Set<string> =>
    readDeclaredTypes(html, metaMap(parseHTML(html).document as unknown as DomDocument));

  it("reads og:type, JSON-LD @type (nested, @graph, lists) and microdata, schema.org's names only", () => {
    const types = read(`<html><head><meta property="og:type" content="article">
      <script type="application/ld+json">{"@context":"https://schema.org","@graph":[{"@type":"WebPage"},{"@type":["NewsArticle","Thing"],"author":{"@type":"Person"}}]}</script>
      </head><body><div itemscope itemtype="https://schema.org/BlogPosting"><p>x</p></div></body></html>`);
    expect([...types].sort()).toEqual(['blogposting', 'newsarticle', 'og-article', 'person', 'thing', 'webpage']);
  });

  it('reads a block cut short as far as it goes, microdata in any quoting, and nothing from a page that declares nothing', () => {
    expect([
      ...read(
        '<html><head><script type="application/ld+json">{"@type": "Product",</script></head><body><p>x</p></body></html>',
      ),
    ]).toEqual(['product']);
    expect([
      ...read("<div itemscope itemType='http://schema.org/Recipe'></div><div itemtype=http://schema.org/Review></div>"),
    ]).toEqual(['recipe', 'review']);
    expect(read('<html><body><p>Plain page about @type and itemtype.</p></body></html>').size).toBe(0);
  });
});

describe('the features of a page', () => {
  const story = `<html><head><title>Mill reopens</title><meta property="og:type" content="article"></head><body>
    <nav><a href="/">Home</a> <a href="/news">News</a></nav>
    <article><h1>Mill reopens after ten years</h1><p>${prose(120, 'Anna')}</p><p>${prose(90, 'Ben')}</p></article>
    <section id="comments" class="comments"><h2>Comments</h2>${Array.from({ length: 6 }, (_, i) => `<div class="comment"><p>${prose(40, `Reader${i}`)}</p><a class="reply" href="#r${i}">Reply</a></div>`).join('')}</section>
    </body></html>`;
  const url = 'https://news.example.com/2024/05/mill-reopens-after-ten-years';

  it('says what the page declares, the shape of its URL and its comment markup', () => {
    const { features } = runPipeline(story, url);
    expect(features?.values).toHaveLength(STAGE_FEATURES.length);
    const values = features?.values;
    expect(feature(values, 'declares-article')).toBe(1);
    expect(feature(values, 'declares-product')).toBe(0);
    expect(feature(values, 'url-date')).toBe(1);
    expect(feature(values, 'url-slug-words')).toBeCloseTo(Math.log1p(4));
    expect(feature(values, 'comment-marks')).toBeGreaterThan(0);
    expect(feature(values, 'has-pick')).toBe(1);
    expect(feature(values, 'pick-share')).toBeGreaterThan(0);
    expect(feature(values, 'pick-share')).toBeLessThanOrEqual(2);
    // Every feature is a finite number: the trees compare them with thresholds.
    expect(Array.from(values!).every(Number.isFinite)).toBe(true);
  });

  it('is the same whichever stage goes first (features are read before the choice)', () => {
    const a = runPipeline(story, url, { prefer: 'readability' });
    const b = runPipeline(story, url, { prefer: 'cleaned-body' });
    expect(Array.from(a.features!.values)).toEqual(Array.from(b.features!.values));
  });
});

describe('the choice', () => {
  const page = `<html><body><main><h1>Quarry handbook</h1><div class="intro"><p>${prose(150, 'Quarry')}</p></div>
    <div class="extra"><h2>Notes</h2><p>${prose(60, 'Note')}</p></div></main></body></html>`;

  it("puts first the stage the training runs name, and Readability's pick with the selector switched off", () => {
    expect(runPipeline(page, 'https://docs.example.com/guide', { prefer: 'cleaned-body' }).stage).toBe('cleaned-body');
    expect(runPipeline(page, 'https://docs.example.com/guide', { prefer: 'readability' }).stage).toBe('readability');
    expect(runPipeline(page, 'https://docs.example.com/guide', { off: ['stage-selector'] }).stage).toBe('readability');
  });

  it('calls a page that gives no text of no known type', () => {
    expect(runPipeline('', 'https://example.com/').pageType).toBe('other');
    expect(runPipeline('<html><body><script>app()</script></body></html>', 'https://example.com/').pageType).toBe(
      'other',
    );
    expect(PAGE_TYPES).toContain(runPipeline(page, 'https://docs.example.com/guide').pageType);
  });
});
