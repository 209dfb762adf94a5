/**
 * The browser for tests that render: the one the configuration would pick (CHROMIUM_PATH,
 * else Debian's default paths). Without one, those tests SKIP with the reason printed —
 * except under CI (CI=true), where a missing browser FAILS them: CI installs Debian's
 * chromium (.ci/run), so its absence is a broken setup, not a reason to pass.
 */
import { existsSync } from 'node:fs';
import { describe, it } from 'vitest';
import { loadConfig } from '../../src/core/config.js';
import { descendants } from '../../src/render/process-tree.js';

function find(): { path?: string; reason?: string } {
  try {
    const path = loadConfig({ env: { CHROMIUM_PATH: process.env.CHROMIUM_PATH } }).render.chromiumPath;
    return path
      ? { path }
      : {
          reason:
            'no Chromium at /usr/bin/chromium or /usr/bin/chromium-browser (apt-get install chromium, or set CHROMIUM_PATH)',
        };
  } catch (error) {
    return { reason: (error as Error).message };
  }
}

export const chromium = find();

/** `describe` for tests that need a real browser: skipped (with the reason) or failed in CI without one. */
export function describeWithChromium(name: string, body: () => void): void {
  describeWithBrowser(name, 'a Chromium', chromium.path === undefined ? chromium.reason : undefined, body);
}

/** Debian's chromium-headless-shell, a build CHROMIUM_PATH may name (the guard tests run it too). */
export const HEADLESS_SHELL = '/usr/bin/chromium-headless-shell';

/** `describe` for tests of the headless shell: like describeWithChromium, for that build. */
export function describeWithHeadlessShell(name: string, body: () => void): void {
  describeWithBrowser(
    name,
    'a headless shell',
    existsSync(HEADLESS_SHELL) ? undefined : `no ${HEADLESS_SHELL} (apt-get install chromium-headless-shell)`,
    body,
  );
}

/** Runs `body`, or (with `missing` saying why) skips it, or under CI fails in its place. */
function describeWithBrowser(name: string, browser: string, missing: string | undefined, body: () => void): void {
  if (missing === undefined) {
    describe(name, body);
  } else if (process.env.CI === 'true') {
    describe(name, () => {
      it(`has ${browser} to render with (required under CI)`, () => {
        throw new Error(`CI=true but ${missing}`);
      });
    });
  } else {
    console.warn(`skipping "${name}": ${missing}`);
    describe.skip(name, body);
  }
}

/** The browser processes this test process started (main process first, then its helpers). */
export function browserProcesses(): { pid: number; main: boolean }[] {
  return descendants()
    .filter((p) => p.cmdline.includes('--proxy-server=http://127.0.0.1:'))
    .map((p) => ({ pid: p.pid, main: !p.cmdline.includes('--type=') }));
}
