/**
 * The refusal count of /metrics counts refused credentials only: a store that does not
 * answer while a key is checked is store_unavailable, not an unauthorized request.
 */
import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { AppError } from '../../../src/core/errors.js';
import type { Authenticator } from '../../../src/faces/http/auth.js';
import { requireCaller } from '../../../src/faces/http/auth.js';

function appRefusing(error: Error, refused: string[]): Hono {
  const auth: Authenticator = { callerOf: () => Promise.reject(error) };
  const app = new Hono();
  app.onError((err, c) => c.json({ code: err instanceof AppError ? err.code : 'internal_error' }, 500));
  app.use(
    '*',
    requireCaller(auth, (code) => refused.push(code)),
  );
  app.get('/x', (c) => c.text('ok'));
  return app;
}

describe('requireCaller', () => {
  it('counts a refused key as unauthorized', async () => {
    const refused: string[] = [];
    const res = await appRefusing(new AppError('unauthorized', 'no key'), refused).request('/x');
    expect(((await res.json()) as { code: string }).code).toBe('unauthorized');
    expect(refused).toEqual(['unauthorized']);
  });

  it('does not count a store that did not answer, nor an unexpected error', async () => {
    const refused: string[] = [];
    const down = await appRefusing(new AppError('store_unavailable', 'the store is down'), refused).request('/x');
    expect(((await down.json()) as { code: string }).code).toBe('store_unavailable');
    await appRefusing(new Error('socket closed'), refused).request('/x');
    expect(refused).toEqual([]);
  });
});
