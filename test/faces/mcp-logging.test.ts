/**
 * MCP logging: nothing reaches a client that did not ask; after logging/setLevel the
 * client gets the calls' outcomes at or above its level.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { LoggingMessageNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMcpServer } from '../../src/faces/mcp/create-mcp-server.js';
import { startFixtureSite } from '../helpers/fixture-site.js';
import type { TestApi } from '../helpers/test-server.js';
import { mcpDepsOf, startTestApi } from '../helpers/test-server.js';

let site: Awaited<ReturnType<typeof startFixtureSite>>;
let api: TestApi;

beforeAll(async () => {
  site = await startFixtureSite();
  api = await startTestApi();
});
afterAll(async () => {
  await api?.close();
  await site?.close();
});

describe('MCP logging', () => {
  it('sends log messages only at or above the level the client set', async () => {
    const handle = createMcpServer(mcpDepsOf(api.core));
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await handle.server.connect(serverSide);
    const client = new Client({ name: 'test', version: '1.0.0' });
    const messages: { level: string; data: unknown }[] = [];
    client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => void messages.push(n.params));
    await client.connect(clientSide);
    try {
      expect(client.getServerCapabilities()?.logging).toBeDefined();
      const args = { urls: [`${site.origin}/text`, `${site.origin}/doc.pdf`] };
      await client.callTool({ name: 'extract_urls', arguments: args });
      await new Promise((r) => setTimeout(r, 20));
      expect(messages).toEqual([]);

      await client.setLoggingLevel('info');
      await client.callTool({ name: 'extract_urls', arguments: args });
      await new Promise((r) => setTimeout(r, 20));
      expect(messages.map((m) => m.level)).toEqual(['info', 'notice']);
      expect(String(messages[0]!.data)).toMatch(/1 of 2 URL\(s\) extracted/);
      expect(String(messages[1]!.data)).toMatch(/doc\.pdf: unsupported_content_type/);

      messages.length = 0;
      await client.setLoggingLevel('warning');
      await client.callTool({ name: 'extract_urls', arguments: args });
      await client.callTool({ name: 'extract_urls', arguments: { urls: [] } });
      await new Promise((r) => setTimeout(r, 20));
      expect(messages.map((m) => m.level)).toEqual(['warning']);
      expect(String(messages[0]!.data)).toMatch(/^extract_urls: invalid_request/);
    } finally {
      await client.close();
      await handle.close();
    }
  });
});
