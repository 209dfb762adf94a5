/**
 * The legacy HTTP+SSE transport (MCP 2024-11-05) for older clients: `GET /sse` opens the
 * event stream, whose first `endpoint` event tells the client to POST its messages to
 * `/messages?sessionId=<id>`. The SDK transport writes to node's response objects
 * directly, so the routes hand it the raw request and response.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { SSEServerTransport } from '@modelcontextprotocol/sdk/server/sse.js';
import { AppError } from '../../core/errors.js';
import type { Logger } from '../../core/logger.js';
import type { Caller } from '../../core/caller.js';
import type { McpServerHandle } from './create-mcp-server.js';
import type { SessionLease, SessionLimits } from './session-limits.js';
import type { McpServerFactory } from './streamable-http.js';

/** What a POST tells the server about itself (headers, URL), as the SDK passes it on. */
export type MessageExtra = Parameters<SSEServerTransport['handleMessage']>[1];

export interface LegacySseHandler {
  /** Opens the stream, or throws `too_many_sessions` / `server_busy` before writing anything. */
  open(req: IncomingMessage, res: ServerResponse, caller: Caller): Promise<void>;
  /** Delivers one message, already read within the body limit; throws `not_found` or `invalid_request`. */
  post(sessionId: string | undefined, caller: Caller, message: unknown, extra: MessageExtra): Promise<void>;
  close(): Promise<void>;
  sessionCount(): number;
}

export function createLegacySseHandler(
  makeServer: McpServerFactory,
  logger: Logger,
  limits: SessionLimits,
): LegacySseHandler {
  const sessions = new Map<
    string,
    { transport: SSEServerTransport; handle: McpServerHandle; keyId: string | undefined; lease: SessionLease }
  >();

  async function open(_req: IncomingMessage, res: ServerResponse, caller: Caller): Promise<void> {
    // An idle stream is ended: the client sees its stream close and may open another.
    const lease = limits.admit(caller, () => {
      logger.debug({ sessionId: id }, 'SSE session idle: closing it');
      res.end();
    });
    const transport = new SSEServerTransport('/messages', res);
    const handle = makeServer(caller);
    const id = transport.sessionId;
    sessions.set(id, { transport, handle, keyId: caller.key?.id, lease });
    let closed = false;
    const cleanup = () => {
      if (closed) return;
      closed = true;
      sessions.delete(id);
      lease.release();
      handle.close().catch((err: unknown) => logger.debug({ err }, 'closing SSE session failed'));
    };
    transport.onclose = cleanup;
    res.on('close', cleanup);
    // connect() starts the transport: it writes the SSE headers and the endpoint event.
    try {
      await handle.server.connect(transport);
    } catch (err) {
      cleanup();
      throw err;
    }
  }

  async function post(
    sessionId: string | undefined,
    caller: Caller,
    message: unknown,
    extra: MessageExtra,
  ): Promise<void> {
    const session = sessionId ? sessions.get(sessionId) : undefined;
    // A stream belongs to the key that opened it: to any other key it does not exist.
    if (!session || session.keyId !== caller.key?.id) {
      throw new AppError(
        'not_found',
        'Unknown or missing sessionId: open GET /sse first and POST to the endpoint it names.',
      );
    }
    const end = session.lease.begin();
    try {
      await session.transport.handleMessage(message, extra);
    } catch {
      throw new AppError(
        'invalid_request',
        'The body is not a JSON-RPC 2.0 message (request, notification or response).',
      );
    } finally {
      end();
    }
  }

  async function close(): Promise<void> {
    const all = [...sessions.values()];
    sessions.clear();
    for (const s of all) s.lease.release();
    await Promise.all(all.map((s) => s.handle.close().catch(() => undefined)));
  }

  return { open, post, close, sessionCount: () => sessions.size };
}
