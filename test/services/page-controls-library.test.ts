/**
 * The page controls through the library (`createWebSearch().extract`): the same options,
 * validation and results as POST /api/crawl, over the worker pool.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { AppError, createWebSearch, crawlResponseSchema } from '../../src/index.js';
import { startFixtureSite, type FixtureSite } from '../helpers/fixture-site.js';
import { SIDEBAR_NOTE, expectedLinks, pageControlScenarios } from '../helpers/page-control-scenarios.js';

let site: FixtureSite;
beforeAll(async () => {
  site = await startFixtureSite({ scenarios: pageControlScenarios() });
});
afterAll(async () => {
  await site?.close();
});

it('takes include_links, selectors and max_age, and refuses a bad selector with AppError naming its path', async () => {
  const web = createWebSearch({
    env: {},
    config: { store: { path: ':memory:' }, fetch: { allowPrivateAddresses: true }, render: { mode: 'never' } },
  });
  try {
    const links = await web.extract({ urls: [`${site.origin}/controls/links`], include_links: true, max_age: 0 });
    expect(crawlResponseSchema.parse(links)).toEqual(links);
    expect(links.results[0]).toMatchObject({ success: true, from_cache: false, links: expectedLinks(site.origin) });
    const selected = await web.extract({
      urls: [`${site.origin}/controls/sidebar`],
      include_selectors: ['.sidebar > .note'],
    });
    expect(selected.results[0]).toMatchObject({ success: true, content_source: 'selectors' });
    expect(selected.results[0]?.markdown).toContain(SIDEBAR_NOTE);
    const error = await web
      .extract({ urls: [`${site.origin}/controls/sidebar`], exclude_selectors: ['p', 'div[[x'] })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({ code: 'invalid_request', details: [{ path: 'exclude_selectors.1' }] });
  } finally {
    await web.close();
  }
});
