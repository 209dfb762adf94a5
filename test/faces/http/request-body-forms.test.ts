/**
 * What a careless client sends the JSON API besides plain UTF-8 JSON: a compressed body, a
 * BOM, bytes that are not UTF-8; and in a query string, numbers the schema must judge by
 * value (`max_results=1.5` is not an int, not "a string") and a scalar given twice.
 */
import { gzipSync } from 'node:zlib';
import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { toAppError } from '../../../src/core/errors.js';
import { extractRequestSchema, searchRequestSchema } from '../../../src/core/schemas.js';
import { appErrorResponse } from '../../../src/faces/http/error-response.js';
import { queryToBody, splitTopLevel } from '../../../src/faces/http/query-to-body.js';
import { readJsonBody } from '../../../src/faces/http/read-json-body.js';

const app = new Hono();
app.post('/echo', async (c) => c.json({ body: await readJsonBody(c, 1024) }));
app.onError((err, c) => appErrorResponse(c, toAppError(err)));

async function post(body: string | Uint8Array, headers: Record<string, string> = {}) {
  const res = await app.request('/echo', {
    method: 'POST',
    body,
    headers: { 'content-type': 'application/json', ...headers },
  });
  return { status: res.status, json: (await res.json()) as Record<string, any> };
}

describe('request bodies', () => {
  it('refuses a compressed body with 415 rather than parsing its bytes as JSON', async () => {
    const res = await post(gzipSync('{"urls":["https://example.com/"]}'), { 'content-encoding': 'gzip' });
    expect(res.status).toBe(415);
    expect(res.json.error.code).toBe('unsupported_media_type');
    expect(res.json.error.message).toContain('gzip');
  });

  it('takes an identity Content-Encoding', async () => {
    const res = await post('{"a":1}', { 'content-encoding': 'identity' });
    expect(res).toEqual({ status: 200, json: { body: { a: 1 } } });
  });

  it('drops a leading UTF-8 BOM (RFC 8259 8.1)', async () => {
    const res = await post(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('{"q":"café"}')]));
    expect(res).toEqual({ status: 200, json: { body: { q: 'café' } } });
  });

  it('refuses bytes that are not UTF-8 instead of turning them into U+FFFD', async () => {
    const res = await post(Buffer.from([...Buffer.from('{"q":"'), 0xff, 0xfe, ...Buffer.from('"}')]));
    expect(res.status).toBe(400);
    expect(res.json.error.code).toBe('invalid_request');
    expect(res.json.error.details).toEqual([{ path: '(body)', message: 'not valid UTF-8' }]);
  });
});

describe('query strings', () => {
  const issues = (query: string) => {
    const result = searchRequestSchema.safeParse(queryToBody(new URLSearchParams(query), searchRequestSchema));
    return result.success ? [] : result.error.issues.map((i) => ({ path: i.path.join('.'), code: i.code }));
  };

  it('hands a decimal to an integer field as a number, so the schema says it is not an int', () => {
    expect(issues('q=x&max_results=1.5')).toEqual([{ path: 'max_results', code: 'invalid_type' }]);
    const parsed = queryToBody(new URLSearchParams('q=x&max_results=1.5'), searchRequestSchema);
    expect(parsed.max_results).toBe(1.5);
  });

  it('reads exponent notation as JSON does, and keeps hex, Infinity and the empty string as text', () => {
    expect(queryToBody(new URLSearchParams('max_results=1e1'), searchRequestSchema).max_results).toBe(10);
    for (const raw of ['0x10', 'Infinity', '', 'abc'])
      expect(queryToBody(new URLSearchParams(`max_results=${raw}`), searchRequestSchema).max_results).toBe(raw);
  });

  it('refuses a scalar given twice with different values, by path, instead of taking one', () => {
    let thrown: unknown;
    try {
      queryToBody(
        new URLSearchParams('q=first&q=second&max_results=3&max_results=3&engines=a&engines=b'),
        searchRequestSchema,
      );
    } catch (err) {
      thrown = err;
    }
    expect(toAppError(thrown).code).toBe('invalid_request');
    expect(toAppError(thrown).details).toEqual([
      { path: 'q', message: 'given 2 times; only list parameters may repeat' },
    ]);
  });

  it('takes a scalar repeated with the same value, and merges repeated list values', () => {
    const body = queryToBody(new URLSearchParams('q=x&q=x&engines=a&engines=b,c'), searchRequestSchema);
    expect(body).toEqual({ q: 'x', engines: ['a', 'b', 'c'] });
  });
});

describe('list values in a query string', () => {
  it('are split at the commas outside brackets and quotes, so a selector keeps its own commas', () => {
    expect(splitTopLevel('h1, h2')).toEqual(['h1', ' h2']);
    expect(splitTopLevel('p:is(.a, .b),nav')).toEqual(['p:is(.a, .b)', 'nav']);
    expect(splitTopLevel('[title="a,b"],[data-x=\'c,d\']')).toEqual(['[title="a,b"]', "[data-x='c,d']"]);
    expect(splitTopLevel('a\\,b,c')).toEqual(['a\\,b', 'c']);
    const body = queryToBody(
      new URLSearchParams('urls=https://example.test/&include_selectors=p:is(.a,%20.b),h1'),
      extractRequestSchema({ maxUrls: 10, maxTimeoutMs: 60_000 }),
    );
    expect(body.include_selectors).toEqual(['p:is(.a, .b)', 'h1']);
  });
});
