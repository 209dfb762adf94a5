import { availableParallelism } from 'node:os';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/core/config.js';

describe('loadConfig', () => {
  it('has the spec defaults', () => {
    const c = loadConfig({ env: {} });
    expect(c.server).toMatchObject({ host: '127.0.0.1', bodyLimitBytes: 64 * 1024 });
    expect(c.fetch).toMatchObject({
      maxBytes: 10 * 1024 * 1024,
      maxRedirects: 5,
      timeoutMs: 15_000,
      allowPrivateAddresses: false,
    });
    expect(c.robots).toMatchObject({ enabled: true, cacheTtlMs: 24 * 3600_000, maxBytes: 500 * 1024 });
    expect(c.crawl.maxUrls).toBe(10);
    expect(c.fetch.userAgent).toMatch(/websearch-mcp\/\d/);
    expect(Object.isFrozen(c.fetch)).toBe(true);
  });

  it('coerces env values and lets flags win over env', () => {
    const c = loadConfig({
      env: { WEBSEARCH_PORT: '9000', WEBSEARCH_ALLOW_PRIVATE_ADDRESSES: 'yes' },
      argv: ['--port', '9100', '--fetch-timeout-ms=2000', '--no-robots'],
    });
    expect(c.server.port).toBe(9100);
    expect(c.fetch.allowPrivateAddresses).toBe(true);
    expect(c.fetch.timeoutMs).toBe(2000);
    expect(c.robots.enabled).toBe(false);
  });

  it('reports every problem at once', () => {
    let error: unknown;
    try {
      loadConfig({
        env: { WEBSEARCH_PORT: '70000', WEBSEARCH_FETCH_MAX_BYTES: 'lots', WEBSEARCH_ROBOTS: 'maybe' },
        argv: ['--log-level', 'loud'],
      });
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const problems = (error as ConfigError).problems;
    expect(problems).toHaveLength(4);
    expect(problems.join('\n')).toMatch(/WEBSEARCH_PORT[\s\S]*WEBSEARCH_FETCH_MAX_BYTES[\s\S]*--log-level|--log-level/);
  });

  it('reports bad settings and a conflict between settings together, each once', () => {
    let error: unknown;
    try {
      loadConfig({
        env: {
          WEBSEARCH_PORT: 'eighty',
          WEBSEARCH_ROBOTS: 'maybe',
          WEBSEARCH_FETCH_TIMEOUT_MS: '90000',
          WEBSEARCH_FETCH_MAX_TIMEOUT_MS: '60000',
          WEBSEARCH_STORE: 'redis',
          REDIS_URL: 'http://cache:6379',
        },
      });
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(ConfigError);
    // A rule between settings runs only when the settings it reads parsed: the bad REDIS_URL
    // is reported by itself, not a second time as "needs REDIS_URL".
    expect((error as ConfigError).problems).toEqual([
      expect.stringMatching(/^WEBSEARCH_PORT: .* \(got "eighty"\)$/),
      expect.stringMatching(/^WEBSEARCH_ROBOTS: .* \(got "maybe"\)$/),
      expect.stringMatching(/^REDIS_URL: must be a redis:\/\/ or rediss:\/\/ URL \(got "http:\/\/cache:6379"\)$/),
      'WEBSEARCH_FETCH_TIMEOUT_MS (90000) exceeds WEBSEARCH_FETCH_MAX_TIMEOUT_MS (60000)',
    ]);
  });

  it('reports every conflict between settings, not only the first', () => {
    const problems = (() => {
      try {
        loadConfig({
          env: {
            CHROMIUM_PATH: '/nowhere/chromium',
            WEBSEARCH_STORE: 'redis',
            WEBSEARCH_FETCH_TIMEOUT_MS: '90000',
            WEBSEARCH_HEADERS_TIMEOUT_MS: '40000',
          },
          fileExists: () => false,
        });
      } catch (err) {
        return (err as ConfigError).problems;
      }
      return [];
    })();
    expect(problems).toEqual([
      expect.stringMatching(/^CHROMIUM_PATH: no file at \/nowhere\/chromium/),
      'WEBSEARCH_STORE=redis needs REDIS_URL (e.g. redis://127.0.0.1:6379/0)',
      'WEBSEARCH_FETCH_TIMEOUT_MS (90000) exceeds WEBSEARCH_FETCH_MAX_TIMEOUT_MS (60000)',
      'WEBSEARCH_HEADERS_TIMEOUT_MS (40000) exceeds WEBSEARCH_REQUEST_TIMEOUT_MS (30000)',
    ]);
  });

  it('caps the robots.txt cache lifetime at 24 hours (RFC 9309 2.4)', () => {
    expect(() => loadConfig({ env: { WEBSEARCH_ROBOTS_CACHE_TTL_MS: String(25 * 3600_000) } })).toThrow(ConfigError);
  });

  it('sizes the conversion pool to the machine, and refuses a pool without threads or memory', () => {
    expect(loadConfig({ env: {} }).convert).toEqual({
      threads: availableParallelism(),
      maxQueue: 256,
      memoryMb: 512,
      timeoutMs: 10_000,
    });
    expect(
      loadConfig({
        env: { WEBSEARCH_CONVERT_THREADS: '3', WEBSEARCH_CONVERT_TIMEOUT_MS: '2500' },
        argv: ['--convert-queue', '8', '--convert-memory-mb=128'],
      }).convert,
    ).toEqual({ threads: 3, maxQueue: 8, memoryMb: 128, timeoutMs: 2_500 });
    expect(loadConfig({ env: {}, argv: ['--convert-timeout-ms', '700'] }).convert.timeoutMs).toBe(700);
    expect(() => loadConfig({ env: { WEBSEARCH_CONVERT_THREADS: '0', WEBSEARCH_CONVERT_MEMORY_MB: '8' } })).toThrow(
      /WEBSEARCH_CONVERT_THREADS[\s\S]*WEBSEARCH_CONVERT_MEMORY_MB/,
    );
    // A conversion budget of nothing, or longer than any deadline, is a mistake.
    expect(() => loadConfig({ env: { WEBSEARCH_CONVERT_TIMEOUT_MS: '0' } })).toThrow(/WEBSEARCH_CONVERT_TIMEOUT_MS/);
    expect(() => loadConfig({ env: { WEBSEARCH_CONVERT_TIMEOUT_MS: '600000' } })).toThrow(
      /WEBSEARCH_CONVERT_TIMEOUT_MS/,
    );
  });

  it('refuses a default timeout above the maximum', () => {
    expect(() =>
      loadConfig({ env: { WEBSEARCH_FETCH_TIMEOUT_MS: '90000', WEBSEARCH_FETCH_MAX_TIMEOUT_MS: '60000' } }),
    ).toThrow(/exceeds/);
  });

  it('refuses a headers timeout above the request timeout (node would throw at start)', () => {
    expect(() =>
      loadConfig({ env: { WEBSEARCH_HEADERS_TIMEOUT_MS: '40000', WEBSEARCH_REQUEST_TIMEOUT_MS: '30000' } }),
    ).toThrow(/WEBSEARCH_HEADERS_TIMEOUT_MS \(40000\) exceeds WEBSEARCH_REQUEST_TIMEOUT_MS/);
    const config = loadConfig({ env: {} });
    expect(config.server).toMatchObject({
      headersTimeoutMs: 10_000,
      requestTimeoutMs: 30_000,
      keepAliveTimeoutMs: 5_000,
      maxConnections: 2_000,
    });
    expect(config.mcp).toMatchObject({ maxSessions: 1_000, maxSessionsPerKey: 100, sessionIdleMs: 30 * 60_000 });
  });
});

describe('rendering settings', () => {
  it('picks the first Chromium that exists, or none', () => {
    const exists = (found: string[]) => (path: string) => found.includes(path);
    expect(loadConfig({ env: {}, fileExists: exists(['/usr/bin/chromium-browser']) }).render).toEqual({
      mode: 'auto',
      pages: 4,
      heapMb: 256,
      pageMemoryMb: 512,
      memoryMb: 3_072,
      screenshotMaxHeight: 8_000,
      screenshotMaxBytes: 5 * 1024 * 1024,
      chromiumPath: '/usr/bin/chromium-browser',
      browserEndpointKind: 'auto',
    });
    expect(
      loadConfig({ env: {}, fileExists: exists(['/usr/bin/chromium', '/usr/bin/chromium-browser']) }).render
        .chromiumPath,
    ).toBe('/usr/bin/chromium');
    expect(loadConfig({ env: {}, fileExists: exists([]) }).render.chromiumPath).toBeUndefined();
    expect(
      loadConfig({ env: { CHROMIUM_PATH: '/opt/chrome/chrome' }, fileExists: exists(['/opt/chrome/chrome']) }).render
        .chromiumPath,
    ).toBe('/opt/chrome/chrome');
  });

  it("refuses memory bounds out of order: a page's heap inside its renderer, the renderers inside the browser", () => {
    for (const env of [
      { WEBSEARCH_RENDER_HEAP_MB: '512', WEBSEARCH_RENDER_PAGE_MEMORY_MB: '512' },
      { WEBSEARCH_RENDER_PAGE_MEMORY_MB: '4096', WEBSEARCH_RENDER_MEMORY_MB: '2048' },
    ]) {
      expect(() => loadConfig({ env }), JSON.stringify(env)).toThrow(
        /WEBSEARCH_RENDER_HEAP_MB \(\d+\) < WEBSEARCH_RENDER_PAGE_MEMORY_MB/,
      );
    }
    expect(
      loadConfig({
        env: {
          WEBSEARCH_RENDER_HEAP_MB: '128',
          WEBSEARCH_RENDER_PAGE_MEMORY_MB: '256',
          WEBSEARCH_RENDER_MEMORY_MB: '256',
        },
      }).render,
    ).toMatchObject({ heapMb: 128, pageMemoryMb: 256, memoryMb: 256 });
  });

  it('refuses a CHROMIUM_PATH with no file, a bad mode, page cap or stealth proxy', () => {
    expect(() => loadConfig({ env: { CHROMIUM_PATH: '/nowhere/chromium' }, fileExists: () => false })).toThrow(
      /CHROMIUM_PATH: no file at \/nowhere\/chromium/,
    );
    for (const env of [
      { WEBSEARCH_RENDER: 'sometimes' },
      { WEBSEARCH_RENDER_PAGES: '0' },
      { WEBSEARCH_STEALTH_PROXY: 'socks5://proxy:1080' },
      { WEBSEARCH_SCREENSHOT_MAX_BYTES: '100' },
    ]) {
      expect(() => loadConfig({ env }), JSON.stringify(env)).toThrow(ConfigError);
    }
    expect(
      loadConfig({ env: { WEBSEARCH_RENDER: 'never', WEBSEARCH_STEALTH_PROXY: 'http://u:p@proxy.corp:3128' } }).fetch
        .stealthProxy,
    ).toBe('http://u:p@proxy.corp:3128');
  });
});

describe('a credential in a setting error', () => {
  const problemsOf = (env: Record<string, string>): string[] => {
    try {
      loadConfig({ env });
    } catch (err) {
      return (err as ConfigError).problems;
    }
    throw new Error('expected a ConfigError');
  };

  it('is named by its length only, never printed', () => {
    const problems = problemsOf({ WEBSEARCH_METRICS_TOKEN: 'hunter2secret', BRAVE_API_KEY: ' ' });
    expect(problems).toEqual([
      'WEBSEARCH_METRICS_TOKEN: at least 16 characters (e.g. openssl rand -hex 32) (got a value of 13 characters, not shown)',
    ]);
    expect(problems.join('\n')).not.toContain('hunter2');
  });

  it('in a URL loses its user information, the rest stays to debug with', () => {
    const problems = problemsOf({
      WEBSEARCH_STORE: 'redis',
      REDIS_URL: 'http://admin:p@ss@cache:6379/0',
      WEBSEARCH_STEALTH_PROXY: 'socks5://user:hunter2@proxy:1080',
    });
    expect(problems.join('\n')).not.toMatch(/hunter2|p@ss|admin/);
    expect(problems).toContainEqual(expect.stringMatching(/^REDIS_URL: .* \(got "http:\/\/\*\*\*@cache:6379\/0"\)$/));
    expect(problems).toContainEqual(
      expect.stringMatching(/^WEBSEARCH_STEALTH_PROXY: .* \(got "socks5:\/\/\*\*\*@proxy:1080"\)$/),
    );
  });
});

describe('settings given by code (the library config object)', () => {
  it('a name that is no setting is a problem, not silently nothing', () => {
    let error: unknown;
    try {
      loadConfig({ env: {}, overrides: { bogus: 1, store: { path: ':memory:', pth: 'x' } } as never });
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).problems).toEqual([
      'bogus: no such setting',
      'store.pth: no such setting (did you mean store.path?)',
    ]);
    expect(loadConfig({ env: {}, overrides: { store: { path: ':memory:' } } }).store.path).toBe(':memory:');
  });

  it('names the setting probably meant: the nearest path or section, or the one whose variable it is', () => {
    const problems = (overrides: unknown): string[] => {
      try {
        loadConfig({ env: {}, overrides: overrides as never });
      } catch (err) {
        return (err as ConfigError).problems;
      }
      return [];
    };
    expect(problems({ fetch: { allowPrivateAdresses: true } })).toEqual([
      'fetch.allowPrivateAdresses: no such setting (did you mean fetch.allowPrivateAddresses?)',
    ]);
    expect(problems({ fecth: { timeoutMs: 1000 } })).toEqual(['fecth: no such setting (did you mean fetch?)']);
    expect(problems({ WEBSEARCH_PORT: 9000 })).toEqual(['WEBSEARCH_PORT: no such setting (did you mean server.port?)']);
    expect(problems({ server: { zzzzzzzz: 1 } })).toEqual(['server.zzzzzzzz: no such setting']);
  });
});
