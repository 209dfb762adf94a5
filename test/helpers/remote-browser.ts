/**
 * Remote browsers for the tests, on 127.0.0.1 and the system Chromium (helpers/chromium.ts),
 * launched the way the README asks a farm to launch them (with WEBRTC_SWITCHES):
 *  - `playwright`: a Playwright browser server from this project's playwright-core
 *    (`chromium.launchServer`), reached with `chromium.connect`;
 *  - `cdp`: Chromium with its DevTools endpoint open (`--remote-debugging-port`), reached
 *    with `connectOverCDP` at http://127.0.0.1:<port> (the port read from its stderr).
 * Each can be killed like a crashed farm browser and started again on the same endpoint.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium as playwright, type BrowserServer } from 'playwright-core';
import { WEBRTC_SWITCHES } from '../../src/render/local-browser.js';
import { chromium } from './chromium.js';

export type RemoteKind = 'playwright' | 'cdp';

export interface RemoteBrowser {
  kind: RemoteKind;
  /** WEBSEARCH_BROWSER_ENDPOINT for it. */
  endpoint: string;
  /** The remote browser's main process. */
  pid(): number;
  /** Kills the browser (SIGKILL), as a farm's browser crashes: its endpoint goes with it. */
  kill(): Promise<void>;
  /** Starts it again on the same endpoint. */
  restart(): Promise<void>;
  close(): Promise<void>;
}

export interface RemoteBrowserOptions {
  /** Without the WebRTC switches: a farm that lets pages send UDP. */
  udp?: boolean;
}

export function startRemoteBrowser(kind: RemoteKind, options: RemoteBrowserOptions = {}): Promise<RemoteBrowser> {
  const args = options.udp ? [] : WEBRTC_SWITCHES;
  return kind === 'playwright' ? startPlaywrightServer(args) : startDevToolsBrowser(args);
}

async function startPlaywrightServer(args: string[]): Promise<RemoteBrowser> {
  const launch = (port?: number, wsPath?: string): Promise<BrowserServer> =>
    playwright.launchServer({
      executablePath: chromium.path as string,
      headless: true,
      host: '127.0.0.1',
      args,
      ...(port ? { port } : {}),
      ...(wsPath ? { wsPath } : {}),
    });
  let server = await launch();
  const endpoint = server.wsEndpoint();
  const { port, pathname } = new URL(endpoint);
  return {
    kind: 'playwright',
    endpoint,
    pid: () => server.process().pid as number,
    kill: () => server.kill(),
    restart: async () => {
      server = await launch(Number(port), pathname);
    },
    close: () => server.close(),
  };
}

async function startDevToolsBrowser(args: string[]): Promise<RemoteBrowser> {
  const profile = mkdtempSync(join(tmpdir(), 'websearch-cdp-'));
  const launch = (port: number): Promise<{ child: ChildProcess; port: number }> => {
    const child = spawn(
      chromium.path as string,
      [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        `--remote-debugging-port=${port}`,
        '--remote-debugging-address=127.0.0.1',
        `--user-data-dir=${profile}`,
        ...args,
        'about:blank',
      ],
      // Its own process group: the helper processes (zygote, renderers) go with it on stop.
      { stdio: ['ignore', 'ignore', 'pipe'], detached: true },
    );
    return new Promise((resolve, reject) => {
      let stderr = '';
      const timer = setTimeout(() => fail(new Error(`no DevTools endpoint within 20 s:\n${stderr}`)), 20_000);
      const fail = (error: Error): void => {
        clearTimeout(timer);
        child.kill('SIGKILL');
        reject(error);
      };
      child.stderr?.on('data', (chunk: Buffer) => {
        stderr += chunk.toString();
        const listening = /DevTools listening on (ws:\/\/\S+)/.exec(stderr);
        if (!listening) return;
        clearTimeout(timer);
        child.stderr?.removeAllListeners('data');
        child.stderr?.resume();
        resolve({ child, port: Number(new URL(listening[1] as string).port) });
      });
      child.once('exit', (code) =>
        fail(new Error(`chromium exited (${code}) before its DevTools endpoint:\n${stderr}`)),
      );
    });
  };
  const stop = (child: ChildProcess): Promise<void> =>
    new Promise((resolve) => {
      const group = (): void => {
        try {
          process.kill(-(child.pid as number), 'SIGKILL');
        } catch {
          // The group is gone already.
        }
      };
      if (child.exitCode !== null || child.signalCode !== null) {
        group();
        return resolve();
      }
      child.once('exit', () => resolve());
      group();
    });
  const first = await launch(0);
  const port = first.port;
  let child = first.child;
  return {
    kind: 'cdp',
    endpoint: `http://127.0.0.1:${port}`,
    pid: () => child.pid as number,
    kill: () => stop(child),
    restart: async () => {
      ({ child } = await launch(port));
    },
    close: async () => {
      await stop(child);
      await removeProfile(profile);
    },
  };
}

/**
 * Removes a browser profile. A helper process that left the group may still write to it for
 * a moment: tried for 5 s, then left in the temporary folder with a warning, not a failed
 * teardown (the tests' outcome does not depend on it).
 */
async function removeProfile(profile: string): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    try {
      rmSync(profile, { recursive: true, force: true });
      return;
    } catch (error) {
      if (attempt >= 50) {
        console.warn(`left the browser profile ${profile}: ${(error as Error).message}`);
        return;
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}
