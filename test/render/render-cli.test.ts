/**
 * The command line renders too: `websearch-mcp extract` on a single-page app prints the
 * text its scripts write, and exits (the browser is closed with the core).
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
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
