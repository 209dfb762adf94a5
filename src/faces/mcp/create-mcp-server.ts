/**
 * One MCP server factory; the transports (stdio, Streamable HTTP) are thin files around
 * it. The low-level SDK `Server` is used rather than `McpServer` so that a bad argument
 * comes back as an `isError` result whose text starts with our error code
 * (`invalid_request: ...`), which a model can act on, and so that `structuredContent` is
 * exactly the object the HTTP API returns. Each tool call is a request of its own: its
 * result carries the request's id in `_meta.request_id` (errors too), the id of its log
 * lines and of its usage record.
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { LoggingLevel } from '@modelcontextprotocol/sdk/types.js';
import {
  CallToolRequestSchema,
  ListToolsRequestSchema,
  LoggingLevelSchema,
  SetLevelRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import type { Config } from '../../core/config.js';
import { VERSION } from '../../core/config.js';
import type { Caller } from '../../core/caller.js';
import { LOCAL_CALLER } from '../../core/caller.js';
import { toAppError } from '../../core/errors.js';
import type { Logger } from '../../core/logger.js';
import { incomingRequest } from '../../core/request-context.js';
import type { Operations } from '../../services/operations.js';
import type { ToolCallContext, ToolDefinition } from './tool-definition.js';
import { crawlSiteTool } from './tools/crawl-site.js';
import { crawlStatusTool } from './tools/crawl-status.js';
import { extractUrlsTool } from './tools/extract-urls.js';
import { mapSiteTool } from './tools/map-site.js';
import { webSearchTool } from './tools/web-search.js';

/** The services behind the tools, loaded on first use (start-up stays light). */
export interface McpServices {
  operations: Pick<Operations, 'extract' | 'search' | 'map' | 'startSiteCrawl' | 'siteCrawlStatus'>;
}

export interface McpDeps {
  config: Config;
  logger: Logger;
  /** Engines usable with this configuration (named in the web_search description). */
  engines: readonly string[];
  services: () => Promise<McpServices>;
  /** Whose calls these are (charged to its key); none on stdio and in open mode. */
  caller?: Caller;
  /** Told of every tool call (the HTTP server's metrics). */
  observer?: { toolCall(tool: string, outcome: 'ok' | 'error', seconds: number): void };
}

export interface McpServerHandle {
  server: Server;
  close(): Promise<void>;
}

function jsonSchemaOf(schema: z.ZodType, io: 'input' | 'output'): Record<string, unknown> {
  const json = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as Record<string, unknown>;
  delete json.$schema;
  return json;
}

export function listTools(deps: McpDeps): ToolDefinition[] {
  return [
    webSearchTool(deps) as unknown as ToolDefinition,
    extractUrlsTool(deps) as unknown as ToolDefinition,
    mapSiteTool(deps) as unknown as ToolDefinition,
    crawlSiteTool(deps) as unknown as ToolDefinition,
    crawlStatusTool(deps) as unknown as ToolDefinition,
  ];
}

export function createMcpServer(deps: McpDeps): McpServerHandle {
  const tools = new Map(listTools(deps).map((t) => [t.name, t]));
  const server = new Server(
    { name: 'websearch-mcp', title: 'Web search and extraction', version: VERSION },
    {
      capabilities: { tools: {}, logging: {} },
      instructions:
        'Use web_search to find pages on the web and extract_urls to read pages as Markdown; map_site lists the URLs of one site, crawl_site reads many of its pages as a job and crawl_status reads on in it. Errors start with a stable code (e.g. "invalid_request:").',
    },
  );

  // Schemas are converted once per server, not per tools/list call.
  const listed = [...tools.values()].map((tool) => ({
    name: tool.name,
    title: tool.title,
    description: tool.description,
    inputSchema: jsonSchemaOf(tool.inputSchema, 'input') as { type: 'object' },
    outputSchema: jsonSchemaOf(tool.outputSchema, 'output') as { type: 'object' },
    annotations: tool.annotations,
  }));
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: listed }));

  // MCP logging: nothing is sent until the client picks a level with logging/setLevel
  // (a client that never asks is not flooded); then every message at or above it.
  let clientLevel: LoggingLevel | undefined;
  const severity = (level: LoggingLevel) => LoggingLevelSchema.options.indexOf(level);
  server.setRequestHandler(SetLevelRequestSchema, async (request) => {
    clientLevel = request.params.level;
    return {};
  });
  // Sent on the stream of the call it concerns (Streamable HTTP has no other stream
  // until the client opens one).
  type Send = (n: {
    method: 'notifications/message';
    params: { level: LoggingLevel; logger: string; data: string };
  }) => Promise<void>;
  const logToClient = (send: Send, level: LoggingLevel, message: string) => {
    if (clientLevel === undefined || severity(level) < severity(clientLevel)) return;
    send({ method: 'notifications/message', params: { level, logger: 'websearch-mcp', data: message } }).catch(
      (err: unknown) => deps.logger.debug({ err }, 'log notification failed'),
    );
  };

  server.setRequestHandler(CallToolRequestSchema, async (request, extra): Promise<CallToolResult> => {
    const call = incomingRequest({ caller: deps.caller ?? LOCAL_CALLER, logger: deps.logger, cancel: extra.signal });
    const meta = { request_id: call.id };
    const tool = tools.get(request.params.name);
    if (!tool) {
      return errorResult(
        `invalid_request: unknown tool "${request.params.name}"; available: ${[...tools.keys()].join(', ')}.`,
        meta,
      );
    }
    const progressToken = request.params._meta?.progressToken;
    const ctx: ToolCallContext = {
      request: call,
      progress: (done, total, message) => {
        if (progressToken === undefined) return;
        extra
          .sendNotification({
            method: 'notifications/progress',
            params: { progressToken, progress: done, total, ...(message ? { message } : {}) },
          })
          .catch((err: unknown) => call.log.debug({ err }, 'progress notification failed'));
      },
    };
    const started = performance.now();
    const observe = (outcome: 'ok' | 'error') =>
      deps.observer?.toolCall(tool.name, outcome, (performance.now() - started) / 1000);
    try {
      const budgetChars = deps.config.mcp.outputBudgetChars;
      const args = request.params.arguments ?? {};
      const whole = await tool.handler(args, ctx);
      for (const line of tool.logLines(whole)) logToClient(extra.sendNotification, line.level, line.message);
      const render = (r: unknown) => tool.renderText(r, args);
      const { result, cut } = tool.budget(whole, budgetChars, render);
      const notice =
        cut > 0
          ? `[Output budget: ${cut} page(s) were cut to fit ${budgetChars} characters; each cut page says how to get the rest.]\n\n`
          : '';
      observe('ok');
      return {
        content: [
          { type: 'text', text: notice + render(result) },
          ...(tool.images?.(result) ?? []).map((image) => ({ type: 'image' as const, ...image })),
        ],
        structuredContent: result as Record<string, unknown>,
        _meta: meta,
      };
    } catch (err) {
      observe('error');
      const error = toAppError(err);
      if (error.code === 'internal_error') call.log.error({ err, tool: tool.name }, 'tool call failed');
      const message =
        error.code === 'internal_error' ? 'An internal error occurred; it has been logged.' : error.message;
      logToClient(
        extra.sendNotification,
        error.code === 'internal_error' ? 'error' : 'warning',
        `${tool.name}: ${error.code}: ${message}`,
      );
      // Validation states every issue in its message and again in details: the list alone, not both.
      const lines = error.details?.map((d) => `${d.path}: ${d.message}`) ?? [];
      const summary = lines.join('; ');
      const head =
        lines.length > 0 && message.endsWith(summary) ? message.slice(0, -summary.length).trimEnd() : message;
      const details = lines.map((line) => `\n- ${line}`).join('');
      return errorResult(`${error.code}: ${head}${details}`, meta);
    }
  });

  return { server, close: () => server.close() };
}

function errorResult(text: string, meta: { request_id: string }): CallToolResult {
  return { content: [{ type: 'text', text }], isError: true, _meta: meta };
}
