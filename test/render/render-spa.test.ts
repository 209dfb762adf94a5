/**
 * Rendering with a real Chromium, local and remote, over both faces: a static page in `auto`
 * never starts (or connects to) the browser; a single-page app's text (written by its
 * scripts) comes back in Markdown and in HTML with `rendered: true`, charged 1 credit; a
 * cache hit returns the same result for free; without a browser the same app is an
 * uncharged `empty_content`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { extractResponseSchema } from '../../src/core/schemas.js';
import { PAGE_TYPES } from '../../src/core/page-types.js';
import { describeOnBrowsers, type BrowserTarget, renderingApi } from '../helpers/browser-targets.js';
import { browserProcesses } from '../helpers/chromium.js';
import { startFixtureSite, type FixtureSite } from '../helpers/fixture-site.js';
import { renderScenarios, SPA_TEXT } from '../helpers/render-scenarios.js';
import { inMemoryMcpClient, startTestApi, type TestApi } from '../helpers/test-server.js';

let site: FixtureSite;
beforeAll(async () => {
  site = await startFixtureSite({ scenarios: renderScenarios(() => 1) });
});
afterAll(async () => {
  await site?.close();
});

/** The API rendering on `target`, the fixture origin (and only it) allowed. */
function renderApi(target: BrowserTarget, cacheTtlMs = 0): Promise<TestApi> {
  return renderingApi(target.render(), `127.0.0.1:${site.port}`, { timeoutMs: 20_000, cacheTtlMs });
}

/** Whether `api` has its browser up: a local one running, a remote one connected (and nothing launched here). */
async function browserUp(api: TestApi, target: BrowserTarget): Promise<boolean> {
  const launched = browserProcesses().filter((p) => p.main).length;
  if (!target.remote) return launched === 1;
  const status = await api.core.browserStatus?.(2_000);
  return launched === 0 && status?.kind === 'remote' && status.connected;
}

describeOnBrowsers(['local', 'cdp'], 'rendering a single-page app', (target) => {
  let api: TestApi;
  afterAll(async () => {
    await api?.close();
  });

  it('a static page in auto mode is not rendered and starts no browser', async () => {
    api = await renderApi(target);
    const { json } = await api.crawl({ urls: [`${site.origin}/html`] });
    expect(json.results[0]).toMatchObject({ success: true, rendered: false });
    expect(json.metadata.credits_used).toBe(1);
    expect(browserProcesses()).toEqual([]);
    expect(await browserUp(api, target)).toBe(false);
  });

  it('renders the app for Markdown (auto) and for HTML, rendered: true, 1 credit each', async () => {
    const served = site.hits('/spa');
    const { json } = await api.crawl({ urls: [`${site.origin}/spa`] });
    expect(json.results[0]).toMatchObject({ success: true, rendered: true, status_code: 200, title: 'Tide app' });
    expect(json.results[0].markdown).toContain(SPA_TEXT);
    expect(json.results[0].markdown).toMatch(/^# Harbour timetable/m);
    // The rendered HTML goes through the same conversion: it has a page type too.
    expect(PAGE_TYPES).toContain(json.results[0].page_type);
    expect(json.metadata.credits_used).toBe(1);
    expect(await browserUp(api, target)).toBe(true);

    const html = await api.crawl({ urls: [`${site.origin}/spa`], format: 'html' });
    expect(html.json.results[0]).toMatchObject({ success: true, rendered: true });
    expect(html.json.results[0].html).toContain(SPA_TEXT);
    expect(html.json.results[0].html).toMatch(/<article><h1>Harbour timetable<\/h1>/);
    expect(html.json.results[0]).not.toHaveProperty('page_type');
    expect(html.json.metadata.credits_used).toBe(1);
    // The main document came from the static fetch: the site served it once per call.
    expect(site.hits('/spa') - served).toBe(2);
  });

  it('waits, within the deadline, for text a script writes on a timer after the network went quiet', async () => {
    const { json } = await api.crawl({ urls: [`${site.origin}/late`] });
    expect(json.results[0]).toMatchObject({ success: true, rendered: true });
    expect(json.results[0].markdown).toContain(SPA_TEXT);
  });

  it('reads the page a script moved to while its text was awaited', async () => {
    const { json } = await api.crawl({ urls: [`${site.origin}/hop`] });
    expect(json.results[0]).toMatchObject({ success: true, rendered: true, title: 'Arrived' });
    expect(json.results[0].markdown).toContain(SPA_TEXT);
  });

  it('renders every HTML page for format html, and the static text too', async () => {
    const { json } = await api.crawl({ urls: [`${site.origin}/html`], format: 'html' });
    expect(json.results[0]).toMatchObject({ success: true, rendered: true });
    expect(json.results[0].html).toContain('Tide Tables and Harbour Lights');
  });

  it('a reused page keeps nothing of the URL before it: no cookie, no storage', async () => {
    for (let visit = 0; visit < 3; visit++) {
      const { json } = await api.crawl({ urls: [`${site.origin}/memory`], format: 'html' });
      expect(json.results[0]).toMatchObject({ success: true, rendered: true });
      expect(json.results[0].html, `visit ${visit}`).toContain('Left by earlier visits: cookie [] storage []');
    }
  });

  it('the extract_urls tool returns the same rendered result', async () => {
    const { client, close } = await inMemoryMcpClient(api.core);
    try {
      const result = await client.callTool({ name: 'extract_urls', arguments: { urls: [`${site.origin}/spa`] } });
      expect(result.isError).toBeFalsy();
      const structured = extractResponseSchema.parse(result.structuredContent);
      expect(structured.results[0]).toMatchObject({ success: true, rendered: true });
      expect(structured.results[0]?.markdown).toContain(SPA_TEXT);
      expect(structured.metadata.credits_used).toBe(1);
      expect((result.content as { text: string }[])[0]?.text).toContain(SPA_TEXT);
    } finally {
      await close();
    }
  });
});

describeOnBrowsers(['local', 'playwright'], 'rendered pages in the cache', (target) => {
  it('a cache hit returns exactly what the fresh call returned, for free', async () => {
    const api = await renderApi(target, 60_000);
    try {
      const fresh = await api.crawl({ urls: [`${site.origin}/spa`] });
      const cached = await api.crawl({ urls: [`${site.origin}/spa`] });
      expect(fresh.json.metadata).toMatchObject({ credits_used: 1, cached_free: 0 });
      expect(cached.json.metadata).toMatchObject({ credits_used: 0, cached_free: 1 });
      // The same page, which says where it came from (from_cache; cached_at is the fresh fetch's time).
      expect(fresh.json.results[0].from_cache).toBe(false);
      expect(cached.json.results[0].from_cache).toBe(true);
      expect(cached.json.results.map((r: object) => ({ ...r, from_cache: false }))).toEqual(fresh.json.results);
      expect(cached.json.results[0].rendered).toBe(true);
    } finally {
      await api.close();
    }
  });
});

describe('without a browser', () => {
  let api: TestApi;
  beforeAll(async () => {
    api = await startTestApi({ render: { mode: 'auto' }, cache: { ttlMs: 60_000 } }, { fileExists: () => false });
  });
  afterAll(async () => {
    await api?.close();
  });

  it('finds no browser to use', () => {
    expect(api.core.config.render.chromiumPath).toBeUndefined();
  });

  it('the app is an honest empty_content, 0 credits; a static page works as before', async () => {
    const { json } = await api.crawl({ urls: [`${site.origin}/spa`, `${site.origin}/html`] });
    expect(json.results[0]).toMatchObject({ success: false, error_type: 'empty_content', status_code: 200 });
    expect(json.results[0].error).toMatch(/no readable text \(empty, or written by scripts this server did not run\)/);
    expect(json.results[1]).toMatchObject({ success: true, rendered: false });
    expect(json.metadata.credits_used).toBe(1);
    // format html: the page as served (its title is text), not rendered.
    const html = await api.crawl({ urls: [`${site.origin}/spa`], format: 'html' });
    expect(html.json.results[0]).toMatchObject({ success: true, rendered: false });
    expect(html.json.results[0].html).not.toContain(SPA_TEXT);
    const fresh = await api.crawl({ urls: [`${site.origin}/spa`], stealth: true });
    expect(fresh.json.metadata).toMatchObject({ credits_used: 0, failed_crawls: 1 });
  });

  it('stealth still sends the browser profile on the static fetch', async () => {
    const before = site.requests().length;
    const { json } = await api.crawl({ urls: [`${site.origin}/text?stealth`], stealth: true });
    expect(json.results[0]).toMatchObject({ success: true, rendered: false });
    expect(json.metadata.credits_used).toBe(5);
    const sent = site
      .requests()
      .slice(before)
      .find((r) => r.path === '/text?stealth');
    expect(sent?.headers['user-agent']).toMatch(
      /^Mozilla\/5\.0 \(X11; Linux x86_64\).* Chrome\/\d+\.0\.0\.0 Safari\/537\.36$/,
    );
    expect(sent?.headers['user-agent']).not.toMatch(/Headless|websearch-mcp/);
    expect(sent?.headers).toMatchObject({
      'sec-ch-ua-mobile': '?0',
      'sec-ch-ua-platform': '"Linux"',
      'accept-language': 'en-US,en;q=0.9',
    });
    expect(sent?.headers['sec-ch-ua']).toMatch(/"Chromium";v="\d+"/);
  });
});
