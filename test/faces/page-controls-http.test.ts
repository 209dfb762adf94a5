/**
 * The page controls over POST /api/crawl (and extract_urls), end to end against the fixture
 * site: include_links, include/exclude_selectors (and their 400s naming the path),
 * max_age with from_cache / cached_at and the charges that follow, options in the cache
 * key, and wait_for_selector / screenshot without a browser (render_unavailable, nothing
 * fetched, nothing charged).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ExtractedPage } from '../../src/services/pages/extracted-page.js';
import { pageCacheKey } from '../../src/services/pages/page-request.js';
import { startFixtureSite, type FixtureSite } from '../helpers/fixture-site.js';
import {
  SIDEBAR_ARTICLE,
  SIDEBAR_NOTE,
  expectedLinks,
  pageControlScenarios,
  visitText,
} from '../helpers/page-control-scenarios.js';
import { inMemoryMcpClient, startTestApi, type TestApi } from '../helpers/test-server.js';

let site: FixtureSite;
let api: TestApi;
beforeAll(async () => {
  site = await startFixtureSite({ scenarios: pageControlScenarios() });
  api = await startTestApi({ cache: { ttlMs: 60_000 } });
});
afterAll(async () => {
  await api?.close();
  await site?.close();
});

const u = (path: string) => `${site.origin}${path}`;
const paths = (json: { error: { details: { path: string }[] } }) => json.error.details.map((d) => d.path);

describe('include_links', () => {
  it('returns the links of the page, and the cache keeps a copy without them apart', async () => {
    const plain = await api.crawl({ urls: [u('/controls/links')] });
    expect(plain.json.results[0]).not.toHaveProperty('links');
    const first = await api.crawl({ urls: [u('/controls/links')], include_links: true });
    expect(first.status).toBe(200);
    // Not the copy cached without links: fetched again and charged.
    expect(first.json.results[0]).toMatchObject({ success: true, from_cache: false, links_truncated: false });
    expect(first.json.results[0].links).toEqual(expectedLinks(site.origin));
    expect(first.json.metadata.credits_used).toBe(1);
    const again = await api.crawl({ urls: [u('/controls/links')], include_links: true });
    expect(again.json.results[0]).toMatchObject({ from_cache: true, links: expectedLinks(site.origin) });
    expect(again.json.metadata.credits_used).toBe(0);
  });

  it('extract_urls returns them in the structured result and lists them in the text', async () => {
    const mcp = await inMemoryMcpClient(api.core);
    try {
      const result = await mcp.client.callTool({
        name: 'extract_urls',
        arguments: { urls: [u('/controls/links')], include_links: true },
      });
      const structured = result.structuredContent as { results: { links: unknown[] }[] };
      expect(structured.results[0]?.links).toEqual(expectedLinks(site.origin));
      const text = (result.content as { type: string; text: string }[])[0]?.text ?? '';
      expect(text).toContain('<page_links count="8">');
      expect(text).toContain(`- (in content) [berth prices](${site.origin}/controls/berths)`);
      expect(text).toContain(`- [Imprint](${site.origin}/controls/imprint)`);
    } finally {
      await mcp.close();
    }
  });
});

describe('include_selectors / exclude_selectors', () => {
  it('the selected sidebar is the content, and the result says so', async () => {
    const { json } = await api.crawl({ urls: [u('/controls/sidebar')], include_selectors: ['aside .note'] });
    expect(json.results[0]).toMatchObject({ success: true, content_source: 'selectors' });
    expect(json.results[0].markdown).toContain(SIDEBAR_NOTE);
    expect(json.results[0].markdown).not.toContain(SIDEBAR_ARTICLE);
  });

  it('a selection that matches nothing fails this URL with empty_content naming the selectors, uncharged', async () => {
    const { json } = await api.crawl({
      urls: [u('/controls/sidebar'), u('/controls/links')],
      include_selectors: ['#nowhere', '.gone'],
    });
    expect(json.results[0]).toMatchObject({ success: false, error_type: 'empty_content' });
    expect(json.results[0].error).toContain('"#nowhere", ".gone"');
    // The other URL matched nothing either: each fails on its own, and nothing is charged.
    expect(json.metadata.credits_used).toBe(0);
  });

  it('exclusions that remove the whole page fail empty_content naming them, uncharged', async () => {
    const { json } = await api.crawl({ urls: [u('/controls/sidebar')], exclude_selectors: ['html'] });
    expect(json.results[0]).toMatchObject({ success: false, error_type: 'empty_content' });
    expect(json.results[0].error).toContain('exclude_selectors "html"');
    expect(json.metadata.credits_used).toBe(0);
  });

  it('a selector that does not parse is a 400 naming its path', async () => {
    const bad = await api.crawl({ urls: [u('/controls/sidebar')], include_selectors: ['article', 'a[href'] });
    expect(bad.status).toBe(400);
    expect(paths(bad.json)).toEqual(['include_selectors.1']);
    expect(bad.json.error.details[0].message).toBe('not standard CSS: "[href" is never closed');
    const pseudo = await api.crawl({ urls: [u('/controls/sidebar')], exclude_selectors: [':unknown-thing'] });
    expect(paths(pseudo.json)).toEqual(['exclude_selectors.0']);
    const wait = await api.crawl({ urls: [u('/controls/sidebar')], wait_for_selector: '::before' });
    expect(paths(wait.json)).toEqual(['wait_for_selector']);
    const empty = await api.crawl({ urls: [u('/controls/sidebar')], include_selectors: ['  '] });
    expect(paths(empty.json)).toEqual(['include_selectors.0']);
  });

  it('one rule on every field: a selector Chromium cannot parse is a 400 naming the path and the part; nothing fetched', async () => {
    const cases: [string, RegExp][] = [
      ['div >', /the combinator ">" has no selector after it/],
      ['> p', /">" has no selector before it/],
      ['a,', /the comma has no selector after it/],
      ['[a=]', /the attribute value after "=" is empty: quote it/],
      [':contains(x)', /:contains\(\) is an extension of css-select that browsers refuse/],
      ['p:contains(harbour)', /:contains\(\) is an extension of css-select/],
      ['[a!=b]', /!= is an extension of css-select/],
      ['#1a', /"#1a": a CSS identifier must follow "#"/],
    ];
    const before = site.hits('/controls/sidebar');
    for (const [selector, message] of cases) {
      const { status, json } = await api.crawl({
        urls: [u('/controls/sidebar')],
        include_selectors: ['article', selector],
        exclude_selectors: [selector],
        wait_for_selector: selector,
      });
      expect(status, selector).toBe(400);
      expect(paths(json), selector).toEqual(['include_selectors.1', 'exclude_selectors.0', 'wait_for_selector']);
      for (const detail of json.error.details) expect(detail.message, selector).toMatch(/^not standard CSS: /);
      for (const detail of json.error.details) expect(detail.message, selector).toMatch(message);
    }
    expect(site.hits('/controls/sidebar')).toBe(before);
  });

  it('a standard selector css-select cannot run is a 400 that says the server matches with css-select', async () => {
    const { status, json } = await api.crawl({
      urls: [u('/controls/sidebar')],
      include_selectors: [':focus-visible'],
      exclude_selectors: ['p::first-line'],
    });
    expect(status).toBe(400);
    expect(paths(json)).toEqual(['include_selectors.0', 'exclude_selectors.0']);
    expect(json.error.details[0].message).toBe(
      'css-select, which matches the selectors on the server, cannot run it: Unknown pseudo-class :focus-visible',
    );
    expect(json.error.details[1].message).toMatch(/^css-select, .* cannot run it: Pseudo-elements/);
  });

  it('too many or too long selectors, selectors with format html and a negative max_age are 400s', async () => {
    const many = await api.crawl({
      urls: [u('/x')],
      include_selectors: Array.from({ length: 21 }, (_, i) => `.c${i}`),
    });
    expect(many.status).toBe(400);
    expect(paths(many.json)).toEqual(['include_selectors']);
    const long = await api.crawl({ urls: [u('/x')], exclude_selectors: [`.${'a'.repeat(600)}`] });
    expect(paths(long.json)).toEqual(['exclude_selectors.0']);
    const html = await api.crawl({ urls: [u('/x')], format: 'html', include_selectors: ['article'] });
    expect(html.status).toBe(400);
    expect(paths(html.json)).toEqual(['include_selectors']);
    const age = await api.crawl({ urls: [u('/x')], max_age: -1 });
    expect(paths(age.json)).toEqual(['max_age']);
    expect(site.hits('/x')).toBe(0);
  });
});

describe('max_age, from_cache and cached_at', () => {
  it('serves the cached copy for free until it is older than max_age; 0 always fetches', async () => {
    const url = u('/controls/visits');
    const first = await api.crawl({ urls: [url] });
    const r1 = first.json.results[0];
    expect(r1.markdown).toContain(visitText(1).slice(0, 40));
    expect(r1).toMatchObject({ success: true, from_cache: false });
    expect(Math.abs(Date.parse(r1.cached_at) - Date.now())).toBeLessThan(10_000);
    expect(first.json.metadata.credits_used).toBe(1);

    const cached = await api.crawl({ urls: [url], max_age: 3600 });
    expect(cached.json.results[0]).toMatchObject({ from_cache: true, cached_at: r1.cached_at });
    expect(cached.json.results[0].markdown).toBe(r1.markdown);
    expect(cached.json.metadata).toMatchObject({ credits_used: 0, cached_free: 1 });

    const fresh = await api.crawl({ urls: [url], max_age: 0 });
    expect(fresh.json.results[0]).toMatchObject({ from_cache: false });
    expect(fresh.json.results[0].markdown).toContain('visit number 2');
    expect(Date.parse(fresh.json.results[0].cached_at)).toBeGreaterThanOrEqual(Date.parse(r1.cached_at));
    expect(fresh.json.metadata).toMatchObject({ credits_used: 1, cached_free: 0 });

    // The fresh copy replaced the old one in the cache.
    const after = await api.crawl({ urls: [url] });
    expect(after.json.results[0]).toMatchObject({ from_cache: true, cached_at: fresh.json.results[0].cached_at });
    expect(after.json.results[0].markdown).toContain('visit number 2');

    await new Promise((resolve) => setTimeout(resolve, 1100));
    const stale = await api.crawl({ urls: [url], max_age: 1 });
    expect(stale.json.results[0]).toMatchObject({ from_cache: false });
    expect(stale.json.results[0].markdown).toContain('visit number 3');
    expect(site.hits('/controls/visits')).toBe(3);
  });

  it('a stealth request does not take the copy a plain one cached, nor the other way round', async () => {
    const url = u('/controls/visits-stealth');
    const plain = await api.crawl({ urls: [url] });
    expect(plain.json.results[0]).toMatchObject({ success: true, from_cache: false });
    const stealth = await api.crawl({ urls: [url], stealth: true });
    expect(stealth.json.results[0]).toMatchObject({ success: true, from_cache: false });
    expect(stealth.json.results[0].markdown).toContain('visit number 2');
    expect((await api.crawl({ urls: [url], stealth: true })).json.results[0]).toMatchObject({ from_cache: true });
    const again = await api.crawl({ urls: [url] });
    expect(again.json.results[0]).toMatchObject({ from_cache: true });
    expect(again.json.results[0].markdown).toContain('visit number 1');
    expect(site.hits('/controls/visits-stealth')).toBe(2);
  });

  it('an entry cached before cached_at was kept: served as it is, but too old for any max_age', async () => {
    const url = u('/controls/old-entry');
    const old: ExtractedPage = {
      statusCode: 200,
      finalUrl: url,
      rendered: false,
      output: { markdown: 'An entry from an older version of the server.', content_type: 'text/html' },
    };
    const key = pageCacheKey('markdown', new URL(url).href, { format: 'markdown' });
    await api.core.store.cache<ExtractedPage>('page').set(key, old, 60_000);
    const served = await api.crawl({ urls: [url] });
    expect(served.json.results[0]).toMatchObject({ success: true, from_cache: true, markdown: old.output.markdown });
    expect(served.json.results[0]).not.toHaveProperty('cached_at');
    const refetched = await api.crawl({ urls: [url], max_age: 86_400 });
    // The fixture has no such page: fetched again, it is a 404 — not the old copy.
    expect(refetched.json.results[0]).toMatchObject({ success: false, error_type: 'http', status_code: 404 });
  });
});

describe('wait_for_selector and screenshot without a browser', () => {
  it('WEBSEARCH_RENDER=never: render_unavailable saying how to turn it on; nothing fetched or charged', async () => {
    const before = site.hits('/controls/late');
    for (const extra of [{ wait_for_selector: '#timetable' }, { screenshot: true }]) {
      const { status, json } = await api.crawl({ urls: [u('/controls/late')], ...extra });
      expect(status).toBe(200);
      expect(json.results[0]).toMatchObject({ success: false, error_type: 'render_unavailable', status_code: 0 });
      expect(json.results[0].error).toContain(Object.keys(extra)[0]);
      expect(json.results[0].error).toContain('WEBSEARCH_RENDER=never; set it to auto');
      expect(json.metadata.credits_used).toBe(0);
    }
    expect(site.hits('/controls/late')).toBe(before);
  });

  it('no browser installed: render_unavailable saying to install one', async () => {
    const bare = await startTestApi({ render: { mode: 'auto' }, cache: { ttlMs: 0 } }, { fileExists: () => false });
    try {
      const { json } = await bare.crawl({
        urls: [u('/controls/late')],
        wait_for_selector: '#timetable',
        screenshot: true,
      });
      expect(json.results[0]).toMatchObject({ success: false, error_type: 'render_unavailable' });
      expect(json.results[0].error).toContain('wait_for_selector and screenshot need the headless browser');
      expect(json.results[0].error).toContain('install Chromium');
    } finally {
      await bare.close();
    }
  });
});
