/**
 * Request targets node parses but no URL can be made of (issue 34, item 7) get the one
 * JSON error body, as every other error does, not a 400 with an empty body. Raw sockets,
 * since no HTTP client sends these.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApi } from '../helpers/test-server.js';
import { rawHttp } from '../helpers/raw-http.js';
import { startTestApi } from '../helpers/test-server.js';

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(async () => {
  await api?.close();
});

/** Sends one raw request with a Host header and reads the answer. */
function raw(requestLine: string, host = `127.0.0.1:${api.server.port}`): Promise<string> {
  return rawHttp(api.server.port, `${requestLine}\r\nHost: ${host}\r\nConnection: close\r\n\r\n`);
}

describe('request targets that make no URL', () => {
  it.each([
    'GET * HTTP/1.1',
    'OPTIONS * HTTP/1.1',
    'GET /a\\b HTTP/1.1',
    'GET http://[::1 HTTP/1.1',
    'GET ftp://x/ HTTP/1.1',
  ])('%s: 400 invalid_request with the JSON error body', async (line) => {
    const answer = await raw(line);
    expect(answer).toMatch(/^HTTP\/1\.1 400 /);
    expect(answer).toMatch(/\r\ncontent-type: application\/json/i);
    const body = JSON.parse(answer.split('\r\n\r\n')[1] ?? '');
    expect(body).toEqual({ error: { code: 'invalid_request', message: expect.stringMatching(/request target/) } });
  });

  it('and the server goes on answering', async () => {
    expect(await raw('GET /healthz HTTP/1.1')).toMatch(/^HTTP\/1\.1 200 /);
  });
});
