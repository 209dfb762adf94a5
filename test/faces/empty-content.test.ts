/**
 * No empty success: a page with no readable text (an empty body, or a shell whose text a
 * script would write) fails as `empty_content`, uncharged and uncached, in Markdown and in
 * HTML format, over the API; search content reports the same reason.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasReadableText } from '../../src/extract/index.js';
import type { Scenario } from '../helpers/fixture-site.js';
import { startFixtureSite } from '../helpers/fixture-site.js';
import type { TestApi } from '../helpers/test-server.js';
import { startTestApi } from '../helpers/test-server.js';

const SHELL = `<!doctype html><html><head><title></title><style>body{font:16px sans-serif}</style></head>
<body><div id="root"></div><!-- app mounts here --><script>document.getElementById('root').textContent = 'Rendered by script';</script></body></html>`;
const scenarios: Scenario[] = [
  {
    path: '/shell',
    description: 'a single-page-app shell: no text until a script runs',
    handle: ({ res }) => void res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(SHELL),
  },
  {
    path: '/blank-text',
    description: 'text/plain of white space',
    handle: ({ res }) => void res.writeHead(200, { 'content-type': 'text/plain' }).end(' \n\t\n'),
  },
];

type Site = Awaited<ReturnType<typeof startFixtureSite>>;
let site: Site;
let api: TestApi;
beforeAll(async () => {
  site = await startFixtureSite({ scenarios });
  api = await startTestApi({ cache: { ttlMs: 60_000 } });
});
afterAll(async () => {
  await api?.close();
  await site?.close();
});

describe('empty_content', () => {
  it.each(['/empty', '/shell', '/blank-text'])(
    '%s fails as empty_content, charged nothing and not cached',
    async (path) => {
      for (const format of ['markdown', 'html']) {
        for (let attempt = 0; attempt < 2; attempt++) {
          const { status, json } = await api.crawl({ urls: [`${site.origin}${path}`], format });
          expect(status).toBe(200);
          expect(json.results[0], `${path} ${format}`).toMatchObject({
            success: false,
            error_type: 'empty_content',
            status_code: 200,
          });
          expect(json.results[0].error).toMatch(/no readable text/);
          expect(json.metadata).toMatchObject({ credits_used: 0, cached_free: 0, failed_crawls: 1 });
        }
      }
    },
  );

  it('leaves a page with text alone, in both formats', async () => {
    const { json } = await api.crawl({ urls: [`${site.origin}/text`, `${site.origin}/html`], format: 'html' });
    expect(json.results.map((r: { success: boolean }) => r.success)).toEqual([true, true]);
  });
});

describe('hasReadableText', () => {
  it('looks for a letter or a digit in what a reader would see', () => {
    expect(hasReadableText({ markdown: '' })).toBe(false);
    expect(hasReadableText({ markdown: '---\n\n* * *\n' })).toBe(false);
    expect(hasReadableText({ markdown: '42' })).toBe(true);
    expect(hasReadableText({ markdown: 'Ünïcödé' })).toBe(true);
    expect(hasReadableText({ markdown: '', html: SHELL })).toBe(false);
    expect(hasReadableText({ markdown: '', html: '<p>Hello</p><script>x</script>' })).toBe(true);
    expect(hasReadableText({ markdown: '', html: '<template><p>later</p></template><style>p{}</style>' })).toBe(false);
    expect(hasReadableText({ markdown: '', html: '<noscript>Enable JavaScript</noscript>' })).toBe(true);
  });
});

describe('hasReadableText on hostile markup', () => {
  it('reads in linear time', () => {
    const shapes = [
      '<script>'.repeat(200_000),
      '<!--'.repeat(200_000),
      '<'.repeat(1_000_000),
      '<p>'.repeat(300_000),
      `${'<style>x</style>'.repeat(100_000)}`,
    ];
    for (const html of shapes) {
      const started = performance.now();
      expect(hasReadableText({ markdown: '', html })).toBe(false);
      expect(performance.now() - started).toBeLessThan(2_000);
    }
    expect(hasReadableText({ markdown: '', html: `${'<p>'.repeat(300_000)}word` })).toBe(true);
  });
});
