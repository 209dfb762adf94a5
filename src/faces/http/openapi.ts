/**
 * The OpenAPI 3.1 document of the HTTP API, generated from the zod schemas the endpoints
 * validate with (so the document cannot drift from the code). OpenAPI 3.1 speaks JSON
 * Schema 2020-12, which is what zod 4's `toJSONSchema` writes.
 */
import { z } from 'zod';
import type { Config } from '../../core/config.js';
import { PROJECT_URL, VERSION } from '../../core/config.js';
import {
  extractRequestSchema,
  extractResponseSchema,
  errorBodySchema,
  searchRequestSchema,
  searchResponseSchema,
} from '../../core/schemas.js';
import {
  mapRequestSchema,
  mapResponseSchema,
  siteCrawlRequestSchema,
  siteCrawlStatusQuerySchema,
  siteCrawlStatusSchema,
} from '../../core/site-schemas.js';
import { usageQuerySchema, usageResponseSchema } from '../../core/usage-schema.js';
import { resolveEngineSettings } from '../../services/search/engine-settings.js';
import { CREDITS_REMAINING_HEADER } from './credits-remaining.js';
import { NEXT_START_CHAR_HEADER, READER_STATUS, TOTAL_CHARS_HEADER } from './reader.js';

type Json = Record<string, unknown>;

function schemaOf(schema: z.ZodType, io: 'input' | 'output'): Json {
  const json = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as Json;
  delete json.$schema;
  return json;
}

/**
 * The engines property says which engines this server can query (the enum lists every
 * engine the API knows): `x-configured` and `x-default`, so a client offers only these.
 */
function withServerEngines(request: Json, config: Config): Json {
  const { configured, defaults } = resolveEngineSettings(config);
  const properties = request.properties as Record<string, Json> | undefined;
  const engines = properties?.engines;
  if (!properties || !engines) return request;
  const said = typeof engines.description === 'string' ? `${engines.description} ` : '';
  properties.engines = {
    ...engines,
    description: `${said}Configured on this server: ${configured.join(', ')}; without engines: ${defaults.join(', ')}.`,
    'x-configured': [...configured],
    'x-default': [...defaults],
  };
  return request;
}

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

const ERROR_STATUS: Record<string, string> = {
  '400': 'invalid_request: the body or query failed validation; `details` lists each problem with its path.',
  '401': 'unauthorized: no API key, or an unknown or revoked one.',
  '402':
    "insufficient_credits: the key's credits, less those its running requests hold, do not cover the request's largest possible cost.",
  '403':
    'forbidden_host / forbidden_origin: a loopback-bound server refused a foreign Host, or a browser request came from another origin (an Origin not this server, Origin: null, Sec-Fetch-Site: cross-site).',
  '408': 'request_timeout: the headers or the whole request did not arrive in time; the connection is closed.',
  '413': 'payload_too_large: the body is over the limit (one limit for every route).',
  '404':
    "not_found: no site crawl with this id for this key (another key's crawl is not found either; a finished one is deleted when its retention ends).",
  '415': 'unsupported_media_type: the body is not JSON.',
  '429': 'rate_limited: too many requests for this key in the current window.',
  '500': 'internal_error: a bug; it has been logged.',
  '503':
    'server_busy: the server holds its limit of MCP sessions; store_unavailable: the store cannot be used right now (Retry-After).',
};

function errorResponses(statuses: string[]): Json {
  const out: Json = {};
  for (const status of statuses) {
    const headers: Json = {};
    if (status === '401')
      headers['WWW-Authenticate'] = { schema: { type: 'string' }, description: '`Bearer` (RFC 6750).' };
    if (status === '429')
      headers['Retry-After'] = {
        schema: { type: 'integer' },
        description:
          'Seconds until the window resets (or, for too many site crawls at once, until one may have ended).',
      };
    if (status === '503')
      headers['Retry-After'] = {
        schema: { type: 'integer' },
        description: 'Seconds after which a session may have been freed.',
      };
    out[status] = {
      description: ERROR_STATUS[status] ?? 'error',
      ...(Object.keys(headers).length > 0 ? { headers } : {}),
      content: { 'application/json': { schema: ref('ErrorBody') } },
    };
  }
  return out;
}

/** Query parameters of GET /api/search, from the properties of the search request schema. */
function searchQueryParameters(requestSchema: Json): Json[] {
  const properties = (requestSchema.properties ?? {}) as Record<string, Json>;
  const required = new Set((requestSchema.required ?? []) as string[]);
  return Object.entries(properties).map(([name, schema]) => {
    const isList = schema.type === 'array';
    return {
      name,
      in: 'query',
      required: required.has(name),
      ...(typeof schema.description === 'string'
        ? { description: `${schema.description}${isList ? ' Comma-separated.' : ''}` }
        : {}),
      schema: isList ? { type: 'string' } : schema,
    };
  });
}

/** The statuses of a failed URL at /r/ (reader.ts), each with the error types that answer it. */
function readerFailures(): Json {
  const byStatus = new Map<number, string[]>();
  for (const [type, status] of Object.entries(READER_STATUS)) {
    if (status === 400 || status === 403) continue; // listed with the request-level errors
    byStatus.set(status, [...(byStatus.get(status) ?? []), type]);
  }
  const out: Json = {};
  for (const [status, types] of byStatus) {
    out[String(status)] = {
      description: `The URL failed (${types.join(', ')}): one line \`<error_type>: <message>\`, or the crawl response with Accept: application/json.`,
      content: { 'text/plain': { schema: { type: 'string' } }, 'application/json': { schema: ref('CrawlResponse') } },
    };
  }
  return out;
}

export function buildOpenApiDocument(options: { config: Config; serverUrl?: string }): Json {
  const { config } = options;
  const extractRequest = extractRequestSchema({
    maxUrls: config.crawl.maxUrls,
    maxTimeoutMs: config.fetch.maxTimeoutMs,
  });
  const searchRequestJson = withServerEngines(schemaOf(searchRequestSchema, 'input'), config);
  const work = ['400', '401', '402', '403', '408', '413', '415', '429', '500'];
  const creditsHeader = {
    [CREDITS_REMAINING_HEADER]: {
      schema: { type: 'integer' },
      description: "The key's balance after this request's debit (keys with a balance only).",
    },
  };
  const usageQueryJson = schemaOf(usageQuerySchema, 'input');
  const siteCrawlRequest = siteCrawlRequestSchema({
    maxTimeoutMs: config.fetch.maxTimeoutMs,
    maxJobTimeoutMs: config.site.maxJobTimeoutMs,
  });
  const jobPath = {
    name: 'id',
    in: 'path',
    required: true,
    description: 'The id the start answered (its `id`, and the `Location` header).',
    schema: { type: 'string' },
  };
  const locationHeader = {
    Location: { schema: { type: 'string' }, description: 'The job: /api/site-crawls/{id}.' },
  };
  const jsonBody = (name: string) => ({ required: true, content: { 'application/json': { schema: ref(name) } } });
  const ok = (name: string, description: string) => ({
    '200': { description, headers: creditsHeader, content: { 'application/json': { schema: ref(name) } } },
  });
  const jsonRpc = (summary: string, description: string) => ({
    summary,
    description,
    tags: ['mcp'],
    responses: {
      '200': { description: 'JSON-RPC over HTTP (MCP transport)' },
      ...errorResponses(['400', '401', '403', '413', '415', '429', '503']),
      '429': {
        description: 'too_many_sessions: this key holds its limit of MCP sessions; or rate_limited on a tool call.',
        content: { 'application/json': { schema: ref('ErrorBody') } },
      },
    },
  });

  return {
    openapi: '3.1.0',
    info: {
      title: 'websearch-mcp',
      version: VERSION,
      description:
        'Web search and URL content extraction for AI agents: the HTTP JSON API (the same operations are MCP tools at /mcp).',
      license: { name: 'MIT', identifier: 'MIT' },
    },
    externalDocs: { url: PROJECT_URL },
    ...(options.serverUrl ? { servers: [{ url: options.serverUrl }] } : {}),
    security: [{ bearerAuth: [] }, { apiKeyHeader: [] }],
    tags: [{ name: 'search' }, { name: 'extract' }, { name: 'operations' }, { name: 'mcp' }],
    paths: {
      '/api/search': {
        post: {
          operationId: 'search',
          tags: ['search'],
          summary: 'Search the web (optionally with the top pages as Markdown)',
          requestBody: jsonBody('SearchRequest'),
          responses: {
            ...ok('SearchResponse', 'The ranked, fused results.'),
            ...errorResponses(work),
            '502': {
              description: 'engines_unavailable: every selected engine failed (not charged).',
              content: { 'application/json': { schema: ref('ErrorBody') } },
            },
          },
        },
        get: {
          operationId: 'searchGet',
          tags: ['search'],
          summary: 'Search the web, parameters in the query string',
          parameters: searchQueryParameters(searchRequestJson),
          responses: {
            ...ok('SearchResponse', 'The ranked, fused results.'),
            ...errorResponses(work.filter((s) => s !== '413' && s !== '415')),
            '502': {
              description: 'engines_unavailable',
              content: { 'application/json': { schema: ref('ErrorBody') } },
            },
          },
        },
      },
      '/api/crawl': {
        post: {
          operationId: 'extract',
          tags: ['extract'],
          summary: `Extract 1 to ${config.crawl.maxUrls} URLs as Markdown or HTML; each URL succeeds or fails on its own`,
          requestBody: jsonBody('CrawlRequest'),
          responses: { ...ok('CrawlResponse', 'One result per submitted URL, in order.'), ...errorResponses(work) },
        },
      },
      '/api/map': {
        post: {
          operationId: 'map',
          tags: ['extract'],
          summary: "A site's URLs from its sitemaps, feeds and links, in one call (optionally ranked by `search`)",
          requestBody: jsonBody('MapRequest'),
          responses: { ...ok('MapResponse', 'The URLs in scope, at most `limit`.'), ...errorResponses(work) },
        },
      },
      '/api/site-crawls': {
        post: {
          operationId: 'startSiteCrawl',
          tags: ['extract'],
          summary: "Start a crawl of a site's pages as a job; read its pages with GET /api/site-crawls/{id}",
          description:
            'The job runs on the server whether or not anyone reads it. With wait_ms the answer waits up to that long: 200 when the crawl is done by then, else 202 with the pages so far. Either way `Location` names the job, and its pages after `next_cursor` are read with GET. Pages are charged as they are delivered; a key that runs out stops the job with stop_reason "credits".',
          requestBody: jsonBody('SiteCrawlRequest'),
          responses: {
            '200': {
              description: 'The crawl finished within wait_ms: its status and first pages.',
              headers: locationHeader,
              content: { 'application/json': { schema: ref('SiteCrawlStatus') } },
            },
            '202': {
              description: 'The crawl runs: its status and the pages done so far.',
              headers: locationHeader,
              content: { 'application/json': { schema: ref('SiteCrawlStatus') } },
            },
            ...errorResponses(work),
          },
        },
      },
      '/api/site-crawls/{id}': {
        get: {
          operationId: 'siteCrawlStatus',
          tags: ['extract'],
          summary: "A site crawl's status and progress, and its pages after `cursor` (wait_ms waits for new ones)",
          parameters: [jobPath, ...searchQueryParameters(schemaOf(siteCrawlStatusQuerySchema, 'input'))],
          responses: {
            '200': {
              description: 'The job: status, progress, the pages after the cursor, and next_cursor to read on.',
              content: { 'application/json': { schema: ref('SiteCrawlStatus') } },
            },
            ...errorResponses(['400', '401', '403', '404', '500']),
          },
        },
        delete: {
          operationId: 'cancelSiteCrawl',
          tags: ['extract'],
          summary: 'Cancel a site crawl (stop_reason "cancelled"); its pages so far stay readable until it expires',
          parameters: [jobPath],
          responses: {
            '200': {
              description: 'The job as cancelled (a finished one as it was).',
              content: { 'application/json': { schema: ref('SiteCrawlStatus') } },
            },
            ...errorResponses(['401', '403', '404', '500']),
          },
        },
      },
      '/r/{url}': {
        get: {
          operationId: 'read',
          tags: ['extract'],
          summary:
            'The reader: one URL as text/markdown (title, URL, then the Markdown), or its crawl response as JSON',
          description:
            'Everything after /r/ is the URL, its own query string included: /r/https://example.com/a?b=1. To give options, percent-encode the URL; the query string then takes every CrawlRequest property (booleans, numbers; lists as repeated parameters or comma-separated): /r/https%3A%2F%2Fexample.com%2Fa?format=html&max_chars=500. Charged and authenticated as POST /api/crawl. Request-level errors are one line of text (`<code>: <message>`) unless Accept asks for JSON.',
          parameters: [
            {
              name: 'url',
              in: 'path',
              required: true,
              description: 'The URL (http or https), verbatim or percent-encoded.',
              schema: { type: 'string' },
            },
            ...searchQueryParameters(schemaOf(extractRequest, 'input')).filter((p) => p.name !== 'urls'),
          ],
          responses: {
            '200': {
              description:
                'The page: text/markdown (text/plain for format html), or the crawl response with Accept: application/json. In text, a slice (max_chars, start_char) ends with a line giving the total and the request for the next slice ("[Cut at character B of N. For the rest GET </r/...&start_char=B>.]", or "[End of page: it has N characters.]"), and include_links adds a "## Links" section under the content. screenshot=true needs Accept: application/json (400 otherwise: text cannot show a PNG).',
              headers: {
                ...creditsHeader,
                [TOTAL_CHARS_HEADER]: {
                  schema: { type: 'integer' },
                  description: "With max_chars or start_char: the whole page's length in characters (total_chars).",
                },
                [NEXT_START_CHAR_HEADER]: {
                  schema: { type: 'integer' },
                  description: 'When the slice was cut: the start_char of the next slice (next_start_char).',
                },
              },
              content: {
                'text/markdown': { schema: { type: 'string' } },
                'application/json': { schema: ref('CrawlResponse') },
              },
            },
            ...errorResponses(work.filter((s) => s !== '413' && s !== '415')),
            ...readerFailures(),
          },
        },
      },
      '/api/usage': {
        get: {
          operationId: 'usage',
          tags: ['operations'],
          summary:
            "The calling key's balance, the credits its requests in progress hold, and its usage records (newest first, a page at a time)",
          parameters: searchQueryParameters(usageQueryJson),
          responses: {
            '200': {
              description: 'The account of the key (metered: false in open mode).',
              content: { 'application/json': { schema: ref('UsageResponse') } },
            },
            ...errorResponses(['400', '401', '403', '429', '500']),
          },
        },
      },
      '/': {
        get: {
          operationId: 'playground',
          tags: ['operations'],
          summary: 'The playground (HTML) for browsers; a JSON index of the routes with Accept: application/json',
          security: [],
          responses: { '200': { description: 'text/html, or the JSON index' } },
        },
      },
      '/healthz': {
        get: {
          operationId: 'health',
          tags: ['operations'],
          summary: 'The process answers and its store is reachable; the browser is reported beside it',
          security: [],
          responses: {
            '200': {
              description: 'healthy',
              content: {
                'application/json': {
                  schema: {
                    type: 'object',
                    properties: {
                      status: { const: 'ok' },
                      store: { type: 'string' },
                      store_ms: { type: 'integer' },
                      browser: {
                        type: 'object',
                        description:
                          'Present when pages can be rendered: a local browser (started when a page needs it) or a remote one (WEBSEARCH_BROWSER_ENDPOINT)',
                        properties: {
                          kind: { enum: ['local', 'remote'] },
                          protocol: { enum: ['playwright', 'cdp'] },
                          connected: { type: 'boolean' },
                          reachable: { type: 'boolean' },
                          contexts: { type: 'integer' },
                          pages: { type: 'integer' },
                        },
                        required: ['kind', 'connected', 'contexts', 'pages'],
                      },
                      word_vectors: {
                        type: 'object',
                        description:
                          'Present when word vectors were loaded at start (WEBSEARCH_WORD_VECTORS): their words and dimensions',
                        properties: { words: { type: 'integer' }, dims: { type: 'integer' } },
                        required: ['words', 'dims'],
                      },
                    },
                  },
                },
              },
            },
            '503': {
              description:
                'the store does not answer, or a remote browser does not while every page is rendered (WEBSEARCH_RENDER=always)',
            },
          },
        },
      },
      '/metrics': {
        get: {
          operationId: 'metrics',
          tags: ['operations'],
          summary: 'Prometheus metrics (text exposition format)',
          description:
            "The operator's: needs the metrics token (WEBSEARCH_METRICS_TOKEN) as a bearer token; API keys do not open it. Without that setting, open only in open mode (a loopback server with no key).",
          security: [{ metricsToken: [] }],
          responses: {
            '200': { description: 'metrics', content: { 'text/plain': { schema: { type: 'string' } } } },
            ...errorResponses(['401']),
          },
        },
      },
      '/openapi.json': {
        get: {
          operationId: 'openapi',
          tags: ['operations'],
          summary: 'This document',
          security: [],
          responses: { '200': { description: 'OpenAPI 3.1' } },
        },
      },
      '/mcp': {
        post: jsonRpc(
          'MCP Streamable HTTP',
          'Model Context Protocol requests (JSON-RPC); tools web_search, extract_urls, map_site and crawl_site take the bodies of /api/search, /api/crawl, /api/map and /api/site-crawls; crawl_status reads a crawl as GET /api/site-crawls/{id}.',
        ),
        get: jsonRpc('MCP Streamable HTTP: server-to-client stream of a session', 'Needs Mcp-Session-Id.'),
        delete: jsonRpc('MCP Streamable HTTP: end a session', 'Needs Mcp-Session-Id.'),
      },
      '/sse': {
        get: jsonRpc('Legacy MCP HTTP+SSE: open the event stream', 'Its first event names the /messages endpoint.'),
      },
      '/messages': { post: jsonRpc('Legacy MCP HTTP+SSE: send a message', 'Takes sessionId in the query string.') },
    },
    components: {
      securitySchemes: {
        bearerAuth: {
          type: 'http',
          scheme: 'bearer',
          description: 'Authorization: Bearer <API key> (created with `websearch-mcp keys create`).',
        },
        apiKeyHeader: { type: 'apiKey', in: 'header', name: 'x-api-key' },
        metricsToken: {
          type: 'http',
          scheme: 'bearer',
          description: "Authorization: Bearer <the server's WEBSEARCH_METRICS_TOKEN>.",
        },
      },
      schemas: {
        SearchRequest: searchRequestJson,
        SearchResponse: schemaOf(searchResponseSchema, 'output'),
        CrawlRequest: schemaOf(extractRequest, 'input'),
        CrawlResponse: schemaOf(extractResponseSchema, 'output'),
        ErrorBody: schemaOf(errorBodySchema, 'output'),
        UsageResponse: schemaOf(usageResponseSchema, 'output'),
        MapRequest: schemaOf(mapRequestSchema, 'input'),
        MapResponse: schemaOf(mapResponseSchema, 'output'),
        SiteCrawlRequest: schemaOf(siteCrawlRequest, 'input'),
        SiteCrawlStatus: schemaOf(siteCrawlStatusSchema, 'output'),
      },
    },
  };
}
