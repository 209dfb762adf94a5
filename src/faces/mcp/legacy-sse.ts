/**
 * The legacy HTTP+SSE transport (MCP 2024-11-05) for older clients: `GET /sse` opens the
 * event stream, whose first `endpoint` event tells the client to POST its messages to
 * `/messages?sessionId=<id>`. The SDK transport writes to node's response objects
 * directly, so the routes hand it the raw request and response.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { SSEServerTransport } from '@modelcontextprotocol/sdk/server/sse.js';
import type { Logger } from '../../core/logger.js';
import type { Caller } from '../../services/metering.js';
import type { McpServerHandle } from './create-mcp-server.js';
import type { McpServerFactory } from './streamable-http.js';

export interface LegacySseHandler {
  open(req: IncomingMessage, res: ServerResponse, caller: Caller): Promise<void>;
  post(req: IncomingMessage, res: ServerResponse, sessionId: string | undefined, caller: Caller): Promise<void>;
  close(): Promise<void>;
  sessionCount(): number;
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

export function createLegacySseHandler(makeServer: McpServerFactory, logger: Logger): LegacySseHandler {
  const sessions = new Map<string, { transport: SSEServerTransport; handle: McpServerHandle; keyId: string | undefined }>();

  async function open(_req: IncomingMessage, res: ServerResponse, caller: Caller): Promise<void> {
    const transport = new SSEServerTransport('/messages', res);
    const handle = makeServer(caller);
    const id = transport.sessionId;
    sessions.set(id, { transport, handle, keyId: caller.key?.id });
    let closed = false;
    const cleanup = () => {
      if (closed) return;
      closed = true;
      sessions.delete(id);
      handle.close().catch((err: unknown) => logger.debug({ err }, 'closing SSE session failed'));
    };
    transport.onclose = cleanup;
    res.on('close', cleanup);
    // connect() starts the transport: it writes the SSE headers and the endpoint event.
    await handle.server.connect(transport);
  }

  async function post(req: IncomingMessage, res: ServerResponse, sessionId: string | undefined, caller: Caller): Promise<void> {
    const session = sessionId ? sessions.get(sessionId) : undefined;
    // A stream belongs to the key that opened it: to any other key it does not exist.
    if (!session || session.keyId !== caller.key?.id) {
      sendJson(res, 404, { error: { code: 'not_found', message: 'Unknown or missing sessionId: open GET /sse first and POST to the endpoint it names.' } });
      return;
    }
    await session.transport.handlePostMessage(req, res);
  }

  async function close(): Promise<void> {
    const all = [...sessions.values()];
    sessions.clear();
    await Promise.all(all.map((s) => s.handle.close().catch(() => undefined)));
  }

  return { open, post, close, sessionCount: () => sessions.size };
}
