/**
 * Two requests node would answer without the error body: CONNECT (dropped without a word
 * when nothing listens for it) and an HTTP/1.1 request without Host (node's empty 400).
 * Both get the JSON error body; HTTP/1.0 may still omit Host. Raw sockets, as no client
 * library sends these.
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

const raw = (head: string): Promise<string> => rawHttp(api.server.port, head);

const bodyOf = (answer: string) => JSON.parse(answer.split('\r\n\r\n')[1] ?? '') as { error: { code: string } };

describe('requests node would answer without a body', () => {
  it('CONNECT: 405 method_not_allowed with Allow and the error body', async () => {
    const answer = await raw('CONNECT 127.0.0.1:9 HTTP/1.1\r\nHost: 127.0.0.1:9\r\n\r\n');
    expect(answer).toMatch(/^HTTP\/1\.1 405 /);
    expect(answer).toMatch(/\r\nallow: GET, POST, DELETE\r\n/i);
    expect(bodyOf(answer).error.code).toBe('method_not_allowed');
  });

  it('HTTP/1.1 without Host: 400 invalid_request with the error body and a request id', async () => {
    const answer = await raw('GET /healthz HTTP/1.1\r\nConnection: close\r\n\r\n');
    expect(answer).toMatch(/^HTTP\/1\.1 400 /);
    expect(answer).toMatch(/\r\nx-request-id: \S+/i);
    expect(bodyOf(answer).error).toMatchObject({ code: 'invalid_request', message: expect.stringMatching(/Host/) });
  });

  it('HTTP/1.0 may omit Host, and the server goes on answering', async () => {
    expect(await raw('GET /healthz HTTP/1.0\r\n\r\n')).toMatch(/^HTTP\/1\.1 200 /);
    expect(
      await raw(`GET /healthz HTTP/1.1\r\nHost: 127.0.0.1:${api.server.port}\r\nConnection: close\r\n\r\n`),
    ).toMatch(/^HTTP\/1\.1 200 /);
  });
});
