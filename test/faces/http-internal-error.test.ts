/**
 * A bug inside a service becomes a 500 `internal_error` whose body carries no stack trace
 * and no internal message; the error is logged instead.
 */
import { describe, expect, it } from 'vitest';
import { silentLogger } from '../../src/core/logger.js';
import type { Logger } from '../../src/core/logger.js';
import { createHttpApp } from '../../src/faces/http/app.js';
import { LOCAL_CALLER } from '../../src/core/caller.js';
import type { Operations } from '../../src/services/operations.js';
import { testConfig } from '../helpers/test-server.js';

describe('500 internal_error', () => {
  it('hides the stack and logs the error', async () => {
    const logged: unknown[] = [];
    const logger: Logger = { ...silentLogger, error: (obj: unknown) => void logged.push(obj) };
    const operations = {
      extract: async () => {
        throw new TypeError('secret internal detail at /srv/app/file.js:12');
      },
    } as unknown as Operations;
    const app = createHttpApp({
      config: testConfig(),
      logger,
      operations,
      auth: { callerOf: async () => LOCAL_CALLER },
      store: { kind: 'sqlite', ping: async () => undefined },
    });
    const res = await app.request('http://127.0.0.1/api/crawl', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ urls: ['https://example.com/'] }),
    });
    expect(res.status).toBe(500);
    const text = await res.text();
    expect(JSON.parse(text)).toEqual({
      error: { code: 'internal_error', message: 'An internal error occurred; it has been logged.' },
    });
    expect(text).not.toMatch(/secret|TypeError|file\.js/);
    expect(logged).toHaveLength(1);
  });
});
