/**
 * The browser's launch switches: Chromium keeps only the last --disable-features, so the
 * list the host passes must still hold every feature Playwright itself turns off (checked
 * against the installed playwright-core, whose list may change on an upgrade).
 */
import { chromium as playwright } from 'playwright-core';
import { expect, it } from 'vitest';
import { DISABLED_FEATURES, LAUNCH_ARGS } from '../../src/render/local-browser.js';
import { descendants } from '../../src/render/process-tree.js';
import { chromium, describeWithChromium } from '../helpers/chromium.js';

/** The features in the last --disable-features of a command line (the one Chromium keeps). */
function disabledFeatures(cmdline: string): string[] {
  const all = cmdline.split(' ').filter((arg) => arg.startsWith('--disable-features='));
  return (all.at(-1) ?? '--disable-features=').slice('--disable-features='.length).split(',').filter(Boolean);
}

describeWithChromium('the launch switches', () => {
  it("keep Playwright's own disabled features and turn off the spare renderer and RenderDocument", async () => {
    const marker = `--user-agent=launch-switch-probe-${process.pid}`;
    const browser = await playwright.launch({
      executablePath: chromium.path as string,
      headless: true,
      args: [marker],
    });
    let defaults: string[];
    try {
      const main = descendants().find((p) => p.cmdline.includes(marker) && !p.cmdline.includes('--type='));
      expect(main).toBeDefined();
      defaults = disabledFeatures(main?.cmdline ?? '');
    } finally {
      await browser.close();
    }
    expect(defaults.length).toBeGreaterThan(0);
    expect(DISABLED_FEATURES).toEqual(expect.arrayContaining(defaults));
    expect(disabledFeatures(LAUNCH_ARGS.join(' '))).toEqual(DISABLED_FEATURES);
    expect(DISABLED_FEATURES).toEqual(expect.arrayContaining(['SpareRendererForSitePerProcess', 'RenderDocument']));
  });
});
