/**
 * `mcp.json.example` is copied as is by users: every entry must work on their machine, so
 * none points at a host that does not exist (issue 34, item 18).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const example = JSON.parse(readFileSync(new URL('../../mcp.json.example', import.meta.url), 'utf8')) as {
  mcpServers: Record<string, { command?: string; url?: string }>;
};

describe('mcp.json.example', () => {
  it('has the stdio command and only loopback URLs', () => {
    const entries = Object.values(example.mcpServers);
    expect(entries.some((e) => e.command === 'websearch-mcp')).toBe(true);
    for (const e of entries)
      if (e.url !== undefined) expect(['127.0.0.1', 'localhost', '[::1]']).toContain(new URL(e.url).hostname);
  });
});
