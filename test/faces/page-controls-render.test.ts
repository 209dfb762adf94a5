/**
 * wait_for_selector and screenshot with a real Chromium, over HTTP and MCP, against the
 * fixture site: a page whose text a script writes after 1 s is rendered and waited for; a
 * selector that never matches fails `timeout` naming it; a screenshot is a PNG of the
 * known picture (its size and a few pixels), charged as a render, never cached, and comes
 * back from extract_urls as MCP image content. The selector rule of every field is checked
 * against Chromium's own parser.
 */
import { inflateSync } from 'node:zlib';
import { chromium as playwright } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { parseAllowedOrigins } from '../../src/core/allowed-origins.js';
import { cssSelectorProblem } from '../../src/core/css-selector.js';
import { chromium, describeWithChromium } from '../helpers/chromium.js';
import { startFixtureSite, type FixtureSite } from '../helpers/fixture-site.js';
import { LATE_TEXT, pageControlScenarios } from '../helpers/page-control-scenarios.js';
import { inMemoryMcpClient, startTestApi, type TestApi } from '../helpers/test-server.js';

/** A PNG's size and its pixels as RGBA rows (8-bit RGB or RGBA, not interlaced: what Chromium writes). */
function decodePng(png: Buffer): { width: number; height: number; pixel(x: number, y: number): number[] } {
  expect(png.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
  let at = 8;
  let width = 0;
  let height = 0;
  let channels = 0;
  const data: Buffer[] = [];
  while (at < png.length) {
    const length = png.readUInt32BE(at);
    const type = png.toString('latin1', at + 4, at + 8);
    const body = png.subarray(at + 8, at + 8 + length);
    if (type === 'IHDR') {
      width = body.readUInt32BE(0);
      height = body.readUInt32BE(4);
      expect(body[8]).toBe(8);
      channels = body[9] === 6 ? 4 : body[9] === 2 ? 3 : 0;
      expect(channels).toBeGreaterThan(0);
      expect(body[12]).toBe(0);
    } else if (type === 'IDAT') data.push(body);
    at += 12 + length;
  }
  const raw = inflateSync(Buffer.concat(data));
  const stride = width * channels;
  const rows = Buffer.alloc(height * stride);
  // Undo the per-row filters (PNG spec, 9: None, Sub, Up, Average, Paeth).
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)] as number;
    for (let i = 0; i < stride; i++) {
      const x = raw[y * (stride + 1) + 1 + i] as number;
      const a = i >= channels ? (rows[y * stride + i - channels] as number) : 0;
      const b = y > 0 ? (rows[(y - 1) * stride + i] as number) : 0;
      const c = y > 0 && i >= channels ? (rows[(y - 1) * stride + i - channels] as number) : 0;
      const p = a + b - c;
      const paeth =
        Math.abs(p - a) <= Math.abs(p - b) && Math.abs(p - a) <= Math.abs(p - c)
          ? a
          : Math.abs(p - b) <= Math.abs(p - c)
            ? b
            : c;
      const predictor = [0, a, b, (a + b) >> 1, paeth][filter] as number;
      rows[y * stride + i] = (x + predictor) & 0xff;
    }
  }
  return {
    width,
    height,
    pixel: (x, y) => [...rows.subarray(y * stride + x * channels, y * stride + x * channels + 3)],
  };
}

let site: FixtureSite;
beforeAll(async () => {
  site = await startFixtureSite({ scenarios: pageControlScenarios() });
});
afterAll(async () => {
  await site?.close();
});

describeWithChromium('page controls that render', () => {
  let api: TestApi;
  beforeAll(async () => {
    api = await startTestApi({
      render: { mode: 'auto', chromiumPath: chromium.path as string },
      fetch: { allowPrivateAddresses: parseAllowedOrigins(`127.0.0.1:${site.port}`) as never, timeoutMs: 20_000 },
      cache: { ttlMs: 60_000 },
    });
  });
  afterAll(async () => {
    await api?.close();
  });
  const u = (path: string) => `${site.origin}${path}`;

  it('wait_for_selector renders the page and waits for the text a script writes after 1 s', async () => {
    // Without it the page reads as static (it has its text): not rendered, the timetable not there.
    const plain = await api.crawl({ urls: [u('/controls/late')] });
    expect(plain.json.results[0]).toMatchObject({ success: true, rendered: false });
    expect(plain.json.results[0].markdown).not.toContain(LATE_TEXT);

    const { json } = await api.crawl({ urls: [u('/controls/late')], wait_for_selector: '#timetable p' });
    expect(json.results[0]).toMatchObject({ success: true, rendered: true, from_cache: false });
    expect(json.results[0].markdown).toContain(LATE_TEXT);
    expect(json.metadata.credits_used).toBe(1);
  });

  it('every selector field takes what Chromium parses and css-select runs; what Chromium cannot parse is refused', async () => {
    const selectors = [
      '#timetable p',
      'p > b',
      'a + p',
      'p ~ p',
      'p:has(> b)',
      ':scope > p',
      'p:is(.a, .b)',
      'li:nth-child(2n+1)',
      '[title=":text"]',
      'p\\:text',
      "a[href$='.pdf' i]",
      '[class~="x"]',
      'p:has(> a, ~ b)',
      'p:has(+ b)',
      ':nth-child(+3)',
      'li:nth-last-child(-n+2)',
      'p:nth-child(2n+1 of .x)',
      'p:nth-child(2n- 1)',
      'a[href*="x>"]',
      'a[title="a,"]',
      '[data-x="]"]',
      'a[b=-x]',
      'a[b=\\31]',
      '#\\31 a',
      '.--',
      '#-a',
      '.Ä',
      'p:lang(en-US)',
      'a:not(:has(b))',
      'p:not(b c)',
      'a:HOVER',
      'p/**/.a',
      '*|*',
      // A combinator, comma or value with nothing on one side.
      'div >',
      'p +',
      '> p',
      '+ p',
      'a, ~ p',
      'p:has(b >)',
      'p:not(> b)',
      'a,',
      'a, ',
      ',a',
      'a,,b',
      'p:not(p,)',
      'a+>b',
      'p >> b',
      '[a=]',
      '[data-x= ]',
      'a[b^=]',
      'a[b|=]',
      // css-select's own extensions.
      ':contains(x)',
      'p:contains(x)',
      'p:icontains(x)',
      'p:contains()',
      'p:matches(b)',
      'p:has(b, :contains(x))',
      'p:not(:checkbox)',
      'p:nth-child(n of :contains(x))',
      '[a!=b]',
      'option:selected',
      ':checkbox',
      ':file',
      ':password',
      ':radio',
      ':reset',
      ':image',
      ':submit',
      'p:parent',
      ':header',
      ':button',
      ':input',
      ':text',
      // What css-select's parser lets through and Chromium's does not.
      '#1a',
      '.1a',
      '#-1',
      'p..a',
      'a*',
      '[a]*',
      'p/**/b',
      'a[b=1x]',
      'a[b==c]',
      'a[b="c" s]',
      'a[1b]',
      'p:hover()',
      ':root()',
      'p:nth-child(n2)',
      'p:nth-child(2 n)',
      'p:nth-child(1 OF .x)',
      'p:nth-child(2n+1 of > b)',
      'p:lang(en, fr)',
      'p:lang("en")',
      'p:has(b:has(c))',
      'p:has(:not(:has(b)))',
      // What css-select cannot run (refused although Chromium parses them).
      '::before',
      ':focus-visible',
      'p:dir(ltr)',
      '*|a',
      'p:nth-child(1 of.x)',
      'p /*c*/ > b',
      // Chromium drops what it cannot read inside a forgiving :is() or :where() (Selectors 4,
      // 4.3); css-select would match it there: refused, so that a selector means one thing.
      'p:is(:contains(x))',
      'p:where(> b)',
      'p:is()',
      'p:has(:is(:has(b)))',
    ];
    const cssSelectCannotRun = new Set([
      '::before',
      ':focus-visible',
      'p:dir(ltr)',
      '*|a',
      'p:nth-child(1 of.x)',
      'p /*c*/ > b',
    ]);
    const forgiving = new Set(['p:is(:contains(x))', 'p:where(> b)', 'p:is()', 'p:has(:is(:has(b)))']);
    const browser = await playwright.launch({ executablePath: chromium.path as string });
    try {
      const page = await browser.newPage();
      for (const selector of selectors) {
        // A string: the test code has no DOM types; the page evaluates it.
        const parses = await page.evaluate(
          `(() => { try { document.querySelector(${JSON.stringify(selector)}); return true; } catch { return false; } })()`,
        );
        const problem = cssSelectorProblem(selector);
        if (cssSelectCannotRun.has(selector) || forgiving.has(selector)) {
          expect(parses, selector).toBe(true);
          expect(problem, selector).toMatch(
            cssSelectCannotRun.has(selector) ? /^css-select, .*cannot run/ : /^not standard CSS/,
          );
        } else expect(problem === null, `${selector}: ${problem}`).toBe(parses);
      }
    } finally {
      await browser.close();
    }
  });

  it('a selector that never matches fails timeout, naming it', async () => {
    const { json } = await api.crawl({
      urls: [u('/controls/late')],
      wait_for_selector: '#never-there',
      timeout_ms: 4000,
    });
    expect(json.results[0]).toMatchObject({ success: false, error_type: 'timeout' });
    expect(json.results[0].error).toContain('#never-there');
    expect(json.metadata.credits_used).toBe(0);
  });

  it('screenshot: a PNG of the whole page, its pixels where the page put them; charged as a render, never cached', async () => {
    const times: number[] = [];
    let shot = '';
    for (let i = 0; i < 2; i++) {
      const started = performance.now();
      const { json } = await api.crawl({ urls: [u('/controls/screenshot')], screenshot: true });
      times.push(performance.now() - started);
      expect(json.results[0]).toMatchObject({ success: true, rendered: true, from_cache: false });
      expect(json.metadata.credits_used).toBe(1);
      shot = json.results[0].screenshot;
    }
    console.log(
      `screenshot of /controls/screenshot: cold ${Math.round(times[0]!)} ms, warm ${Math.round(times[1]!)} ms`,
    );
    const png = decodePng(Buffer.from(shot, 'base64'));
    expect(png.width).toBe(1280);
    expect(png.height).toBe(1500);
    expect(png.pixel(50, 50)).toEqual([255, 0, 0]);
    expect(png.pixel(600, 50)).toEqual([255, 255, 255]);
    expect(png.pixel(50, 1250)).toEqual([0, 0, 255]);
    expect(png.pixel(1270, 1250)).toEqual([0, 0, 255]);
    expect(png.pixel(50, 1450)).toEqual([255, 255, 255]);
  });

  it('extract_urls returns the screenshot as MCP image content beside the text', async () => {
    const mcp = await inMemoryMcpClient(api.core);
    try {
      const result = await mcp.client.callTool({
        name: 'extract_urls',
        arguments: { urls: [u('/controls/screenshot')], screenshot: true },
      });
      const content = result.content as { type: string; text?: string; data?: string; mimeType?: string }[];
      expect(content.map((c) => c.type)).toEqual(['text', 'image']);
      expect(content[0]?.text).toContain('screenshot attached as an image');
      expect(content[0]?.text).not.toContain('iVBORw0KGgo');
      expect(content[1]?.mimeType).toBe('image/png');
      const structured = result.structuredContent as { results: { screenshot: string }[] };
      expect(content[1]?.data).toBe(structured.results[0]?.screenshot);
      expect(decodePng(Buffer.from(content[1]?.data ?? '', 'base64')).width).toBe(1280);
    } finally {
      await mcp.close();
    }
  });
});
