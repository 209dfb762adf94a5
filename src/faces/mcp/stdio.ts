/**
 * MCP over stdio, for desktop clients that spawn the server. stdout carries the protocol
 * only; logs go to stderr.
 */
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { McpServerHandle } from './create-mcp-server.js';

export async function serveStdio(handle: McpServerHandle): Promise<{ closed: Promise<void> }> {
  const transport = new StdioServerTransport();
  const closed = new Promise<void>((resolve) => {
    transport.onclose = () => resolve();
    process.stdin.once('end', () => resolve());
    // The client stopped reading (EPIPE): nobody is left to answer; stop quietly, not with
    // an unhandled 'error' event and its stack trace.
    process.stdout.on('error', () => resolve());
  });
  await handle.server.connect(transport);
  return { closed };
}
