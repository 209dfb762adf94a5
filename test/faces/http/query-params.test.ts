/**
 * One rule for a query parameter no route takes (security issue, item 9b): a 400 naming
 * it, whatever its name. `?__proto__=x` used to vanish into the body object's prototype
 * (and the request ran) while `?constructor=x` was refused; names of Object.prototype's
 * own properties and bracketed names go the same way, and nothing reaches a prototype.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { AppError } from '../../../src/core/errors.js';
import { extractRequestSchema, searchRequestSchema } from '../../../src/core/schemas.js';
import { siteCrawlStatusQuerySchema } from '../../../src/core/site-schemas.js';
import { usageQuerySchema } from '../../../src/core/usage-schema.js';
import { validate } from '../../../src/core/validate.js';
import { queryToBody } from '../../../src/faces/http/query-to-body.js';
import type { TestApi } from '../../helpers/test-server.js';
import { startTestApi } from '../../helpers/test-server.js';

const NAMES = ['__proto__', 'constructor', 'toString', 'hasOwnProperty', '__proto__[x]', 'valueOf', 'nope'];

/** The 400 of a query string, as a route reads it: turned into a body, then validated by the same schema. */
function refusal(query: string, schema: z.ZodType = searchRequestSchema): AppError {
  try {
    validate(schema, queryToBody(new URLSearchParams(query), schema));
  } catch (err) {
    if (err instanceof AppError) return err;
    throw err;
  }
  throw new Error(`${query} was accepted`);
}

describe('queryToBody', () => {
  it.each(NAMES)('refuses %s by name, as any unknown parameter', (name) => {
    const err = refusal(`q=tides&${encodeURIComponent(name)}=x`);
    expect(err.code).toBe('invalid_request');
    expect(err.details).toEqual([{ path: name, message: `unknown field "${name}"` }]);
  });

  it('names every unknown parameter with the other issues at once, and gives a body with no prototype', () => {
    expect(refusal('__proto__=a&q=x&constructor=b&max_results=lots').details?.map((d) => d.path)).toEqual([
      'max_results',
      '__proto__',
      'constructor',
    ]);
    const body = queryToBody(new URLSearchParams('q=tides&max_results=3'), searchRequestSchema);
    expect(Object.getPrototypeOf(body)).toBeNull();
    expect({ ...body }).toEqual({ q: 'tides', max_results: 3 });
    expect(({} as Record<string, unknown>).x).toBeUndefined();
  });

  it("refuses unknown names itself for a schema that would let them pass, the routes' schemas refusing them already", () => {
    const open = z.object({ a: z.string().optional() });
    expect(refusal('a=1&__proto__=x', open).details).toEqual([
      { path: '__proto__', message: 'unknown field "__proto__"' },
    ]);
    const routes = [
      searchRequestSchema,
      extractRequestSchema({ maxUrls: 20, maxTimeoutMs: 60_000 }),
      usageQuerySchema,
      siteCrawlStatusQuerySchema,
    ];
    for (const schema of routes)
      expect(refusal('toString=x', schema).details).toContainEqual({
        path: 'toString',
        message: 'unknown field "toString"',
      });
  });
});

describe('unknown query parameters over HTTP', () => {
  let api: TestApi;
  beforeAll(async () => {
    api = await startTestApi();
  });
  afterAll(async () => {
    await api?.close();
  });

  const reader = `/r/${encodeURIComponent('http://127.0.0.1:1/page')}`;
  const cases = NAMES.flatMap((name) =>
    ['/api/search?q=tides', `${reader}?format=markdown`, '/api/usage?limit=5'].map(
      (path) => [`${path}&${encodeURIComponent(name)}=x`, name] as const,
    ),
  );
  it.each(cases)('%s is a 400 naming the parameter', async (target, name) => {
    const res = await fetch(`${api.url}${target}`, { headers: { accept: 'application/json' } });
    expect(res.status).toBe(400);
    const body = (await res.json()) as { error: { code: string; details: { path: string }[] } };
    expect(body.error.code).toBe('invalid_request');
    expect(body.error.details.map((d) => d.path)).toEqual([name]);
  });
});
