/**
 * The operator's routes of the real server: /healthz (and 503 when the store is gone),
 * /metrics (Prometheus text, behind a key or the metrics token once keys exist),
 * /openapi.json (generated from the schemas the endpoints use), the allowed public host
 * names behind a proxy, and a graceful stop that lets in-flight work finish.
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { extractRequestSchema } from '../../src/core/schemas.js';
import { mapRequestSchema, siteCrawlRequestSchema } from '../../src/core/site-schemas.js';
import { startFakeEngines } from '../helpers/fake-engines.js';
import { startFixtureSite } from '../helpers/fixture-site.js';
import { spawnServe } from '../helpers/spawn-cli.js';
import type { TestApi, TestApiOptions } from '../helpers/test-server.js';
import { startTestApi } from '../helpers/test-server.js';

type Site = Awaited<ReturnType<typeof startFixtureSite>>;
let site: Site;
beforeAll(async () => {
  site = await startFixtureSite();
});
afterAll(async () => {
  await site?.close();
});

const apis: TestApi[] = [];
afterEach(async () => {
  await Promise.all(apis.splice(0).map((a) => a.close().catch(() => undefined)));
});
async function api(
  overrides: Parameters<typeof startTestApi>[0] = {},
  beforeStart?: TestApiOptions['beforeStart'],
): Promise<TestApi> {
  const started = await startTestApi({ cache: { ttlMs: 0 }, ...overrides }, beforeStart ? { beforeStart } : {});
  apis.push(started);
  return started;
}

describe('/healthz', () => {
  it('is ok while the store answers and 503 when it does not, without a key', async () => {
    const a = await api();
    await a.core.keys.create({ name: 'x' });
    const ok = await fetch(`${a.url}/healthz`);
    expect(ok.status).toBe(200);
    expect(await ok.json()).toMatchObject({ status: 'ok', store: 'sqlite' });
    expect((await fetch(`${a.url}/health`)).status).toBe(200);
    await a.core.store.close();
    const down = await fetch(`${a.url}/healthz`);
    expect(down.status).toBe(503);
    expect(await down.json()).toMatchObject({ status: 'unavailable', store: 'sqlite' });
  });
});

describe('/metrics', () => {
  it('counts requests by route, credits and refusals, in the Prometheus text format', async () => {
    const token = 'operator-metrics-token';
    const a = await api({ auth: { metricsToken: token } });
    const operator = { headers: { authorization: `Bearer ${token}` } };
    const crawl = (headers: Record<string, string> = {}) =>
      fetch(`${a.url}/api/crawl`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify({ urls: [`${site.origin}/text`] }),
      });
    expect((await crawl()).status).toBe(200);
    await fetch(`${a.url}/no/such/route/${Math.random()}`);
    const open = await fetch(`${a.url}/metrics`, operator);
    expect(open.status).toBe(200);
    expect(open.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = await open.text();
    expect(text).toMatch(/websearch_http_requests_total\{route="\/api\/crawl",method="POST",status="200"\} 1/);
    expect(text).toMatch(/websearch_http_requests_total\{route="other",method="GET",status="404"\} 1/);
    expect(text).toMatch(
      /websearch_http_request_duration_seconds_bucket\{le="0\.005",route="\/api\/crawl",method="POST"\}/,
    );
    expect(text).toMatch(/websearch_pages_total\{outcome="success"\} 1/);
    expect(text).toMatch(/websearch_mcp_sessions\{transport="streamable_http"\} 0/);
    expect(text).toMatch(/websearch_process_resident_memory_bytes \d+/);

    // Server-wide counts are the operator's: an API key does not open them, the metrics token does.
    const { secret } = await a.core.keys.create({ name: 'ops', credits: 10 });
    expect((await crawl({ 'x-api-key': secret })).status).toBe(200);
    expect((await crawl()).status).toBe(401);
    const refused = await fetch(`${a.url}/metrics`);
    expect(refused.status).toBe(401);
    expect(refused.headers.get('www-authenticate')).toBe('Bearer');
    expect((await fetch(`${a.url}/metrics`, { headers: { authorization: `Bearer ${secret}` } })).status).toBe(401);
    const keyed = await (await fetch(`${a.url}/metrics`, operator)).text();
    expect(keyed).toMatch(/websearch_credits_charged_total\{operation="crawl"\} 1/);
    expect(keyed).toMatch(/websearch_requests_refused_total\{code="unauthorized"\} 1/);
    expect(keyed).toMatch(/websearch_http_requests_total\{route="\/api\/crawl",method="POST",status="401"\} 1/);
  });

  it('counts engine calls by outcome, suspensions and search cache hits', async () => {
    const fake = await startFakeEngines();
    try {
      const a = await api({
        engines: fake.engineConfig,
        search: { duckduckgoIntervalMs: 0, cacheTtlMs: 60_000, engineTimeoutMs: 1500 },
      });
      fake.setScenario('wikipedia', 'results');
      fake.setScenario('mojeek', 'captcha');
      fake.setScenario('searxng', 'server_error');
      // A full answer is cached (a partial one is not): the repeat is a hit.
      const full = () => a.post('/api/search', { q: 'harbour tides', engines: ['wikipedia'] });
      expect((await full()).status).toBe(200);
      expect((await full()).status).toBe(200);
      expect((await a.post('/api/search', { q: 'moorings', engines: ['wikipedia', 'mojeek', 'searxng'] })).status).toBe(
        200,
      );
      const text = await (await fetch(`${a.url}/metrics`)).text();
      expect(text).toMatch(/websearch_engine_calls_total\{engine="wikipedia",outcome="ok"\} 2/);
      expect(text).toMatch(/websearch_engine_calls_total\{engine="mojeek",outcome="blocked"\} 1/);
      expect(text).toMatch(/websearch_engine_calls_total\{engine="searxng",outcome="http"\} 1/);
      expect(text).toMatch(/websearch_engine_suspensions_total\{engine="mojeek",reason="blocked"\} 1/);
      expect(text).toMatch(/websearch_cache_lookups_total\{kind="search",result="hit"\} 1/);
      expect(text).toMatch(/websearch_cache_lookups_total\{kind="search",result="miss"\} 2/);
    } finally {
      await fake.close();
    }
  });

  it('accepts the metrics token instead of a key', async () => {
    const a = await api({ auth: { metricsToken: 'scrape-me-please' } });
    expect((await fetch(`${a.url}/metrics`)).status).toBe(401);
    expect((await fetch(`${a.url}/metrics`, { headers: { authorization: 'Bearer scrape-me-please' } })).status).toBe(
      200,
    );
    expect((await fetch(`${a.url}/metrics`, { headers: { authorization: 'Bearer scrape-me-pleasE' } })).status).toBe(
      401,
    );
  });
});

describe('/openapi.json', () => {
  it('describes every route, and its request schemas accept and refuse what the endpoints do', async () => {
    const a = await api();
    await a.core.keys.create({ name: 'x' });
    const res = await fetch(`${a.url}/openapi.json`);
    expect(res.status).toBe(200);
    const doc = (await res.json()) as any;
    expect(doc.openapi).toBe('3.1.0');
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining([
        '/api/search',
        '/api/crawl',
        '/api/map',
        '/api/site-crawls',
        '/api/site-crawls/{id}',
        '/healthz',
        '/metrics',
        '/openapi.json',
        '/mcp',
        '/sse',
        '/messages',
      ]),
    );
    expect(doc.components.securitySchemes).toMatchObject({
      bearerAuth: { type: 'http', scheme: 'bearer' },
      apiKeyHeader: { type: 'apiKey', in: 'header', name: 'x-api-key' },
    });
    for (const [path, methods] of Object.entries(doc.paths) as [string, Record<string, any>][]) {
      for (const [method, op] of Object.entries(methods)) {
        // The metered routes (/api/usage and a site crawl's reads and cancel charge nothing, so they have no 402).
        if (path.startsWith('/api/') && path !== '/api/usage' && path !== '/api/site-crawls/{id}') {
          expect(Object.keys(op.responses), `${method} ${path}`).toEqual(
            expect.arrayContaining(['200', '400', '401', '402', '429', '500']),
          );
          expect(op.responses['401'].headers['WWW-Authenticate'], `${method} ${path}`).toBeDefined();
          expect(op.responses['429'].headers['Retry-After'], `${method} ${path}`).toBeDefined();
        }
        // The MCP routes: one body limit, and the session caps.
        if (['/mcp', '/sse', '/messages'].includes(path)) {
          expect(Object.keys(op.responses), `${method} ${path}`).toEqual(
            expect.arrayContaining(['200', '400', '403', '413', '415', '429', '503']),
          );
          expect(op.responses['429'].description, `${method} ${path}`).toMatch(/too_many_sessions/);
          expect(op.responses['503'].headers['Retry-After'], `${method} ${path}`).toBeDefined();
        }
      }
    }
    // Every $ref resolves.
    const refs = [...JSON.stringify(doc).matchAll(/"\$ref":"#\/components\/schemas\/([^"]+)"/g)].map(
      (m) => m[1] as string,
    );
    expect(refs.length).toBeGreaterThan(5);
    for (const name of refs) expect(doc.components.schemas[name], name).toBeDefined();

    const ajv = new Ajv2020({ strict: false });
    const validate = ajv.compile(doc.components.schemas.CrawlRequest);
    const zod = extractRequestSchema({ maxUrls: 10, maxTimeoutMs: a.core.config.fetch.maxTimeoutMs });
    const samples = [
      { urls: ['https://example.com/'] },
      { urls: ['https://example.com/'], format: 'html', stealth: true, max_chars: 10, start_char: 5 },
      { urls: [] },
      { urls: Array.from({ length: 11 }, () => 'https://example.com/') },
      { urls: ['x'], format: 'pdf' },
      { urls: ['x'], extra: 1 },
      { urls: ['x'], timeout_ms: 50 },
      {},
    ];
    for (const body of samples) expect(validate(body), JSON.stringify(body)).toBe(zod.safeParse(body).success);
    // A site's routes: the job is named by Location, read and cancelled by its id (404 for another key's).
    const start = doc.paths['/api/site-crawls'].post;
    expect(Object.keys(start.responses)).toEqual(expect.arrayContaining(['200', '202', '400', '401', '402', '429']));
    expect(start.responses['202'].headers.Location).toBeDefined();
    expect(start.responses['202'].content['application/json'].schema.$ref).toBe('#/components/schemas/SiteCrawlStatus');
    for (const method of ['get', 'delete']) {
      const op = doc.paths['/api/site-crawls/{id}'][method];
      expect(Object.keys(op.responses), method).toEqual(expect.arrayContaining(['200', '401', '404']));
      expect(op.parameters.find((p: { name: string }) => p.name === 'id')).toMatchObject({
        in: 'path',
        required: true,
      });
    }
    expect(doc.paths['/api/site-crawls/{id}'].get.parameters.map((p: { name: string }) => p.name)).toEqual([
      'id',
      'cursor',
      'limit',
      'wait_ms',
    ]);
    const mapValidate = ajv.compile(doc.components.schemas.MapRequest);
    for (const body of [
      { url: 'https://example.com' },
      { url: 'x', sitemap: 'only', limit: 5 },
      { url: 'x', sitemap: 'all' },
      {},
    ])
      expect(mapValidate(body), JSON.stringify(body)).toBe(mapRequestSchema.safeParse(body).success);
    const crawlValidate = ajv.compile(doc.components.schemas.SiteCrawlRequest);
    const siteZod = siteCrawlRequestSchema({
      maxTimeoutMs: a.core.config.fetch.maxTimeoutMs,
      maxJobTimeoutMs: a.core.config.site.maxJobTimeoutMs,
    });
    for (const body of [
      { url: 'https://example.com' },
      { url: 'x', limit: 5, max_depth: 1, include_paths: ['/docs/**'], wait_ms: 1000 },
      { url: 'x', limit: 0 },
      { url: 'x', wait_ms: 60_001 },
      { url: 'x', screenshot: true },
    ])
      expect(crawlValidate(body), JSON.stringify(body)).toBe(siteZod.safeParse(body).success);
    // No key is needed to read it.
    expect(doc.paths['/openapi.json'].get.security).toEqual([]);
  });
});

describe('behind a reverse proxy', () => {
  it('accepts the public host names it was given, and still refuses others', async () => {
    let secret = '';
    const a = await api({ auth: { allowedHosts: ['search.example.com'] } }, async (core) => {
      ({ secret } = await core.keys.create({ name: 'proxy' }));
    });
    const port = new URL(a.url).port;
    const { request } = await import('node:http');
    const status = (host: string) =>
      new Promise<number>((resolve, reject) => {
        const req = request(
          {
            host: '127.0.0.1',
            port,
            path: '/api/crawl',
            method: 'POST',
            headers: { host, 'content-type': 'application/json', 'x-api-key': secret },
          },
          (res) => {
            res.resume();
            resolve(res.statusCode ?? 0);
          },
        );
        req.on('error', reject);
        req.end(JSON.stringify({ urls: ['x'] }));
      });
    expect(await status('search.example.com')).toBe(200);
    expect(await status('SEARCH.example.com:443')).toBe(200);
    expect(await status('evil.example.net')).toBe(403);
    // Published through a proxy, the loopback server is no private one: a key is needed.
    expect(
      (
        await fetch(`${a.url}/api/crawl`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: '{"urls":["x"]}',
        })
      ).status,
    ).toBe(401);
  });

  it('refuses to start without keys when a proxy publishes it, in one line naming the setting', async () => {
    await expect(api({ auth: { allowedHosts: ['search.example.com'] } })).rejects.toMatchObject({
      name: 'ConfigError',
      problems: [
        expect.stringMatching(/^--allowed-hosts \/ WEBSEARCH_ALLOWED_HOSTS search\.example\.com: .*needs API keys/),
      ],
    });
  });
});

describe('graceful stop', () => {
  it('lets an in-flight request finish, refuses new connections, then closes', async () => {
    const a = await startTestApi({ cache: { ttlMs: 0 }, server: { shutdownGraceMs: 5_000 } });
    const slow = fetch(`${a.url}/api/crawl`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ urls: [`${site.origin}/delay/600`] }),
    });
    while (a.server.inFlight() === 0) await new Promise((r) => setTimeout(r, 10));
    const stopped = a.server.close();
    await new Promise((r) => setTimeout(r, 50));
    await expect(fetch(`${a.url}/healthz`)).rejects.toThrow();
    const res = await slow;
    expect(res.status).toBe(200);
    expect(((await res.json()) as any).results[0].success).toBe(true);
    await stopped;
    await a.core.close();
  });

  it('on a real SIGTERM, the binary finishes the request in flight and exits 0', async () => {
    const server = await spawnServe([], {
      ...(process.env as Record<string, string>),
      WEBSEARCH_STORE_PATH: ':memory:',
      WEBSEARCH_ALLOW_PRIVATE_ADDRESSES: 'true',
      WEBSEARCH_LOG_LEVEL: 'info',
    });
    const slow = fetch(`${server.url}/api/crawl`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ urls: [`${site.origin}/delay/800`] }),
    });
    // The request has reached the fixture site: it is in flight when the signal comes.
    while (site.hits('/delay/800') === 0) await new Promise((r) => setTimeout(r, 10));
    const code = server.stop();
    const res = await slow;
    expect(res.status).toBe(200);
    expect(((await res.json()) as any).results[0].success).toBe(true);
    expect(await code).toBe(0);
    expect(server.log.text).not.toMatch(/\n\s+at /);
  });

  it('cuts what is left when the grace period ends', async () => {
    const a = await startTestApi({
      cache: { ttlMs: 0 },
      server: { shutdownGraceMs: 200 },
      fetch: { timeoutMs: 20_000 },
    });
    const hung = fetch(`${a.url}/api/crawl`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ urls: [`${site.origin}/hang`] }),
    }).then(
      (r) => r.status,
      () => 'cut',
    );
    while (a.server.inFlight() === 0) await new Promise((r) => setTimeout(r, 10));
    const started = performance.now();
    await a.server.close();
    expect(performance.now() - started).toBeLessThan(3_000);
    expect(await hung).toBe('cut');
    await a.core.close();
  });
});
