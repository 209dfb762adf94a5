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

type Json = Record<string, unknown>;

function schemaOf(schema: z.ZodType, io: 'input' | 'output'): Json {
  const json = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as Json;
  delete json.$schema;
  return json;
}

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

const ERROR_STATUS: Record<string, string> = {
  '400': 'invalid_request: the body or query failed validation; `details` lists each problem with its path.',
  '401': 'unauthorized: no API key, or an unknown or revoked one.',
  '402': "insufficient_credits: the key's balance is spent.",
  '403':
    'forbidden_host / forbidden_origin: a loopback-bound server refused a foreign Host, or a browser request came from another origin (an Origin not this server, Origin: null, Sec-Fetch-Site: cross-site).',
  '408': 'request_timeout: the headers or the whole request did not arrive in time; the connection is closed.',
  '413': 'payload_too_large: the body is over the limit (one limit for every route).',
  '415': 'unsupported_media_type: the body is not JSON.',
  '429': 'rate_limited: too many requests for this key in the current window.',
  '500': 'internal_error: a bug; it has been logged.',
  '503': 'server_busy: the server holds its limit of MCP sessions.',
};

function errorResponses(statuses: string[]): Json {
  const out: Json = {};
  for (const status of statuses) {
    const headers: Json = {};
    if (status === '401')
      headers['WWW-Authenticate'] = { schema: { type: 'string' }, description: '`Bearer` (RFC 6750).' };
    if (status === '429')
      headers['Retry-After'] = { schema: { type: 'integer' }, description: 'Seconds until the window resets.' };
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

export function buildOpenApiDocument(options: { config: Config; serverUrl?: string }): Json {
  const { config } = options;
  const extractRequest = extractRequestSchema({
    maxUrls: config.crawl.maxUrls,
    maxTimeoutMs: config.fetch.maxTimeoutMs,
  });
  const searchRequestJson = schemaOf(searchRequestSchema, 'input');
  const work = ['400', '401', '402', '403', '408', '413', '415', '429', '500'];
  const jsonBody = (name: string) => ({ required: true, content: { 'application/json': { schema: ref(name) } } });
  const ok = (name: string, description: string) => ({
    '200': { description, content: { 'application/json': { schema: ref(name) } } },
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
      '/healthz': {
        get: {
          operationId: 'health',
          tags: ['operations'],
          summary: 'The process answers and its store is reachable',
          security: [],
          responses: {
            '200': {
              description: 'healthy',
              content: {
                'application/json': {
                  schema: { type: 'object', properties: { status: { const: 'ok' }, store: { type: 'string' } } },
                },
              },
            },
            '503': { description: 'the store does not answer' },
          },
        },
      },
      '/metrics': {
        get: {
          operationId: 'metrics',
          tags: ['operations'],
          summary: 'Prometheus metrics (text exposition format)',
          description: 'With API keys, asks for one, or for the metrics token as a bearer token.',
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
          'Model Context Protocol requests (JSON-RPC); tools web_search and extract_urls take the bodies of /api/search and /api/crawl.',
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
      },
      schemas: {
        SearchRequest: searchRequestJson,
        SearchResponse: schemaOf(searchResponseSchema, 'output'),
        CrawlRequest: schemaOf(extractRequest, 'input'),
        CrawlResponse: schemaOf(extractResponseSchema, 'output'),
        ErrorBody: schemaOf(errorBodySchema, 'output'),
      },
    },
  };
}
