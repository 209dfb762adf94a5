/**
 * MCP Streamable HTTP at `/mcp`. With sessions (the default): an `initialize` POST
 * without a session id creates a server + transport pair; later requests carry
 * `Mcp-Session-Id`; DELETE ends it. Stateless (for load-balanced deployments, where the
 * next request may reach another instance): every POST is served by a fresh server and
 * transport that live as long as that one response.
 */
import { randomUUID } from 'node:crypto';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import type { Logger } from '../../core/logger.js';
import type { Caller } from '../../core/caller.js';
import type { McpServerHandle } from './create-mcp-server.js';
import type { SessionLease, SessionLimits } from './session-limits.js';

/** Builds the MCP server that answers one caller (its tool calls are charged to its key). */
export type McpServerFactory = (caller: Caller) => McpServerHandle;

export interface StreamableHttpHandler {
  /** `parsedBody`: a POST's JSON, already read within the body limit (the transport then reads nothing). */
  handle(request: Request, caller: Caller, parsedBody?: unknown): Promise<Response>;
  close(): Promise<void>;
  sessionCount(): number;
}

function jsonRpcError(status: number, code: number, message: string): Response {
  return new Response(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }), {
    status,
    headers: { 'content-type': 'application/json' },
  });
}

/** Runs `onDone` once the response body has been read to its end or abandoned. */
function whenFinished(response: Response, onDone: () => void): Response {
  if (!response.body) {
    onDone();
    return response;
  }
  const reader = response.body.getReader();
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { done, value } = await reader.read();
        if (done) {
          controller.close();
          onDone();
        } else controller.enqueue(value);
      } catch (err) {
        controller.error(err);
        onDone();
      }
    },
    async cancel(reason) {
      await reader.cancel(reason).catch(() => undefined);
      onDone();
    },
  });
  return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
}

export function createStatelessHttpHandler(makeServer: McpServerFactory, logger: Logger): StreamableHttpHandler {
  let open = 0;
  async function handle(request: Request, caller: Caller, parsedBody?: unknown): Promise<Response> {
    if (request.method !== 'POST') {
      // No session to stream to or delete: the spec's answer for a server without them.
      return new Response(
        JSON.stringify({
          jsonrpc: '2.0',
          error: { code: -32000, message: 'Method not allowed: this server is stateless; POST each request.' },
          id: null,
        }),
        {
          status: 405,
          headers: { 'content-type': 'application/json', allow: 'POST' },
        },
      );
    }
    const server = makeServer(caller);
    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    open += 1;
    let done = false;
    const finish = () => {
      if (done) return;
      done = true;
      open -= 1;
      server.close().catch((err: unknown) => logger.debug({ err }, 'closing stateless MCP server failed'));
    };
    try {
      await server.server.connect(transport);
      return whenFinished(
        await transport.handleRequest(request, parsedBody === undefined ? undefined : { parsedBody }),
        finish,
      );
    } catch (err) {
      finish();
      throw err;
    }
  }
  return { handle, close: async () => undefined, sessionCount: () => open };
}

export function createStreamableHttpHandler(
  makeServer: McpServerFactory,
  logger: Logger,
  limits: SessionLimits,
): StreamableHttpHandler {
  const sessions = new Map<
    string,
    {
      transport: WebStandardStreamableHTTPServerTransport;
      handle: McpServerHandle;
      keyId: string | undefined;
      lease: SessionLease;
    }
  >();

  async function handle(request: Request, caller: Caller, parsedBody?: unknown): Promise<Response> {
    const options = parsedBody === undefined ? undefined : { parsedBody };
    const sessionId = request.headers.get('mcp-session-id');
    if (sessionId) {
      const session = sessions.get(sessionId);
      // MCP spec (Streamable HTTP, session management): an unknown session id gets 404,
      // telling the client to start a new session. A session belongs to the key that
      // opened it: to any other key it does not exist.
      if (!session || session.keyId !== caller.key?.id)
        return jsonRpcError(404, -32001, 'Session not found; start a new session with initialize.');
      const end = session.lease.begin();
      // A standalone GET stream only listens: it does not keep the session from idling.
      if (request.method === 'GET') end();
      try {
        const response = await session.transport.handleRequest(request, options);
        return request.method === 'GET' ? response : whenFinished(response, end);
      } catch (err) {
        end();
        throw err;
      }
    }
    if (request.method !== 'POST') {
      return jsonRpcError(400, -32000, 'Bad request: no Mcp-Session-Id header; POST an initialize request first.');
    }
    const closeSession = () => {
      lease.release();
      if (transport.sessionId) sessions.delete(transport.sessionId);
    };
    // Admitted before the transport exists, so concurrent initializes cannot overshoot the caps.
    const lease = limits.admit(caller, () => {
      logger.debug({ sessionId: transport.sessionId }, 'MCP session idle: closing it');
      closeSession();
      sessionHandle.close().catch((err: unknown) => logger.debug({ err }, 'closing idle MCP session failed'));
    });
    const sessionHandle = makeServer(caller);
    const transport: WebStandardStreamableHTTPServerTransport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => {
        sessions.set(id, { transport, handle: sessionHandle, keyId: caller.key?.id, lease });
      },
      onsessionclosed: closeSession,
    });
    transport.onclose = closeSession;
    const end = lease.begin();
    try {
      await sessionHandle.server.connect(transport);
      const response = await transport.handleRequest(request, options);
      if (!transport.sessionId) {
        // Not an initialize request: nothing to keep.
        closeSession();
        await sessionHandle.close().catch((err: unknown) => logger.debug({ err }, 'closing unused MCP server failed'));
        end();
        return response;
      }
      return whenFinished(response, end);
    } catch (err) {
      end();
      closeSession();
      await sessionHandle.close().catch(() => undefined);
      throw err;
    }
  }

  async function close(): Promise<void> {
    const all = [...sessions.values()];
    sessions.clear();
    for (const s of all) s.lease.release();
    await Promise.all(all.map((s) => s.handle.close().catch(() => undefined)));
  }

  return { handle, close, sessionCount: () => sessions.size };
}
