/**
 * `extract`'s page options through the built binary: a flag for every property of the
 * crawl request, derived from its schema (so the help lists each one), read and checked
 * by that schema (a bad value: exit 2, one line naming the flag, nothing fetched), lists
 * repeated or comma-separated as the reader takes them; links under each page in the
 * text, screenshots written to files instead of base64 in it, and the browser's options
 * failing render_unavailable on their URL without a browser (and working with Chromium).
 */
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { screenshotName } from '../../src/cli/screenshot-files.js';
import { extractRequestSchema } from '../../src/core/schemas.js';
import { describeWithChromium } from '../helpers/chromium.js';
import { startFixtureSite } from '../helpers/fixture-site.js';
import {
  expectedLinks,
  LATE_TEXT,
  pageControlScenarios,
  SIDEBAR_ARTICLE,
  SIDEBAR_HTML,
  SIDEBAR_NOTE,
  SIDEBAR_REMARK,
  visitText,
} from '../helpers/page-control-scenarios.js';
import { decodePng } from '../helpers/png.js';
import { runCli } from '../helpers/spawn-cli.js';

type Site = Awaited<ReturnType<typeof startFixtureSite>>;
let site: Site;
const dir = mkdtempSync(join(tmpdir(), 'websearch-page-options-'));
beforeAll(async () => {
  site = await startFixtureSite({ scenarios: pageControlScenarios() });
});
afterAll(async () => {
  await site?.close();
  rmSync(dir, { recursive: true, force: true });
});

const run = (args: string[], env: Record<string, string> = {}) =>
  runCli(args, { ...(process.env as Record<string, string>), WEBSEARCH_ALLOW_PRIVATE_ADDRESSES: 'true', ...env });
const u = (path: string) => `${site.origin}${path}`;
const markdownOf = async (args: string[]) => {
  const out = await run([...args, '--json']);
  expect(out.stderr).toBe('');
  return JSON.parse(out.stdout).results[0].markdown as string;
};

describe('a flag for every crawl option', () => {
  it('lists each property of the crawl request but urls in extract --help, with its meaning', async () => {
    const help = (await run(['extract', '--help'])).stdout;
    const properties = Object.keys(extractRequestSchema({ maxUrls: 10, maxTimeoutMs: 60_000 }).shape);
    expect(properties.length).toBeGreaterThan(10);
    for (const property of properties.filter((p) => p !== 'urls')) {
      const flag = `--${property.replaceAll('_', '-')}`;
      expect(help, flag).toMatch(new RegExp(`\\n  ${flag}( \\S+)? +[A-Z"]\\S* \\S+`));
    }
    expect(help).toMatch(/--include-selectors LIST +CSS selectors/);
    expect(help).toMatch(/--format markdown\|html +"markdown" \(default\)/);
    // The limit as this configuration sets it.
    const limited = (await run(['extract', '--help'], { WEBSEARCH_FETCH_MAX_TIMEOUT_MS: '90000' })).stdout;
    expect(limited).toMatch(/--timeout-ms N +Deadline per URL in milliseconds \(at most 90000\)/);
  });

  it('--include-links prints the links under the page, and puts them in the JSON', async () => {
    const page = ['extract', u('/controls/links')];
    // Side by side: each run is a process of its own.
    const [text, json, ...plain] = await Promise.all([
      run([...page, '--include-links']),
      run([...page, '--include-links', '--json']),
      run(page),
      run([...page, '--no-include-links']),
    ]);
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/\n## Links\n\n- \[Home\]\(http:\/\/127\.0\.0\.1:\d+\/\)\n/);
    expect(text.stdout).toContain(`- (in content) [berth prices](${u('/controls/berths')})`);
    expect(JSON.parse(json.stdout).results[0].links).toEqual(expectedLinks(site.origin));
    for (const out of plain) {
      expect(out.code).toBe(0);
      expect(out.stdout).not.toContain('## Links');
    }
  });

  it('--include-selectors and --exclude-selectors take repeated flags and comma-separated values', async () => {
    const page = ['extract', u('/controls/sidebar')];
    const [whole, repeated, comma, excluded] = await Promise.all([
      markdownOf(page),
      markdownOf([...page, '--include-selectors', 'aside .note', '--include-selectors', '.remark']),
      markdownOf([...page, '--include-selectors=aside .note, .remark']),
      markdownOf([...page, '--exclude-selectors', '.remark']),
    ]);
    expect(whole).toContain(SIDEBAR_ARTICLE);
    expect(whole).toContain(SIDEBAR_REMARK);
    for (const selected of [repeated, comma]) {
      expect(selected).toContain(SIDEBAR_NOTE);
      expect(selected).toContain(SIDEBAR_REMARK);
      expect(selected).not.toContain(SIDEBAR_ARTICLE);
    }
    expect(excluded).toContain(SIDEBAR_ARTICLE);
    expect(excluded).not.toContain(SIDEBAR_REMARK);
  });

  it('--timeout-ms sets the deadline of each URL', async () => {
    const [out, unbounded] = await Promise.all([
      run(['extract', u('/delay/2000'), '--timeout-ms', '300']),
      run(['extract', u('/delay/1000')]),
    ]);
    expect(out.code).toBe(1);
    expect(out.stderr).toMatch(new RegExp(`^${u('/delay/2000')}: timeout: `));
    expect(unbounded.code).toBe(0);
  });

  it('--max-age fetches again a copy older than it (the cache in a store file)', async () => {
    const env = { WEBSEARCH_STORE_PATH: join(dir, 'cache.db') };
    const page = async (args: string[]) => {
      const out = await run(['extract', u('/controls/visits'), '--json', ...args], env);
      expect(out.stderr).toBe('');
      return JSON.parse(out.stdout).results[0] as { markdown: string; from_cache: boolean };
    };
    expect((await page([])).markdown).toContain(visitText(1));
    expect(await page([])).toMatchObject({ from_cache: true, markdown: expect.stringContaining(visitText(1)) });
    expect(await page(['--max-age', '0'])).toMatchObject({
      from_cache: false,
      markdown: expect.stringContaining(visitText(2)),
    });
  });

  it('keeps the flags it had: --format, --max-chars, --start-char, --stealth', async () => {
    // The page as served: no browser renders format html here.
    const noBrowser = { WEBSEARCH_RENDER: 'never' };
    const args = ['extract', u('/controls/sidebar'), '--json'];
    const html = JSON.parse((await run([...args, '--format', 'html', '--max-chars', '40'], noBrowser)).stdout);
    expect(html.results[0].html).toBe(SIDEBAR_HTML.slice(0, 40));
    const rest = JSON.parse(
      (await run([...args, '--format=html', '--start-char', '40', '--stealth'], noBrowser)).stdout,
    );
    expect(rest.results[0].html).toBe(SIDEBAR_HTML.slice(40));
    expect(rest.metadata.credits_used).toBe(5);
  });
});

describe('bad values', () => {
  const cases: [string[], RegExp][] = [
    [['--max-age', '-1'], /^websearch-mcp: --max-age: Too small: .*>=0 \(got "-1"\)/],
    [['--max-age', 'soon'], /^websearch-mcp: --max-age: .*expected number.* \(got "soon"\)/],
    [['--timeout-ms', '5'], /^websearch-mcp: --timeout-ms: Too small: .*>=100 \(got "5"\)/],
    [['--timeout-ms', '999999999'], /^websearch-mcp: --timeout-ms: Too big: .*<=60000 \(got "999999999"\)/],
    [['--format', 'pdf'], /^websearch-mcp: --format: .*"markdown"\|"html" \(got "pdf"\)/],
    [
      ['--include-selectors', 'article,:contains(x)'],
      /^websearch-mcp: --include-selectors: not standard CSS: .*\(got ":contains\(x\)"\)/,
    ],
    [['--exclude-selectors', 'a[href'], /^websearch-mcp: --exclude-selectors: .*\(got "a\[href"\)/],
    [['--wait-for-selector', 'p::first-line'], /^websearch-mcp: --wait-for-selector: .*\(got "p::first-line"\)/],
    [['--max-passages', '2'], /^websearch-mcp: --max-passages needs a query \(got "2"\)/],
    [
      ['--format', 'html', '--exclude-selectors', 'nav'],
      /^websearch-mcp: --exclude-selectors applies to format "markdown" only;/,
    ],
    [['--include-links=maybe'], /^websearch-mcp: extract: --include-links is on or off: true or false \(got "maybe"\)/],
    [
      ['--screenshot-dir', 'shots'],
      /^websearch-mcp: --screenshot-dir is where --screenshot writes its files: give --screenshot too/,
    ],
    [
      ['--screenshot', '--screenshot-dir', 'shots', '--json'],
      /^websearch-mcp: --screenshot-dir is for the page text: with --json or --jsonl/,
    ],
    [
      ['--screenshot', '--screenshot-dir', '/nowhere/at/all'],
      /^websearch-mcp: --screenshot-dir "\/nowhere\/at\/all" is no directory this process can write to \(ENOENT\)/,
    ],
  ];
  it.each(cases)('%j: exit 2, one line naming the flag, nothing fetched', async (args, message) => {
    const path = `/controls/links?bad=${encodeURIComponent(args.join(' '))}`;
    const out = await run(['extract', u(path), ...args]);
    expect(out.code).toBe(2);
    expect(out.stdout).toBe('');
    expect(out.stderr.trim().split('\n')).toHaveLength(1);
    expect(out.stderr).toMatch(message);
    expect(out.stderr).toMatch(/; see "websearch-mcp extract --help"\n$/);
    expect(site.hits(path)).toBe(0);
  });
});

describe('the browser options without a browser', () => {
  it('fail render_unavailable on their URL, before any request to it', async () => {
    for (const args of [['--screenshot'], ['--wait-for-selector', '#timetable']]) {
      const path = `/controls/late?${args[0]}`;
      const out = await run(['extract', u(path), ...args], { WEBSEARCH_RENDER: 'never' });
      expect(out.code, args[0]).toBe(1);
      expect(out.stdout, args[0]).toBe('');
      expect(out.stderr, args[0]).toMatch(new RegExp(`^${u(path).replace(/[?.]/g, '\\$&')}: render_unavailable: `));
      expect(site.hits(path), args[0]).toBe(0);
    }
  });
});

describe('screenshot file names', () => {
  it('come from the host, path and query, one dash for each run of other characters', () => {
    expect(screenshotName('http://127.0.0.1:9100/a.html')).toBe('127.0.0.1-9100-a.html');
    expect(screenshotName('https://example.com/docs/guide?page=2&x=%20y')).toBe('example.com-docs-guide-page-2-x-20y');
    expect(screenshotName('https://example.com/')).toBe('example.com');
    expect(screenshotName(`https://example.com/${'a'.repeat(300)}`)).toHaveLength(120);
  });
});

// A browser's start and render, on a busy machine, may take longer than the default 30 s.
const BROWSER_TIMEOUT = 90_000;

describeWithChromium('the browser options with Chromium', () => {
  it(
    '--screenshot writes each PNG to --screenshot-dir, named from its URL, its path on stderr, no base64 printed',
    async () => {
      const shots = join(dir, 'shots');
      // Two URLs that make one name: the second to finish gets -2, neither overwrites the other.
      const [a, b] = [u('/controls/screenshot?x=1'), u('/controls/screenshot?x-1')];
      const base = screenshotName(a);
      expect(screenshotName(b)).toBe(base);
      const out = await run(['extract', a, b, '--screenshot', '--screenshot-dir', shots]);
      expect(out.code).toBe(0);
      expect(out.stdout).toContain('Title: Colours');
      expect(out.stdout).not.toMatch(/iVBORw0KGgo/);
      expect(readdirSync(shots).sort()).toEqual([`${base}-2.png`, `${base}.png`]);
      for (const url of [a, b])
        expect(out.stderr).toMatch(
          new RegExp(`${url.replace(/[?.]/g, '\\$&')}: screenshot ${shots}/${base}(-2)?\\.png\n`),
        );
      for (const name of readdirSync(shots)) {
        const png = decodePng(readFileSync(join(shots, name)));
        expect(png.width).toBe(1280);
        expect(png.pixel(10, 10)).toEqual([255, 0, 0]);
      }
      // With --json the PNG stays base64 in the API's object, and no file is written.
      const json = JSON.parse((await run(['extract', a, '--screenshot', '--json'])).stdout);
      expect(decodePng(Buffer.from(json.results[0].screenshot, 'base64')).width).toBe(1280);
      expect(existsSync(join(process.cwd(), `${base}.png`))).toBe(false);
    },
    BROWSER_TIMEOUT,
  );

  it(
    '--wait-for-selector renders the page and waits for the selector',
    async () => {
      const out = await run(['extract', u('/controls/late'), '--wait-for-selector', '#timetable']);
      expect(out.code).toBe(0);
      expect(out.stdout).toContain(LATE_TEXT);
    },
    BROWSER_TIMEOUT,
  );
});
