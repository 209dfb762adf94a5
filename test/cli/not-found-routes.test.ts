/**
 * The 404's route list is the server's routes as registered (issue 34, item 18): every
 * route of the 405 table appears with its methods, so a route added later cannot be
 * missing from it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApi } from '../helpers/test-server.js';
import { startTestApi } from '../helpers/test-server.js';

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(async () => {
  await api?.close();
});

describe('404', () => {
  it('lists every route the server answers, with its methods', async () => {
    const res = await fetch(`${api.url}/api/nothing`);
    expect(res.status).toBe(404);
    const { error } = (await res.json()) as { error: { code: string; message: string } };
    expect(error.code).toBe('not_found');
    const listed = error.message
      .replace(/^.*Routes: /, '')
      .replace(/\.$/, '')
      .split(', ');
    for (const route of [
      'GET|POST /api/search',
      'POST /api/crawl',
      'GET /api/usage',
      'GET /healthz',
      'GET /health',
      'GET /openapi.json',
      'GET /metrics',
      'GET|POST|DELETE /mcp',
      'GET /sse',
      'POST /messages',
    ])
      expect(listed, route).toContain(route);
    // Each listed route answers its first method with anything but 404.
    for (const entry of listed) {
      const [methods, path] = entry.split(' ') as [string, string];
      // Streams, and /messages (404 for an unknown session, by design), are left out.
      if (/[*:]/.test(path) || ['/sse', '/mcp', '/messages'].includes(path)) continue;
      const method = methods.split('|')[0] as string;
      const probe = await fetch(`${api.url}${path}`, {
        method,
        ...(method === 'POST' ? { body: '{}', headers: { 'content-type': 'application/json' } } : {}),
      });
      expect(probe.status, entry).not.toBe(404);
    }
  });
});
