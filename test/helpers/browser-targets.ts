/**
 * The browsers a rendering suite runs against, so that one suite checks the same behaviour
 * on each: the local Chromium the renderer launches itself, and a remote one it connects to
 * (WEBSEARCH_BROWSER_ENDPOINT): a Playwright browser server or a DevTools endpoint
 * (remote-browser.ts). `describeOnBrowsers` runs a suite once per target, each under
 * describeWithChromium (skipped with the reason, or failed under CI, without a browser).
 */
import { afterAll, beforeAll } from 'vitest';
import { parseAllowedOrigins } from '../../src/core/allowed-origins.js';
import type { Config, DeepPartial } from '../../src/core/config.js';
import type { HttpClient } from '../../src/net/fetch-types.js';
import type { ChromiumRendererOptions } from '../../src/render/chromium-renderer.js';
import { browserProcesses, chromium, describeWithChromium } from './chromium.js';
import { startRemoteBrowser, type RemoteBrowser, type RemoteKind } from './remote-browser.js';
import { startTestApi, type TestApi } from './test-server.js';

export type TargetName = 'local' | RemoteKind;

export interface BrowserTarget {
  name: TargetName;
  /** The remote browser while the suite runs (none for `local`). */
  readonly remote: RemoteBrowser | undefined;
  /** The `render` settings of a test server rendering on it. */
  render(): DeepPartial<Config['render']>;
  /** The ChromiumRenderer options that pick it; a remote browser's pages are answered by `client`. */
  renderer(client: HttpClient): Pick<ChromiumRendererOptions, 'executablePath' | 'remote'>;
  /** Kills the browser as a crash does: the local one's main process, or the remote browser. */
  crash(): Promise<void>;
  /** After `crash`: a remote browser is started again on the same endpoint (a local one restarts by itself). */
  recover(): Promise<void>;
  start(): Promise<void>;
  close(): Promise<void>;
}

const LABELS: Record<TargetName, string> = {
  local: 'local browser',
  playwright: 'remote Playwright server',
  cdp: 'remote DevTools endpoint',
};

export function browserTarget(name: TargetName): BrowserTarget {
  let remote: RemoteBrowser | undefined;
  const running = (): RemoteBrowser => {
    if (!remote) throw new Error(`the ${LABELS[name]} is not started`);
    return remote;
  };
  return {
    name,
    get remote() {
      return remote;
    },
    render: () =>
      name === 'local' ? { chromiumPath: chromium.path as string } : { browserEndpoint: running().endpoint },
    renderer: (client) =>
      name === 'local'
        ? { executablePath: chromium.path as string }
        : { remote: { endpoint: running().endpoint, kind: 'auto', client } },
    crash: async () => {
      if (name !== 'local') return running().kill();
      const main = browserProcesses().filter((p) => p.main);
      if (main.length !== 1) throw new Error(`expected one local browser, found ${main.length}`);
      process.kill((main[0] as { pid: number }).pid, 'SIGKILL');
    },
    recover: async () => {
      if (name !== 'local') await running().restart();
    },
    start: async () => {
      if (name !== 'local') remote = await startRemoteBrowser(name);
    },
    close: async () => {
      await remote?.close();
      remote = undefined;
    },
  };
}

/** `body` once per browser, as a suite named `title (<browser>)`, the browser started before it and closed after. */
export function describeOnBrowsers(
  names: readonly TargetName[],
  title: string,
  body: (target: BrowserTarget) => void,
): void {
  for (const name of names) {
    const target = browserTarget(name);
    describeWithChromium(`${title} (${LABELS[name]})`, () => {
      beforeAll(() => target.start());
      afterAll(() => target.close());
      body(target);
    });
  }
}

/**
 * A test server rendering with `render` (a target's `render()`, and any more settings),
 * the private origins `allowed` ("127.0.0.1:port,...") and only those reachable, the
 * cache off unless `cacheTtlMs`; `fetch` adds fetch settings. The deadline (15 s unless
 * `timeoutMs`) covers a browser's cold launch, seconds on a busy 2-core machine.
 */
export function renderingApi(
  render: DeepPartial<Config['render']>,
  allowed: string,
  options: { timeoutMs?: number; cacheTtlMs?: number; fetch?: DeepPartial<Config['fetch']> } = {},
): Promise<TestApi> {
  return startTestApi({
    render: { mode: 'auto', ...render },
    fetch: {
      allowPrivateAddresses: parseAllowedOrigins(allowed) as never,
      timeoutMs: options.timeoutMs ?? 15_000,
      ...options.fetch,
    },
    cache: { ttlMs: options.cacheTtlMs ?? 0 },
  });
}
