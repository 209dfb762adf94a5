/**
 * The command line renders too: `websearch-mcp extract` on a single-page app prints the
 * text its scripts write, and exits (the browser is closed with the core), on the local
 * browser or a remote one (WEBSEARCH_BROWSER_ENDPOINT); a bad endpoint is one line, exit 2.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeOnBrowsers } from '../helpers/browser-targets.js';
import { chromium, describeWithChromium } from '../helpers/chromium.js';
import { startFixtureSite, type FixtureSite } from '../helpers/fixture-site.js';
import { renderScenarios, SPA_TEXT } from '../helpers/render-scenarios.js';
import { runCli } from '../helpers/spawn-cli.js';

let site: FixtureSite;
beforeAll(async () => {
  site = await startFixtureSite({ scenarios: renderScenarios(() => 1) });
});
afterAll(async () => {
  await site?.close();
});

describeWithChromium('extract on the command line', () => {
  it('prints the rendered text of a single-page app and exits 0', async () => {
    const env = {
      ...(process.env as Record<string, string>),
      WEBSEARCH_ALLOW_PRIVATE_ADDRESSES: `127.0.0.1:${site.port}`,
      CHROMIUM_PATH: chromium.path as string,
    };
    const human = await runCli(['extract', `${site.origin}/spa`], env);
    expect(human.code).toBe(0);
    expect(human.stdout).toContain(SPA_TEXT);
    const json = await runCli(['extract', `${site.origin}/spa`, '--json'], env);
    expect(JSON.parse(json.stdout).results[0]).toMatchObject({ success: true, rendered: true });
    const never = await runCli(['extract', `${site.origin}/spa`, '--json'], { ...env, WEBSEARCH_RENDER: 'never' });
    expect(never.code).toBe(1);
    expect(JSON.parse(never.stdout).results[0]).toMatchObject({ success: false, error_type: 'empty_content' });
  });
});

describeOnBrowsers(['playwright'], 'extract on the command line', (target) => {
  it('renders on the remote browser, launching none', async () => {
    const env = {
      ...(process.env as Record<string, string>),
      WEBSEARCH_ALLOW_PRIVATE_ADDRESSES: `127.0.0.1:${site.port}`,
      WEBSEARCH_BROWSER_ENDPOINT: target.remote?.endpoint as string,
      // A local browser that cannot start: the remote one must be what renders.
      CHROMIUM_PATH: '/bin/false',
    };
    const json = await runCli(['extract', `${site.origin}/spa`, '--json'], env);
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout).results[0]).toMatchObject({ success: true, rendered: true });
    expect(JSON.parse(json.stdout).results[0].markdown).toContain(SPA_TEXT);
  });
});

describe('a bad WEBSEARCH_BROWSER_ENDPOINT', () => {
  it('is one clear line and exit 2, its token not shown', async () => {
    for (const [env, line] of [
      [
        { WEBSEARCH_BROWSER_ENDPOINT: 'ftp://farm.example/browser?token=hunter2' },
        'WEBSEARCH_BROWSER_ENDPOINT: must be a ws://, wss://, http:// or https:// URL (got "ftp://farm.example/…")',
      ],
      [
        {
          WEBSEARCH_BROWSER_ENDPOINT: 'https://farm.example?token=hunter2',
          WEBSEARCH_BROWSER_ENDPOINT_KIND: 'playwright',
        },
        'WEBSEARCH_BROWSER_ENDPOINT_KIND=playwright needs a ws:// or wss:// WEBSEARCH_BROWSER_ENDPOINT',
      ],
      [{ WEBSEARCH_BROWSER_ENDPOINT_KIND: 'puppeteer' }, 'WEBSEARCH_BROWSER_ENDPOINT_KIND: '],
    ] as const) {
      const run = await runCli(['extract', `${site.origin}/html`], {
        ...(process.env as Record<string, string>),
        ...env,
      });
      expect(run.code, JSON.stringify(env)).toBe(2);
      expect(run.stderr).toContain(line);
      expect(run.stderr).not.toContain('hunter2');
      expect(run.stdout).toBe('');
    }
  });
});
