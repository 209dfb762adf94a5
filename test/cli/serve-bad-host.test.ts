/**
 * `serve` on a host name that does not resolve: a bad setting (exit 2, one line naming it),
 * not an internal error with exit 1. `.invalid` never resolves (RFC 6761 6.4).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/spawn-cli.js';

const dir = mkdtempSync(join(tmpdir(), 'serve-bad-host-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('serve --host that does not resolve', () => {
  it('says so in one line with exit 2', async () => {
    // A key in the store: a server off loopback needs one before it binds.
    const env = { ...(process.env as Record<string, string>), WEBSEARCH_STORE_PATH: join(dir, 'store.db') };
    expect((await runCli(['keys', 'create', '--name', 'ops'], env)).code).toBe(0);
    for (const host of ['no-such-host.invalid', '999.1.1.1']) {
      const out = await runCli(['serve', '--host', host, '--port', '0'], env);
      expect(out.code).toBe(2);
      expect(out.stderr.trim()).toBe(
        `websearch-mcp: ${host}:0 does not resolve to an address: choose another with --port / WEBSEARCH_PORT (or --host / WEBSEARCH_HOST)`,
      );
    }
  });
});
