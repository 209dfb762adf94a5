/**
 * The page controls' selectors matched under a budget of steps
 * (src/extract/html/prepare/selector-budget.ts): backtracking selectors on a big deep page
 * fail the page with `too_large` (unbounded, one of them alone runs for minutes), real
 * selectors on a page at the element bound fit with room to spare, the budget holds across both parses of
 * the page (never a page with an exclusion silently skipped), and the counting matcher
 * finds exactly what linkedom's querySelectorAll and closest find.
 */
import { describe, expect, it } from 'vitest';
import { AppError } from '../../src/core/errors.js';
import type { DomElement } from '../../src/extract/html/dom.js';
import { runPipeline } from '../../src/extract/html/pipeline.js';
import {
  MatchBudget,
  SELECTOR_MATCH_STEPS,
  closestPasses,
  compileSelector,
  descendantsPassing,
} from '../../src/extract/html/prepare/selector-budget.js';
import { parseDocument } from '../../src/extract/html/read/parse.js';
import { convert, type ConvertInput, type PageControls } from '../../src/extract/index.js';
import { ARTICLE_HTML, PRODUCT_HTML } from '../helpers/fixture-pages.js';
import { SIDEBAR_HTML } from '../helpers/page-control-scenarios.js';

/** 200 nested <div>s with a paragraph at each level: right-to-left matching of `x div … p` backtracks over them. */
function deepHtml(depth = 200): string {
  const open = Array.from({ length: depth }, (_, i) => `<div class="d${i % 7}"><p>Level ${i} text of the page.</p>`);
  return `<!doctype html><html><head><title>Deep</title></head><body>${open.join('')}${'</div>'.repeat(depth)}</body></html>`;
}

/** A 2.4 MB article of sections: 99,000 elements, near the parser's element bound (HTML_BOUNDS, 100,000). */
function bigHtml(): string {
  const parts: string[] = [];
  for (let i = 0; i < 11_000; i++) {
    const part = `<section class="s${i % 13}"><h2>Part ${i}</h2><div class="body"><p class="p${i % 5}">Paragraph ${i} about harbours, tides and <a href="/x/${i}">links</a> and <em>words</em>.</p><ul><li>one ${i}</li><li>two</li></ul></div></section>`;
    parts.push(part);
  }
  return `<!doctype html><html><head><title>Big</title></head><body><main><article>${parts.join('')}</article></main><aside class="sidebar"><p>Aside</p></aside></body></html>`;
}

const page = (html: string, controls: PageControls): ConvertInput => ({
  bytes: new TextEncoder().encode(html),
  contentType: 'text/html; charset=utf-8',
  url: 'https://harbour.test/page',
  format: 'markdown',
  controls,
});

/** Twenty selectors that pass the validation (five descendant combinators each) and never match. */
const backtracking = Array.from({ length: 20 }, (_, i) => `x${i} div div div div p`);

describe('the budget of the selectors', () => {
  it('stops backtracking include_selectors on a deep page: too_large, naming the fields', async () => {
    const error = await convert(page(deepHtml(), { includeSelectors: backtracking })).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({ code: 'too_large' });
    expect((error as AppError).message).toContain('include_selectors / exclude_selectors');
    expect((error as AppError).message).toContain(SELECTOR_MATCH_STEPS.toLocaleString('en-US'));
  });

  it('and exclude_selectors, whose failure no step may swallow', async () => {
    const error = await convert(page(deepHtml(), { excludeSelectors: backtracking.slice(0, 3) })).catch(
      (e: unknown) => e,
    );
    expect(error).toMatchObject({ code: 'too_large' });
  });

  it('leaves a deep page without selectors, and one with selectors that do not backtrack, alone', async () => {
    expect((await convert(page(deepHtml(), {}))).markdown).toContain('Level 199 text');
    const output = await convert(page(deepHtml(), { includeSelectors: ['div.d3 > p', 'body > div > p'] }));
    expect(output.markdown).toContain('Level 3 text');
  });

  it('fits twenty real selectors in each field on a page at the element bound, with room to spare', () => {
    const real = [
      'article',
      'main .body p',
      'section h2',
      '.sidebar',
      'a[href^="/x/"]',
      'ul > li:first-child',
      'div:has(> p)',
      'section:not(.s1) .body',
      ':is(h2, h3) + div',
      'main article section div p a',
      'li ~ li',
      'p em',
      '.p1',
      '#nothing',
      'body main article',
      'aside, nav',
      'div p',
      'em',
      'main a',
      'section > .body > ul li',
    ];
    const body = parseDocument(bigHtml()).body as DomElement;
    expect(body.querySelectorAll('*').length).toBeGreaterThan(98_000);
    const budget = new MatchBudget();
    for (let parse = 0; parse < 3; parse++)
      for (const selector of real) descendantsPassing(body, compileSelector(selector, body, budget), budget);
    // Sixty matchings: the include list once and the exclude list on both parses.
    expect(budget.failure).toBeUndefined();
    expect(SELECTOR_MATCH_STEPS - budget.left).toBeLessThan(SELECTOR_MATCH_STEPS / 2);
  });

  it('holds across both parses of the page: for any budget, the exclusion is applied or the page fails', () => {
    // Only a footer: the plain-text stage wins and parses the page again, excluding again.
    const html = `<html><body><footer>${Array.from({ length: 20 }, (_, i) => `<p class="a">alpha ${i} words here</p><p class="b">beta ${i} words here</p>`).join('')}</footer></body></html>`;
    const outcomes = new Set<string>();
    for (let steps = 0; steps <= 4_000; steps += 25) {
      let markdown: string | undefined;
      try {
        ({ markdown } = runPipeline(html, 'https://harbour.test/', {
          controls: { excludeSelectors: ['p.b', 'body p.b'] },
          selectorSteps: steps,
        }));
      } catch (error) {
        expect(error, `${steps} steps`).toMatchObject({ code: 'too_large' });
        outcomes.add('too_large');
        continue;
      }
      expect(markdown, `${steps} steps`).toContain('alpha 19');
      expect(markdown, `${steps} steps`).not.toContain('beta');
      outcomes.add('excluded');
    }
    // The range covers both: budgets too small for the matching, and large enough for it.
    expect([...outcomes].sort()).toEqual(['excluded', 'too_large']);
  });
});

describe('the counting matcher', () => {
  const pages = {
    sidebar: SIDEBAR_HTML,
    article: ARTICLE_HTML,
    product: PRODUCT_HTML,
    template:
      '<html><body><template><p class="t">inside</p></template><p class="t">outside</p><div><p>x</p></div></body></html>',
  };
  const selectors = [
    'p',
    '.note',
    'aside .note',
    'aside > div.note p',
    'div:has(> p)',
    'p:first-child',
    'p:nth-child(2n+1)',
    'p:nth-of-type(2)',
    'li:last-child',
    'h1 ~ p',
    'h1 + p',
    ':is(h1, h2)',
    ':not(p)',
    'p:empty',
    '[class]',
    '[class~="note"]',
    'A[HREF]',
    'body',
    'html',
    ':root',
    ':scope > main',
    '*',
    'p.t',
  ];

  it.each(Object.entries(pages))('finds on the %s page what linkedom finds', (_name, html) => {
    const body = parseDocument(html).body as DomElement;
    for (const selector of selectors) {
      const budget = new MatchBudget();
      const test = compileSelector(selector, body, budget);
      expect(descendantsPassing(body, test, budget), selector).toEqual(Array.from(body.querySelectorAll(selector)));
      expect(closestPasses(body, test), selector).toBe(body.closest(selector) !== null);
    }
  });
});
