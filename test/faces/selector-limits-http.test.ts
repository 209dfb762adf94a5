/**
 * The bounds on the page controls' selectors over POST /api/crawl: a selector past a limit
 * of its shape (descendant and "~" combinators, nesting, compound selectors) is a 400
 * naming its path and the limit, on every field, before anything is fetched; selectors
 * within the limits that still backtrack on a page fail that URL with too_large at the
 * matching budget, uncharged, while the other URLs of the request succeed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SELECTOR_LIMITS } from '../../src/core/standard-css-selector.js';
import { startFixtureSite, type FixtureSite } from '../helpers/fixture-site.js';
import { send } from '../helpers/fixture-scenarios.js';
import { pageControlScenarios } from '../helpers/page-control-scenarios.js';
import { startTestApi, type TestApi } from '../helpers/test-server.js';

/** 200 nested <div>s with a paragraph at each level. */
const DEEP_HTML = `<!doctype html><html><head><title>Deep</title></head><body>${Array.from(
  { length: 200 },
  (_, i) => `<div class="d${i % 7}"><p>Level ${i} text of the page, with words enough to read.</p>`,
).join('')}${'</div>'.repeat(200)}</body></html>`;

let site: FixtureSite;
let api: TestApi;
beforeAll(async () => {
  site = await startFixtureSite({
    scenarios: [
      ...pageControlScenarios(),
      { path: '/deep', description: '200 nested divs', handle: (ctx) => send(ctx.res, 200, 'text/html', DEEP_HTML) },
    ],
  });
  api = await startTestApi({ cache: { ttlMs: 0 } });
});
afterAll(async () => {
  await api?.close();
  await site?.close();
});

type Issue = { path: string; message: string };
const issues = (json: { error: { details: Issue[] } }) => json.error.details;

describe('selector limits', () => {
  it('a selector past a limit of its shape is a 400 naming the path and the limit, on every field; nothing fetched', async () => {
    const descendants = `x ${'div '.repeat(SELECTOR_LIMITS.backtracking)}p`;
    const nested = ':is(:not(:where(:is(.a))))';
    const compounds = Array.from({ length: SELECTOR_LIMITS.compounds + 1 }, (_, i) => `.c${i}`).join(' > ');
    const { status, json } = await api.crawl({
      urls: [`${site.origin}/deep`],
      include_selectors: ['article', descendants],
      exclude_selectors: [nested],
      wait_for_selector: compounds,
    });
    expect(status).toBe(400);
    expect(issues(json).map((d) => d.path)).toEqual([
      'include_selectors.1',
      'exclude_selectors.0',
      'wait_for_selector',
    ]);
    const [first, second, third] = issues(json).map((d) => d.message);
    expect(first).toContain(`too complex: more than ${SELECTOR_LIMITS.backtracking} descendant`);
    expect(second).toContain(`nested more than ${SELECTOR_LIMITS.nesting} deep`);
    expect(third).toContain(`more than ${SELECTOR_LIMITS.compounds} compound selectors`);
    expect(site.hits('/deep')).toBe(0);
  });

  it('selectors within the limits take their usual answer', async () => {
    const { status, json } = await api.crawl({
      urls: [`${site.origin}/controls/sidebar`],
      include_selectors: [`body ${'div '.repeat(SELECTOR_LIMITS.backtracking - 2)}p`, ':is(:not(:where(.x)))'],
    });
    expect(status).toBe(200);
    // The second names every element but .x: the whole page.
    expect(json.results[0]).toMatchObject({ success: true, content_source: 'selectors' });
  });

  it('selectors that backtrack on a page fail that URL with too_large, uncharged; the other URL succeeds', async () => {
    const backtracking = Array.from({ length: 20 }, (_, i) => `x${i} div div div div p`);
    const { status, json } = await api.crawl({
      urls: [`${site.origin}/deep`, `${site.origin}/controls/sidebar`],
      include_selectors: [...backtracking.slice(0, 19), 'aside .note'],
      // The matching's budget ends it, not the deadline, on however slow a machine.
      timeout_ms: 60_000,
    });
    expect(status).toBe(200);
    const [deep, sidebar] = json.results;
    expect(deep).toMatchObject({ success: false, error_type: 'too_large' });
    expect(deep.error).toContain('include_selectors / exclude_selectors');
    expect(sidebar).toMatchObject({ success: true, content_source: 'selectors' });
    expect(json.metadata.credits_used).toBe(1);
  });
});
