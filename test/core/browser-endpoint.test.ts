/**
 * WEBSEARCH_BROWSER_ENDPOINT and WEBSEARCH_BROWSER_ENDPOINT_KIND: what an endpoint speaks (read
 * from its URL unless declared), the URLs refused with the reason, and an endpoint shown
 * without what farms put their tokens in.
 */
import { describe, expect, it } from 'vitest';
import { endpointKind, endpointUrlProblem, shownEndpoint } from '../../src/core/browser-endpoint.js';
import { loadConfig, type ConfigError } from '../../src/core/config.js';

const problemsOf = (env: Record<string, string>): string[] => {
  try {
    loadConfig({ env });
  } catch (err) {
    return (err as ConfigError).problems;
  }
  throw new Error('expected a ConfigError');
};

describe('the kind of a browser endpoint', () => {
  it('is read from the URL: http(s) and /devtools/browser/ sockets are DevTools, other ws(s) Playwright servers', () => {
    expect(endpointKind('ws://127.0.0.1:3000/a1b2c3', 'auto')).toBe('playwright');
    expect(endpointKind('wss://farm.example/chromium/playwright?token=t', 'auto')).toBe('playwright');
    expect(endpointKind('ws://127.0.0.1:9222/devtools/browser/5f0e', 'auto')).toBe('cdp');
    expect(endpointKind('http://127.0.0.1:9222', 'auto')).toBe('cdp');
    expect(endpointKind('https://farm.example/', 'auto')).toBe('cdp');
  });

  it('is the declared one where the URL cannot tell (a hosted DevTools socket on a plain wss:// URL)', () => {
    expect(endpointKind('wss://farm.example?token=t', 'cdp')).toBe('cdp');
    expect(endpointKind('ws://127.0.0.1:9222/devtools/browser/5f0e', 'playwright')).toBe('playwright');
  });
});

describe('an endpoint URL', () => {
  it('must be absolute ws(s) or http(s), without a fragment', () => {
    expect(endpointUrlProblem('//farm.example:3000')).toMatch(/absolute ws:\/\/, wss:\/\/, http:\/\/ or https:\/\//);
    expect(endpointUrlProblem('ftp://farm.example/')).toMatch(/must be a ws:\/\//);
    expect(endpointUrlProblem('ws://farm.example/#x')).toMatch(/fragment/);
    expect(endpointUrlProblem('wss://u:p@farm.example:443/x?token=t')).toBeUndefined();
  });

  it('is shown with its scheme, host and port only', () => {
    expect(shownEndpoint('wss://user:hunter2@farm.example:3000/chromium?token=hunter2')).toBe(
      'wss://farm.example:3000/…',
    );
    expect(shownEndpoint('http://127.0.0.1:9222')).toBe('http://127.0.0.1:9222');
  });
});

describe('the settings', () => {
  it('take an endpoint and its kind', () => {
    const { render } = loadConfig({
      env: { WEBSEARCH_BROWSER_ENDPOINT: 'wss://farm.example?token=t', WEBSEARCH_BROWSER_ENDPOINT_KIND: 'cdp' },
    });
    expect(render).toMatchObject({ browserEndpoint: 'wss://farm.example?token=t', browserEndpointKind: 'cdp' });
    expect(loadConfig({ env: {} }).render).toMatchObject({ browserEndpointKind: 'auto' });
    expect(loadConfig({ env: {} }).render.browserEndpoint).toBeUndefined();
  });

  it('refuse a bad endpoint, a bad kind, and a Playwright kind on an http(s) endpoint, each in one line, no token shown', () => {
    expect(problemsOf({ WEBSEARCH_BROWSER_ENDPOINT: 'ftp://u:hunter2@farm.example/b?token=hunter2' })).toEqual([
      'WEBSEARCH_BROWSER_ENDPOINT: must be a ws://, wss://, http:// or https:// URL (got "ftp://farm.example/…")',
    ]);
    expect(problemsOf({ WEBSEARCH_BROWSER_ENDPOINT_KIND: 'puppeteer' })).toEqual([
      expect.stringMatching(/^WEBSEARCH_BROWSER_ENDPOINT_KIND: .*"auto".*"playwright".*"cdp".* \(got "puppeteer"\)$/),
    ]);
    expect(
      problemsOf({
        WEBSEARCH_BROWSER_ENDPOINT: 'https://farm.example?token=t',
        WEBSEARCH_BROWSER_ENDPOINT_KIND: 'playwright',
      }),
    ).toEqual([expect.stringMatching(/^WEBSEARCH_BROWSER_ENDPOINT_KIND=playwright needs a ws:\/\/ or wss:\/\//)]);
  });
});
