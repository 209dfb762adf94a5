/**
 * The playground in a real browser (the system Chromium through playwright-core, as the
 * renderer uses it) against the real server, the fixture site and the fake engines:
 * search (engines and positions shown), extract (preview beside the raw Markdown,
 * metadata, rendered, credits), a failed URL, query passages on both forms, 401 without a
 * key, 402 with a spent key, the balance header and /api/usage, the balance of the key in
 * the field (shown at once, never another key's), the copy buttons, a hostile page that must not run,
 * keyboard use, an axe-core check, desktop and phone screenshots checked for overflow and
 * placement, and the first paint from a warm server. Without Chromium it skips (printing
 * why), and under CI=true it fails (test/helpers/chromium.ts).
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium as playwright, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { chromium, describeWithChromium } from '../helpers/chromium.js';
import { startFakeEngines, type FakeEngines } from '../helpers/fake-engines.js';
import { startFixtureSite, type FixtureSite } from '../helpers/fixture-site.js';
import { decodePng } from '../helpers/png.js';
import type { TestApi } from '../helpers/test-server.js';
import { startTestApi } from '../helpers/test-server.js';

const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const SHOTS = mkdtempSync(join(tmpdir(), 'playground-shots-'));

/** Markdown as a hostile page would write it: every way it could try to run or load something. */
const HOSTILE_MD = [
  '# Hostile <script>window.__pwned = 1</script>',
  '',
  '[click me](javascript:window.__pwned=2) and [data](data:text/html,<script>window.__pwned=3</script>)',
  '',
  '<img src=x onerror="window.__pwned=4"> ![pic](https://tracker.invalid/pixel.png)',
  '',
  '<iframe src="https://evil.invalid/"></iframe> <a href="https://fine.example/">fine</a>',
].join('\n');

/** A sectioned article for query passages: the answer sits in a section, in bold, past other text. */
const GUIDE_HTML = `<!doctype html><html lang="en"><head><title>Harbour Guide</title></head><body><article>
<h1>Harbour Guide</h1>
<p>${'The harbour and its long history of trade, fishing and boat building along the coast. '.repeat(8)}</p>
<h2>Getting there</h2>
<p>${'Roads lead down to the quay, and parking is on the hill above the town centre. '.repeat(8)}</p>
<p>The ferry to the lighthouse island leaves from <strong>pier 7</strong> every 40 minutes between April and October.</p>
<h2>Fishing</h2>
<p>${'Boats and nets are mended on the slipway through the winter months. '.repeat(8)}</p>
<p>A fishing permit costs 12 euros a day and is sold at the harbour master's office.</p>
</article></body></html>`;

let site: FixtureSite;
let engines: FakeEngines;
let open: TestApi; // open mode: no key
let keyed: TestApi; // keys exist
let browser: Browser;
let secrets: { rich: string; spent: string };

beforeAll(async () => {
  site = await startFixtureSite({
    scenarios: [
      {
        path: '/guide',
        description: 'a sectioned article for query passages',
        handle: ({ res }) => void res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(GUIDE_HTML),
      },
      {
        path: '/hostile.md',
        description: 'Markdown trying to run script in the preview',
        handle: ({ res }) => {
          res.writeHead(200, { 'content-type': 'text/markdown; charset=utf-8' });
          res.end(HOSTILE_MD);
        },
      },
    ],
  });
  engines = await startFakeEngines();
  const overrides = {
    cache: { ttlMs: 0 },
    engines: engines.engineConfig,
    search: { duckduckgoIntervalMs: 0, cacheTtlMs: 0 },
  };
  open = await startTestApi(overrides);
  keyed = await startTestApi(overrides);
  secrets = {
    rich: (await keyed.core.keys.create({ name: 'rich', credits: 100 })).secret,
    spent: (await keyed.core.keys.create({ name: 'spent', credits: 0 })).secret,
  };
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await Promise.all([open?.close(), keyed?.close(), site?.close(), engines?.close()]);
});

describeWithChromium('the playground in Chromium', () => {
  let context: BrowserContext;
  let violations: string[];

  beforeAll(async () => {
    browser = await playwright.launch({
      executablePath: chromium.path as string,
      headless: true,
      args: ['--no-sandbox'],
    });
  });

  async function newPage(server: TestApi, width = 1280, height = 900): Promise<Page> {
    context = await browser.newContext({ viewport: { width, height } });
    const page = await context.newPage();
    violations = [];
    page.on('console', (m) => {
      if (/Content Security Policy|Refused to/i.test(m.text())) violations.push(m.text());
    });
    page.on('pageerror', (e) => violations.push(`page error: ${e.message}`));
    page.on('dialog', (d) => {
      violations.push(`dialog: ${d.message()}`);
      void d.dismiss();
    });
    await page.goto(`${server.url}/`);
    await page.waitForSelector('html[data-ready="true"]');
    return page;
  }

  async function search(page: Page, q: string, engineIds: string[]): Promise<void> {
    await page.fill('#q', q);
    for (const id of engineIds) await page.check(`#engines input[value="${id}"]`);
    await page.click('#search-form button[type=submit]');
    await page.waitForSelector('#search-summary, #search-out .error');
  }

  async function extract(page: Page, urls: string[]): Promise<void> {
    await page.fill('#urls', urls.join('\n'));
    await page.click('#extract-form button[type=submit]');
    await page.waitForSelector('#extract-summary, #extract-out .error');
  }

  it('paints first without waiting on anything slow, and shows the status line from /healthz', async () => {
    for (let i = 0; i < 3; i++) await (await fetch(`${open.url}/`)).text(); // warm
    for (const name of ['playground.css', 'playground.js', 'markdown-dom.js'])
      await fetch(`${open.url}/playground/${name}`);
    // The best of three loads: other test files share the machine's two cores with Chromium,
    // and one unlucky load says more of them than of the page.
    const firstPaints: number[] = [];
    let page: Page | undefined;
    for (let load = 0; load < 3; load++) {
      if (page) await context.close();
      page = await newPage(open);
      // The page may be ready a frame before its first paint is recorded.
      await page.waitForFunction("performance.getEntriesByType('paint').length > 0");
      // Browser code as strings: the tests compile against node's types, not the DOM's.
      const paints = (await page.evaluate(
        "Object.fromEntries(performance.getEntriesByType('paint').map((e) => [e.name, e.startTime]))",
      )) as Record<string, number>;
      const firstPaint = paints['first-contentful-paint'] ?? paints['first-paint'];
      expect(firstPaint).toBeGreaterThan(0);
      firstPaints.push(firstPaint as number);
    }
    console.log(`playground first paint of three loads: ${firstPaints.map((ms) => ms.toFixed(0)).join(', ')} ms`);
    // The 300 ms target is measured alone (BENCHMARKS.md, "The playground": 108-196 ms); beside
    // the whole suite a load took 324 ms. A paint that waited on a request (the /healthz
    // status, a font) would take seconds, which this bound still catches.
    expect(Math.min(...firstPaints)).toBeLessThan(1_500);
    await expect.poll(() => page!.textContent('#status')).toMatch(/server ok · store sqlite/);
    expect(violations).toEqual([]);
    await context.close();
  });

  it('searches, showing each result with its engines and position', async () => {
    const page = await newPage(open);
    await search(page, 'harbour tides', ['wikipedia', 'mojeek']);
    expect(await page.textContent('#search-summary')).toMatch(/result\(s\) · status (success|partial)/);
    const items = page.locator('#search-out li.search-result');
    expect(await items.count()).toBeGreaterThan(1);
    expect(await items.first().locator('.engines').textContent()).toMatch(/^position 1 · engines: (wikipedia|mojeek)/);
    expect(await page.textContent('#search-out')).not.toContain('undefined');
    const engineLists = await page.locator('#search-out .engines').allTextContents();
    expect(engineLists.join('\n')).toMatch(/wikipedia/);
    expect(engineLists.join('\n')).toMatch(/mojeek/);
    expect(violations).toEqual([]);
    await context.close();
  });

  it('offers only the engines this server has configured', async () => {
    const { braveApiKey: _brave, googleApiKey: _google, ...keyless } = engines.engineConfig;
    const server = await startTestApi({ cache: { ttlMs: 0 }, engines: keyless });
    try {
      const page = await newPage(server);
      const offered = (await page.evaluate(
        `[...document.querySelectorAll('#engines input')].map((i) => i.value)`,
      )) as string[];
      expect(offered.length).toBeGreaterThan(0);
      expect(offered).toContain('wikipedia');
      expect(offered).not.toContain('brave');
      expect(offered).not.toContain('google');
      expect(violations).toEqual([]);
    } finally {
      await server.close();
    }
  });

  it('extracts URLs: preview beside the raw Markdown, metadata, rendered, credits; a failed URL with its error', async () => {
    const page = await newPage(open);
    await extract(page, [`${site.origin}/markdown`, `${site.origin}/status/500`, `${site.origin}/html`]);
    expect(await page.textContent('#extract-summary')).toMatch(/^2 of 3 extracted · 1 failed · 2 credit\(s\)/);
    const [ok, failed] = [page.locator('article.result').nth(0), page.locator('article.result').nth(1)];
    expect(await ok.locator('.pane-title').allTextContents()).toEqual(['Preview', 'Raw Markdown']);
    expect(await ok.locator('.preview').textContent()).toMatch(/Visiting boats tie up on the north pontoon/);
    expect(await ok.locator('.preview strong').first().textContent()).toBe('north pontoon');
    expect(await ok.locator('pre.raw').textContent()).toMatch(/\*\*north pontoon\*\*/);
    const facts = await ok.locator('dl.facts').textContent();
    expect(facts).toMatch(/outcome\s*success/);
    expect(facts).toMatch(/rendered\s*no \(static response\)/);
    expect(facts).toMatch(/content type\s*text\/markdown/);
    expect(await failed.locator('.url-error').textContent()).toMatch(/^http: /);
    expect(await failed.locator('dl.facts').textContent()).toMatch(/status\s*500/);
    expect(violations).toEqual([]);
    await context.close();
  });

  it('previews a hostile page without running or loading anything from it', async () => {
    const page = await newPage(open);
    const foreign: string[] = [];
    page.on('request', (r) => {
      if (!r.url().startsWith(open.url)) foreign.push(r.url());
    });
    await extract(page, [`${site.origin}/hostile.md`]);
    const preview = page.locator('article.result .preview');
    expect(await preview.textContent()).toMatch(/click me/);
    expect(await preview.locator('script, img, iframe, object, embed').count()).toBe(0);
    const hrefs = await preview.locator('a').evaluateAll((as) => as.map((a) => a.getAttribute('href')));
    // The image is a link to it; raw HTML stays text, even a harmless link.
    expect(hrefs).toEqual(['https://tracker.invalid/pixel.png']);
    expect(await preview.textContent()).toContain('<a href="https://fine.example/">fine</a>');
    expect(await page.evaluate('window.__pwned')).toBeUndefined();
    expect(foreign).toEqual([]);
    expect(violations).toEqual([]);
    await context.close();
  });

  /** axe-core's serious and critical findings on the page as it is now. */
  async function seriousAxeViolations(page: Page): Promise<{ id: string; impact: string; nodes: number }[]> {
    await page.evaluate(AXE);
    const found = (await page.evaluate(
      "axe.run(document, { resultTypes: ['violations'] }).then((r) => r.violations.map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.length })))",
    )) as { id: string; impact: string; nodes: number }[];
    return found.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  }

  /** A passage's line as the playground labels it: number, section path, offsets (of the page's length when known). */
  const passageHead = (p: any, i: number, count: number, total?: number) =>
    `Passage ${i + 1} of ${count} · section: ${p.heading_path.length ? p.heading_path.join(' › ') : '(top of the page)'} · characters ${p.start_char}–${p.end_char}${total === undefined ? '' : ` of ${total}`}`;

  it('extracts with a query: each passage with its section path, text and offsets, in Preview and Raw (on a phone)', async () => {
    const page = await newPage(open, 390, 844);
    const sent: unknown[] = [];
    page.on('request', (r) => {
      if (r.url().endsWith('/api/crawl')) sent.push(r.postDataJSON());
    });
    const guide = `${site.origin}/guide`;
    await page.fill('#urls', guide);
    expect(await page.isDisabled('#max-passages')).toBe(true); // it needs a query
    await page.fill('#query', 'When does the ferry leave, and what does a fishing permit cost?');
    await page.fill('#max-passages', '3');
    expect(await page.getAttribute('#max-passages', 'max')).toBe('10'); // the schema's maximum
    await page.click('#extract-form button[type=submit]');
    await page.waitForSelector('#extract-summary, #extract-out .error');
    expect(sent).toEqual([
      { urls: [guide], query: 'When does the ferry leave, and what does a fishing permit cost?', max_passages: 3 },
    ]);
    // The same request from a program: what the page must show.
    const expected = (await open.crawl(sent[0])).json.results[0];
    const passages = expected.passages as any[];
    // Both answers, in page order, each under its own section.
    expect(passages.map((p) => p.heading_path.join(' › '))).toEqual(
      expect.arrayContaining(['Getting there', 'Fishing']),
    );
    expect(passages.map((p) => p.start_char)).toEqual(passages.map((p) => p.start_char).sort((a, b) => a - b));
    const heads = passages.map((p, i) => passageHead(p, i, passages.length, expected.total_chars));

    const article = page.locator('article.result');
    expect(await article.locator('.pane-title').allTextContents()).toEqual(['Preview of the passages', 'Raw passages']);
    const [preview, raw] = [article.locator('.pane.preview'), article.locator('.pane:not(.preview)')];
    expect(await preview.locator('.passage-head').allTextContents()).toEqual(heads);
    expect(await raw.locator('.passage-head').allTextContents()).toEqual(heads);
    expect(await raw.locator('pre.raw').allTextContents()).toEqual(passages.map((p) => p.text));
    // The preview renders the Markdown (bold as bold, no marks left), under its section.
    const ferry = preview.locator('li.passage', { hasText: 'every 40 minutes' });
    expect(await ferry.locator('.passage-section').textContent()).toBe('section: Getting there');
    expect(await ferry.locator('strong', { hasText: 'pier 7' }).count()).toBe(1);
    expect(await ferry.locator('.passage-text').textContent()).not.toContain('**');
    const permit = preview.locator('li.passage', { hasText: '12 euros a day' });
    expect(await permit.locator('.passage-section').textContent()).toBe('section: Fishing');
    expect(await raw.locator('pre.raw', { hasText: 'every 40 minutes' }).textContent()).toContain('**pier 7**');
    expect(await article.locator('dl.facts').textContent()).toMatch(
      new RegExp(`characters\\s*${expected.total_chars}\\s*passages\\s*${passages.length}`),
    );
    expect(await page.textContent('#extract-out')).not.toContain('undefined');
    expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(390);
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      expect(await seriousAxeViolations(page), scheme).toEqual([]);
    }
    expect(violations).toEqual([]);
    await context.close();
  });

  it('searches in passages mode, showing the passages of each result with their sections and offsets', async () => {
    const guide = `${site.origin}/guide`;
    engines.setScenario('searxng', {
      body: {
        query: 'ferry',
        results: [1, 2].map((n) => ({
          url: `${guide}?n=${n}`,
          title: `Guide ${n}`,
          content: `Snippet ${n}`,
          engine: 'x',
          template: 'default.html',
        })),
        answers: [],
        suggestions: [],
        infoboxes: [],
        corrections: [],
        unresponsive_engines: [],
      },
    });
    try {
      const page = await newPage(open);
      const sent: unknown[] = [];
      page.on('request', (r) => {
        if (r.url().endsWith('/api/search')) sent.push(r.postDataJSON());
      });
      // Passages are a way of including content: the options wait for the box.
      expect(await page.isDisabled('#content-mode')).toBe(true);
      await page.check('#include-content');
      expect(await page.isDisabled('#search-max-passages')).toBe(true);
      await page.selectOption('#content-mode', 'passages');
      await page.fill('#search-max-passages', '1');
      await search(page, 'lighthouse ferry pier', ['searxng']);
      const body = { q: 'lighthouse ferry pier', engines: ['searxng'], include_content: true };
      expect(sent).toEqual([{ ...body, content_mode: 'passages', max_passages: 1 }]);
      const expected = (await (await open.post('/api/search', sent[0])).json()) as any;

      const items = page.locator('#search-out li.search-result');
      expect(await items.count()).toBe(2);
      for (const [i, result] of (expected.results as any[]).entries()) {
        const item = items.nth(i);
        const passages = result.passages as any[];
        expect(passages).toHaveLength(1);
        expect(await item.locator('summary').textContent()).toBe('Passages (1)');
        const heads = passages.map((p, n) => passageHead(p, n, passages.length));
        expect(heads[0]).toMatch(/^Passage 1 of 1 · section: Getting there · characters \d+–\d+$/);
        expect(await item.locator('.pane.preview .passage-head').allTextContents()).toEqual(heads);
        expect(await item.locator('.pane:not(.preview) .passage-head').allTextContents()).toEqual(heads);
        expect(await item.locator('.pane.preview strong', { hasText: 'pier 7' }).count()).toBe(1);
        expect(await item.locator('.pane:not(.preview) pre.raw').allTextContents()).toEqual([passages[0].text]);
      }
      expect(violations).toEqual([]);
      await context.close();
    } finally {
      engines.setScenario('searxng', 'results');
    }
  });

  it('answers 401 without a key and 402 with a spent one; keeps the key, shows the credits and the usage', async () => {
    const page = await newPage(keyed);
    await search(page, 'harbour tides', ['wikipedia']);
    expect(await page.textContent('#search-out .error')).toMatch(/^401 unauthorized: .*Enter a valid API key/s);

    await page.fill('#api-key', secrets.spent);
    await extract(page, [`${site.origin}/text`]);
    expect(await page.textContent('#extract-out .error')).toMatch(/^402 insufficient_credits: .*top it up/s);

    await page.fill('#api-key', secrets.rich);
    await page.reload();
    await page.waitForSelector('html[data-ready="true"]');
    expect(await page.inputValue('#api-key')).toBe(secrets.rich); // kept in the browser
    await extract(page, [`${site.origin}/text`]);
    expect(await page.textContent('#credits')).toBe('Credits remaining: 99');
    await page.click('#usage summary');
    await page.click('#usage-load');
    await page.waitForSelector('#usage-balance');
    expect(await page.textContent('#usage-balance')).toMatch(
      /^rich \(wsk_.{6}…\): balance 99 · held by requests in progress 0$/,
    );
    expect(await page.locator('#usage-out tbody tr').first().textContent()).toContain(`${site.origin}/text`);
    await page.click('#key-forget');
    expect(await page.evaluate('localStorage.length')).toBe(0);
    expect(violations).toEqual([]);
    await context.close();
  });

  it("shows the balance of the key in the field at once, and only that key's: a switch clears the old figures, a late answer for it is dropped", async () => {
    const alpha = (await keyed.core.keys.create({ name: 'alpha', credits: 40 })).secret;
    const beta = (await keyed.core.keys.create({ name: 'beta', credits: 0 })).secret;
    const page = await newPage(keyed);
    const metered: string[] = [];
    const usageAsked: string[] = [];
    page.on('request', (r) => {
      if (/\/api\/(search|crawl)/.test(r.url())) metered.push(r.url());
      if (r.url().includes('/api/usage')) usageAsked.push(r.headers()['authorization'] ?? '');
    });
    // /api/usage answers for a held key come only when the test lets them go.
    const gates = new Map<string, { open: Promise<void>; release: () => void }>();
    const hold = (key: string) => {
      let release = () => {};
      const open = new Promise<void>((resolve) => (release = resolve));
      gates.set(`Bearer ${key}`, { open, release });
    };
    const release = (key: string) => gates.get(`Bearer ${key}`)?.release();
    await page.route(/\/api\/usage/, async (route) => {
      const response = await route.fetch();
      await gates.get(route.request().headers()['authorization'] ?? '')?.open;
      await route.fulfill({ response });
    });
    const usageText = async () => (await page.textContent('#usage-out')) ?? '';

    // Key A: its balance and usage without any charged request.
    await page.fill('#api-key', alpha);
    await expect.poll(() => page.textContent('#credits')).toBe('Credits remaining: 40');
    expect(await page.textContent('#usage-balance')).toMatch(/^alpha \(wsk_.{6}…\): balance 40 /);
    expect(metered).toEqual([]);

    // Key B, its answer held: A's figures are gone at once, B's come with its answer.
    hold(beta);
    await page.fill('#api-key', beta);
    expect(await page.textContent('#credits')).toBe('');
    expect(await usageText()).not.toMatch(/alpha|40/);
    await expect.poll(() => usageAsked.filter((a) => a === `Bearer ${beta}`).length).toBe(1);
    release(beta);
    await expect.poll(() => page.textContent('#credits')).toBe('Credits remaining: 0');
    expect(await page.textContent('#usage-balance')).toMatch(/^beta \(wsk_.{6}…\): balance 0 /);

    // Back to A, and to B before A answers: A's late answer never shows beside B.
    hold(alpha);
    await page.fill('#api-key', alpha);
    await expect.poll(() => usageAsked.filter((a) => a === `Bearer ${alpha}`).length).toBe(2);
    const lateAlpha = page.waitForResponse(
      (r) => r.url().includes('/api/usage') && r.request().headers()['authorization'] === `Bearer ${alpha}`,
    );
    await page.fill('#api-key', beta);
    await expect.poll(() => page.textContent('#credits')).toBe('Credits remaining: 0');
    release(alpha);
    await lateAlpha;
    await page.evaluate('new Promise((resolve) => setTimeout(resolve, 100))'); // its handler has run
    expect(await page.textContent('#credits')).toBe('Credits remaining: 0');
    expect(await page.textContent('#usage-balance')).toMatch(/^beta /);

    // A 402 for B sits beside B's balance, never A's.
    await extract(page, [`${site.origin}/text`]);
    expect(await page.textContent('#extract-out .error')).toMatch(/^402 insufficient_credits/);
    await expect.poll(() => page.textContent('#usage-balance')).toMatch(/^beta .*balance 0 /);
    expect(await page.textContent('#credits')).toBe('Credits remaining: 0');
    expect(await usageText()).not.toMatch(/alpha/);

    // The stored key's balance on load, before any request of the page's user.
    const before = metered.length;
    await page.reload();
    await page.waitForSelector('html[data-ready="true"]');
    await expect.poll(() => page.textContent('#credits')).toBe('Credits remaining: 0');
    expect(await page.textContent('#usage-balance')).toMatch(/^beta /);
    expect(metered).toHaveLength(before);
    expect(violations).toEqual([]);
    await context.close();
  });

  it('copies a curl command that gives the same answer, and the MCP client configuration', async () => {
    const page = await newPage(keyed);
    await page.fill('#api-key', secrets.rich);
    await page.fill('#urls', `${site.origin}/text`);
    await page.click('#extract-form [data-copy=curl]');
    await expect.poll(() => page.textContent('#copy-text')).toMatch(/^curl /);
    const command = (await page.textContent('#copy-text')) as string;
    expect(command).not.toContain(secrets.rich); // the key stays out of the clipboard
    // Run as a shell would (the server answers in this process: the call must not block it).
    const { stdout, stderr } = await promisify(execFile)('bash', ['-c', `${command} -w '\\n%{http_code}'`], {
      env: { ...process.env, WEBSEARCH_KEY: secrets.rich },
    });
    const status = stdout.slice(stdout.lastIndexOf('\n') + 1);
    expect(status, `${command}\n${stdout}${stderr}`).toBe('200');
    const answer = JSON.parse(stdout.slice(0, stdout.lastIndexOf('\n')));
    expect(answer.results[0]).toMatchObject({ url: `${site.origin}/text`, success: true });
    await page.click('#search-form [data-copy=mcp]');
    await expect.poll(() => page.textContent('#copy-text')).toMatch(/^\{/);
    const config = JSON.parse((await page.textContent('#copy-text')) as string);
    expect(config).toEqual({
      mcpServers: { websearch: { url: `${keyed.url}/mcp`, headers: { Authorization: 'Bearer ${env:WEBSEARCH_KEY}' } } },
    });
    await context.close();
  });

  it('works from the keyboard alone', async () => {
    const page = await newPage(open);
    await page.focus('body');
    // Tab from the top reaches the query field; Enter in it searches.
    const focused = () => page.evaluate('document.activeElement?.id');
    for (let i = 0; i < 30 && (await focused()) !== 'q'; i++) {
      await page.keyboard.press('Tab');
    }
    expect(await focused()).toBe('q');
    await page.keyboard.type('harbour tides');
    await page.keyboard.press('Enter');
    await page.waitForSelector('#search-summary');
    // A focused control shows where focus is, in both schemes with 3:1 against the card it
    // sits on (WCAG 2.2, 1.4.11 non-text contrast).
    await page.keyboard.press('Tab');
    const outline = await page.evaluate('getComputedStyle(document.activeElement).outlineStyle');
    expect(outline).not.toBe('none');
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      const contrast = (await page.evaluate(`(() => {
        const rgb = (c) => c.match(/[\\d.]+/g).slice(0, 3).map(Number);
        const lum = (c) => {
          const [r, g, b] = rgb(c).map((v) => v / 255).map((v) => (v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4));
          return 0.2126 * r + 0.7152 * g + 0.0722 * b;
        };
        let card = document.activeElement.parentElement;
        while (getComputedStyle(card).backgroundColor === 'rgba(0, 0, 0, 0)') card = card.parentElement;
        const [a, b] = [lum(getComputedStyle(document.activeElement).outlineColor), lum(getComputedStyle(card).backgroundColor)];
        return (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
      })()`)) as number;
      expect(contrast, scheme).toBeGreaterThanOrEqual(3);
    }
    await context.close();
  });

  it('keeps words whole in tables on a phone (they scroll sideways, reachable by keyboard) and page headings larger than text', async () => {
    const page = await newPage(keyed, 390, 844);
    await page.fill('#api-key', secrets.rich);
    await extract(page, [`${site.origin}/html`, `${site.origin}/markdown`]);
    await page.click('#usage summary');
    await page.click('#usage-load');
    await page.waitForSelector('#usage-balance');
    // Lines of text in each cell of the usage table's header and the page's tide table: a
    // word squeezed to a letter per line shows as several lines for "operation" or "Height (m)".
    const lines = (await page.evaluate(
      `[...document.querySelectorAll('#usage-out th, article.result .preview th')].map((c) => {
        const range = document.createRange();
        range.selectNodeContents(c);
        return [c.textContent, new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size];
      })`,
    )) as [string, number][];
    expect(lines.map(([text]) => text)).toEqual(expect.arrayContaining(['operation', 'credits', 'High water']));
    for (const [text, count] of lines) if (!/\s/.test(text)) expect(count, text).toBe(1);
    for (const wrap of await page.locator('.table-wrap').all()) expect(await wrap.getAttribute('tabindex')).toBe('0');
    // The page's h1 and h2 (shown as h4 and h5 under the result's h3) are not smaller than its text.
    const sizes = (await page.evaluate(
      `[...document.querySelectorAll('article.result .preview :is(h4:not(.pane-title), h5, p)')].map((e) => [e.tagName, parseFloat(getComputedStyle(e).fontSize)])`,
    )) as [string, number][];
    const text = Math.max(...sizes.filter(([tag]) => tag === 'P').map(([, px]) => px));
    const headings = sizes.filter(([tag]) => tag !== 'P');
    expect(headings.map(([tag]) => tag)).toEqual(expect.arrayContaining(['H4', 'H5']));
    for (const [tag, px] of headings) expect(px, tag).toBeGreaterThan(text);
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await page.evaluate(AXE);
      const found = (await page.evaluate(
        "axe.run(document, { resultTypes: ['violations'] }).then((r) => r.violations.map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.length })))",
      )) as { id: string; impact: string; nodes: number }[];
      expect(
        found.filter((v) => v.impact === 'serious' || v.impact === 'critical'),
        scheme,
      ).toEqual([]);
    }
    expect(violations).toEqual([]);
    await context.close();
  });

  for (const [label, width, height] of [
    ['desktop', 1280, 900],
    ['phone', 390, 844],
  ] as const) {
    it(`fits a ${label} (${width} px): no sideways scrolling, key controls in view, screenshot checked; no serious axe violations`, async () => {
      const page = await newPage(open, width, height);
      await search(page, 'harbour tides', ['wikipedia', 'mojeek']);
      await extract(page, [`${site.origin}/html`, `${site.origin}/csv`, `${site.origin}/status/404`]);
      const layout = (await page.evaluate(
        '({ scrollWidth: document.documentElement.scrollWidth, innerWidth: window.innerWidth })',
      )) as { scrollWidth: number; innerWidth: number };
      expect(layout.scrollWidth).toBeLessThanOrEqual(layout.innerWidth);
      for (const selector of [
        '#status',
        '#api-key',
        '#q',
        '#search-form button[type=submit]',
        '#urls',
        '#extract-form button[type=submit]',
        'article.result pre.raw',
      ]) {
        const box = await page.locator(selector).first().boundingBox();
        expect(box, selector).not.toBeNull();
        expect(await page.locator(selector).first().isVisible(), selector).toBe(true);
        expect(box!.x, selector).toBeGreaterThanOrEqual(0);
        expect(box!.x + box!.width, selector).toBeLessThanOrEqual(width);
        expect(box!.width, selector).toBeGreaterThan(40);
      }
      const png = await page.screenshot({ fullPage: true });
      const file = join(SHOTS, `playground-${label}.png`);
      writeFileSync(file, png);
      console.log(`screenshot ${file}: ${png.length} bytes`);
      const image = decodePng(png);
      expect(image.width).toBe(width); // the page is exactly the viewport wide
      expect(image.height).toBeGreaterThan(height);
      expect(png.length).toBeGreaterThan(20_000);
      // The style sheet applied: the page's background, not the browser's white.
      expect(image.pixel(2, 2)).toEqual([0xf6, 0xf7, 0xf9]);

      for (const scheme of ['light', 'dark'] as const) {
        await page.emulateMedia({ colorScheme: scheme });
        await page.evaluate(AXE);
        const found = (await page.evaluate(
          "axe.run(document, { resultTypes: ['violations'] }).then((r) => r.violations.map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.length })))",
        )) as { id: string; impact: string; nodes: number }[];
        const serious = found.filter((v) => v.impact === 'serious' || v.impact === 'critical');
        expect(serious, `${label}, ${scheme}: ${JSON.stringify(found)}`).toEqual([]);
      }
      expect(violations).toEqual([]);
      await context.close();
    });
  }
});
