/**
 * GuardedFetcher basics against the local fixture site: requests, headers, decoding,
 * hooks and error mapping. Private addresses are allowed here (the fixture is on
 * 127.0.0.1); the address guard has its own file.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../../src/core/errors.js';
import { DEFAULT_ACCEPT, GuardedFetcher } from '../../src/net/guarded-fetcher.js';
import type { ResponseHead } from '../../src/net/fetch-types.js';
import { fetchConfig } from '../helpers/fetch-config.js';
import { GZIP_BOMB_PREFIX } from '../helpers/fixture-binaries.js';
import { ARTICLE_HTML, ARTICLE_TITLE } from '../helpers/fixture-pages.js';
import { startFixtureSite, type FixtureSite } from '../helpers/fixture-site.js';

let site: FixtureSite;
let client: GuardedFetcher;
const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
const u = (path: string) => `${site.origin}${path}`;

/** Two cookies, the first with an Expires that holds a comma, as Set-Cookie headers of their own. */
const COOKIES = ['first=1; Expires=Wed, 21 Oct 2037 07:28:00 GMT; Path=/', 'second=2; Path=/docs'];

beforeAll(async () => {
  site = await startFixtureSite({
    scenarios: [
      {
        path: '/two-cookies',
        description: 'two Set-Cookie headers',
        handle: ({ res }) => {
          res.writeHead(200, [
            ['content-type', 'text/plain'],
            ...COOKIES.map((c) => ['set-cookie', c] as [string, string]),
          ]);
          res.end('cookies');
        },
      },
    ],
  });
  client = new GuardedFetcher(fetchConfig({ allowPrivateAddresses: true, timeoutMs: 5_000 }));
});
afterAll(async () => {
  await client?.close();
  await site?.close();
});

describe('a plain GET', () => {
  it('returns status, lower-cased headers and the body', async () => {
    const res = await client.fetch(u('/html'));
    expect(res.status).toBe(200);
    expect(res.statusText).toBe('OK');
    expect(res.url).toBe(u('/html'));
    expect(res.finalUrl).toBe(u('/html'));
    expect(res.redirects).toEqual([]);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(text(res.body)).toBe(ARTICLE_HTML);
    expect(text(res.body)).toContain(ARTICLE_TITLE);
  });

  it('joins repeated headers with ", ", but Set-Cookie with a line break (an Expires holds a comma)', async () => {
    const res = await client.fetch(u('/two-cookies'));
    expect(res.headers['set-cookie']).toBe(COOKIES.join('\n'));
  });

  it('returns error statuses instead of throwing', async () => {
    const res = await client.fetch(u('/status/404'));
    expect(res.status).toBe(404);
    expect(res.statusText).toBe('Not Found');
    expect(text(res.body)).toBe('Status 404');
    const down = await client.fetch(u('/status/503'));
    expect(down.status).toBe(503);
  });

  it('handles an empty body and a body-less status', async () => {
    expect((await client.fetch(u('/empty'))).body.length).toBe(0);
    const noContent = await client.fetch(u('/status/204'));
    expect(noContent.status).toBe(204);
    expect(noContent.body.length).toBe(0);
  });

  it('sends the default headers, and the caller overrides them case-insensitively', async () => {
    const res = await client.fetch(u('/echo'));
    const echoed = JSON.parse(text(res.body)).headers;
    expect(echoed['user-agent']).toBe(fetchConfig().userAgent);
    expect(echoed['user-agent']).toMatch(/websearch-mcp/);
    expect(echoed.accept).toBe(DEFAULT_ACCEPT);
    expect(echoed['accept-encoding']).toBe('gzip, deflate, br');
    expect(echoed['accept-language']).toBe('en;q=0.9, *;q=0.5');
    const custom = await client.fetch(u('/echo'), { headers: { Accept: 'application/json', 'X-Extra': '1' } });
    const headers = JSON.parse(text(custom.body)).headers;
    expect(headers.accept).toBe('application/json');
    expect(headers['x-extra']).toBe('1');
  });

  it('sends POST bodies and HEAD requests', async () => {
    const post = await client.fetch(u('/echo'), {
      method: 'POST',
      body: 'q=harbour',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(JSON.parse(text(post.body))).toMatchObject({ method: 'POST', body: 'q=harbour' });
    const head = await client.fetch(u('/html'), { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.body.length).toBe(0);
  });

  it('strips credentials from the URL and never sends them', async () => {
    const res = await client.fetch(`http://user:secret@127.0.0.1:${site.port}/echo`);
    expect(res.url).toBe(u('/echo'));
    expect(JSON.parse(text(res.body)).headers.authorization).toBeUndefined();
  });

  it('does not send the fragment', async () => {
    const before = site.requests().length;
    const res = await client.fetch(u('/echo#section'));
    expect(res.finalUrl).toBe(u('/echo#section'));
    expect(site.requests()[before]?.path).toBe('/echo');
  });
});

describe('URL validation', () => {
  it.each([
    'not a url',
    '/relative',
    'ftp://example.com/file',
    'file:///etc/passwd',
    'javascript:alert(1)',
    'data:text/html,hi',
  ])('refuses %j with invalid_url', async (url) => {
    await expect(client.fetch(url)).rejects.toMatchObject({ code: 'invalid_url' });
  });
});

describe('content decoding', () => {
  it.each([
    '/gzip',
    '/brotli',
    '/deflate',
    '/deflate-raw',
    '/encoded?ce=x-gzip',
    '/encoded?ce=gzip,br',
    '/encoded?ce=deflate,gzip',
    '/encoded?ce=identity',
  ])('decodes %s', async (path) => {
    const res = await client.fetch(u(path));
    expect(text(res.body)).toBe(ARTICLE_HTML);
  });

  it('refuses an unknown encoding as unsupported_content_type', async () => {
    const error = await client.fetch(u('/encoded?ce=zstd')).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'unsupported_content_type', statusCode: 200 });
  });

  it('refuses a chain of more than two encodings', async () => {
    await expect(client.fetch(u('/encoded?ce=gzip,br,gzip'))).rejects.toMatchObject({
      code: 'unsupported_content_type',
    });
  });

  it('reports corrupt compressed bytes as a network error', async () => {
    const error = await client.fetch(u('/corrupt-gzip')).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'network', statusCode: 200 });
    expect((error as AppError).message).toMatch(/could not decode/);
  });
});

describe('hooks', () => {
  it('onHead sees the final head before the body; throwing aborts with that very error', async () => {
    const heads: ResponseHead[] = [];
    const res = await client.fetch(u('/redirect/1'), { onHead: (head) => void heads.push(head) });
    expect(heads).toHaveLength(1);
    expect(heads[0]).toMatchObject({ status: 200, finalUrl: u('/html'), redirects: [u('/redirect/1')] });
    expect(res.body.length).toBeGreaterThan(0);

    const refusal = new AppError('unsupported_content_type', 'not HTML');
    await expect(
      client.fetch(u('/pdf'), {
        onHead: () => {
          throw refusal;
        },
      }),
    ).rejects.toBe(refusal);
    const plain = new Error('plain error from a hook');
    await expect(
      client.fetch(u('/html'), {
        onHead: () => {
          throw plain;
        },
      }),
    ).rejects.toBe(plain);
  });

  it('onFirstBytes gets the first 4100 decoded bytes (or the whole short body) once', async () => {
    const calls: number[] = [];
    const big = await client.fetch(u('/huge-chunked'), {
      truncateAt: 100_000,
      onFirstBytes: (bytes) => void calls.push(bytes.length),
    });
    expect(calls).toEqual([4100]);
    expect(big.body.length).toBe(100_000);
    // Decoded bytes, not wire bytes: the gzip bomb opens with an HTML head, then spaces.
    const first: Uint8Array[] = [];
    await client.fetch(u('/gzip-bomb'), { truncateAt: 10_000, onFirstBytes: (bytes) => void first.push(bytes) });
    expect(first[0]?.length).toBe(4100);
    expect(text(first[0] as Uint8Array)).toMatch(new RegExp(`^${GZIP_BOMB_PREFIX} +$`));
    const small: Uint8Array[] = [];
    await client.fetch(u('/text'), { onFirstBytes: (bytes) => void small.push(bytes) });
    expect(small).toHaveLength(1);
    expect(text(small[0] as Uint8Array)).toMatch(/^Harbour office notes/);
    const empty: number[] = [];
    await client.fetch(u('/empty'), { onFirstBytes: (bytes) => void empty.push(bytes.length) });
    expect(empty).toEqual([0]);
  });

  it('onFirstBytes may be async, and throwing (sync or async) aborts the download', async () => {
    let head: ResponseHead | undefined;
    const seen: string[] = [];
    await client.fetch(u('/pdf'), {
      onFirstBytes: async (bytes, h) => {
        await new Promise((resolve) => setTimeout(resolve, 10));
        seen.push(text(bytes.subarray(0, 5)));
        head = h;
      },
    });
    expect(seen).toEqual(['%PDF-']);
    expect(head?.headers['content-type']).toBe('application/pdf');

    const binary = new AppError('unsupported_content_type', 'PDF');
    await expect(client.fetch(u('/pdf-as-html'), { onFirstBytes: async () => Promise.reject(binary) })).rejects.toBe(
      binary,
    );
    const before = site.bytesWritten('/huge-chunked');
    const sync = new AppError('blocked', 'stop');
    await expect(
      client.fetch(u('/huge-chunked'), {
        onFirstBytes: () => {
          throw sync;
        },
      }),
    ).rejects.toBe(sync);
    // The 12 MiB body was not downloaded after the hook refused it.
    expect(site.bytesWritten('/huge-chunked') - before).toBeLessThan(12 * 1024 * 1024);
  });
});

describe('network errors', () => {
  it('maps a refused connection', async () => {
    const error = await client.fetch('http://127.0.0.1:1/').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({ code: 'network', retryable: true });
    expect((error as AppError).message).toMatch(/connection refused/);
  });

  it('maps a DNS failure', async () => {
    const error = await client.fetch('http://example.invalid/').catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'network' });
    expect((error as AppError).message).toMatch(/could not resolve host example\.invalid/);
  });

  it('maps a Content-Length that announces more than is sent (no hang)', async () => {
    const started = Date.now();
    await expect(client.fetch(u('/content-length-lie'))).rejects.toMatchObject({ code: 'network', statusCode: 200 });
    expect(Date.now() - started).toBeLessThan(3_000);
  });

  it('survives a Content-Length that announces less than is sent', async () => {
    const res = await client.fetch(u('/content-length-lie-more')).catch((e: unknown) => e);
    // Either the announced 10 bytes, or a network error — never a hang or a crash.
    if (res instanceof AppError) expect(res.code).toBe('network');
    else expect((res as { body: Uint8Array }).body.length).toBe(10);
  });
});
