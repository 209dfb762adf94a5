/**
 * The operator's path through the real binary: `keys create|list|topup|usage|revoke` on a
 * SQLite file, `serve` on that file charging the key, no key ever in the logs, a
 * non-loopback bind refused without keys, and two CLI runs sharing the page cache.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFixtureSite } from '../helpers/fixture-site.js';
import { CLI, runCli, spawnServe } from '../helpers/spawn-cli.js';

type Site = Awaited<ReturnType<typeof startFixtureSite>>;
let site: Site;
let dir: string;

beforeAll(async () => {
  site = await startFixtureSite();
  dir = mkdtempSync(join(tmpdir(), 'websearch-keys-'));
});
afterAll(async () => {
  await site?.close();
  rmSync(dir, { recursive: true, force: true });
});

function envFor(store: string, extra: Record<string, string> = {}): Record<string, string> {
  return {
    ...(process.env as Record<string, string>),
    WEBSEARCH_STORE_PATH: store,
    WEBSEARCH_ALLOW_PRIVATE_ADDRESSES: 'true',
    WEBSEARCH_LOG_LEVEL: 'silent',
    ...extra,
  };
}

const run = runCli;
const serve = spawnServe;

describe('websearch-mcp keys', () => {
  it('creates, lists, tops up, reports usage and revokes keys in the store the server uses', async () => {
    const store = join(dir, 'ops.db');
    const env = envFor(store);
    const created = await run(['keys', 'create', '--name', 'team-a', '--credits', '5'], env);
    expect(created.code).toBe(0);
    const secret = created.stdout.trim();
    expect(secret).toMatch(/^wsk_[A-Za-z0-9_-]{43}$/);
    expect(created.stderr).toMatch(/Created key_\w+ "team-a" with 5 credits/);

    const listed = await run(['keys', 'list', '--json'], env);
    expect(listed.code).toBe(0);
    const keys = JSON.parse(listed.stdout);
    expect(keys).toHaveLength(1);
    expect(keys[0]).toMatchObject({ name: 'team-a', balance: 5, prefix: secret.slice(0, 10) });
    expect(listed.stdout).not.toContain(secret);
    expect(keys[0]).not.toHaveProperty('hash');
    const id = keys[0].id as string;
    const table = await run(['keys', 'list'], env);
    expect(table.stdout).toMatch(new RegExp(`${id}\\s+team-a\\s+${secret.slice(0, 10)}…\\s+5\\s`));

    // The server charges the key; the logs, at trace level, never hold it.
    const server = await serve([], { ...env, WEBSEARCH_LOG_LEVEL: 'trace' });
    try {
      const crawl = (headers: Record<string, string>) =>
        fetch(`${server.url}/api/crawl`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...headers },
          body: JSON.stringify({ urls: [`${site.origin}/text`] }),
        });
      const ok = await crawl({ authorization: `Bearer ${secret}` });
      expect(ok.status).toBe(200);
      expect(((await ok.json()) as any).metadata.credits_used).toBe(1);
      expect((await crawl({})).status).toBe(401);
      expect((await crawl({ 'x-api-key': `${secret}x` })).status).toBe(401);
    } finally {
      expect(await server.stop()).toBe(0);
    }
    // The request lines name the key by its id; the key itself appears nowhere.
    expect(server.log.text).toMatch(new RegExp(`"path":"/api/crawl","status":200,"ms":\\d+,"key":"${id}"`));
    expect(server.log.text).toMatch(/"path":"\/api\/crawl","status":401/);
    expect(server.log.text).not.toContain(secret.slice(4));

    const topped = await run(['keys', 'topup', id, '--credits', '3'], env);
    expect(topped.code).toBe(0);
    expect(topped.stdout).toContain('balance 7 (+3)');

    const usage = await run(['keys', 'usage', '--key', id, '--json'], env);
    expect(JSON.parse(usage.stdout).map((u: any) => [u.key_id, u.operation, u.credits])).toEqual([[id, 'crawl', 1]]);
    const summary = await run(['keys', 'usage', '--since', '1h'], env);
    expect(summary.stdout).toMatch(new RegExp(`${id}\\s+team-a\\s+crawl\\s+1\\s+1`));
    expect((await run(['keys', 'usage', '--since', '2999-01-01'], env)).stdout).toContain('No usage recorded.');

    const revoked = await run(['keys', 'revoke', id], env);
    expect(revoked.code).toBe(0);
    expect(JSON.parse((await run(['keys', 'list', '--json'], env)).stdout)[0].revoked_at).toBeTruthy();
  });

  it('says what is wrong, with exit 2 for usage and 1 for a failed operation', async () => {
    const env = envFor(join(dir, 'errors.db'));
    const bad = await run(['keys', 'create', '--credits', 'lots'], env);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--credits needs a whole number/);
    expect(bad.stderr).not.toMatch(/\n\s+at /);
    expect((await run(['keys', 'frobnicate'], env)).code).toBe(2);
    // Settings only the server reads do not stop key management.
    expect(
      (
        await run(['keys', 'list'], {
          ...env,
          CHROMIUM_PATH: '/nowhere/chromium',
          WEBSEARCH_CONVERT_THREADS: 'many',
          WEBSEARCH_FETCH_TIMEOUT_MS: '90000',
        })
      ).code,
    ).toBe(0);
    const typo = await run(['keys', 'crate'], env);
    expect(typo.code).toBe(2);
    expect(typo.stderr).toMatch(/unknown keys command "crate" \(did you mean "create"\?\)/);
    expect((await run(['keys', 'usage', '--since', 'yesterday'], env)).code).toBe(2);
    const missing = await run(['keys', 'revoke', 'key_NOPE'], env);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/No key "key_NOPE"/);
    const unlimited = JSON.parse((await run(['keys', 'create', '--json'], env)).stdout);
    const topup = await run(['keys', 'topup', unlimited.id, '--credits', '5'], env);
    expect(topup.code).toBe(1);
    expect(topup.stderr).toMatch(/unlimited/);
  });
});

describe('serve and the store', () => {
  it('refuses a non-loopback address while no key exists, in one line, and binds it once one does', async () => {
    const store = join(dir, 'bind.db');
    const env = envFor(store);
    const refused = await run(['serve', '--host', '0.0.0.0', '--port', '0'], env);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/--host \/ WEBSEARCH_HOST 0\.0\.0\.0: .*needs API keys/);
    expect(refused.stderr).not.toMatch(/\n\s+at /);
    const { stdout } = await run(['keys', 'create', '--name', 'remote'], env);
    const server = await serve(['--host', '0.0.0.0'], env);
    try {
      const port = new URL(server.url).port;
      expect(
        (
          await fetch(`http://127.0.0.1:${port}/api/crawl`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: '{"urls":["x"]}',
          })
        ).status,
      ).toBe(401);
      const res = await fetch(`http://127.0.0.1:${port}/api/crawl`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': stdout.trim() },
        body: '{"urls":["x"]}',
      });
      expect(res.status).toBe(200);
    } finally {
      await server.stop();
    }
  });

  it('stdio needs no key, even when keys exist, and shares the page cache with the CLI', async () => {
    const store = join(dir, 'stdio.db');
    const env = envFor(store);
    expect((await run(['keys', 'create', '--name', 'someone', '--credits', '1'], env)).code).toBe(0);
    const transport = new StdioClientTransport({ command: process.execPath, args: [CLI], env, stderr: 'pipe' });
    const client = new Client({ name: 'test', version: '1.0.0' });
    await client.connect(transport);
    try {
      const result = await client.callTool({
        name: 'extract_urls',
        arguments: { urls: [`${site.origin}/html?stdio`] },
      });
      expect(result.isError).toBeFalsy();
      expect((result.structuredContent as any).metadata).toMatchObject({ successful_crawls: 1, credits_used: 1 });
    } finally {
      await client.close();
    }
    const cli = JSON.parse((await run(['extract', `${site.origin}/html?stdio`, '--json'], env)).stdout);
    expect(cli.metadata).toMatchObject({ credits_used: 0, cached_free: 1 });
  });

  it('a page extracted by one CLI run is a free cache hit for the next', async () => {
    const env = envFor(join(dir, 'cache.db'));
    const first = await run(['extract', `${site.origin}/html`, '--json'], env);
    expect(first.code).toBe(0);
    const second = await run(['extract', `${site.origin}/html`, '--json'], env);
    const [a, b] = [JSON.parse(first.stdout), JSON.parse(second.stdout)];
    expect(a.metadata).toMatchObject({ credits_used: 1, cached_free: 0 });
    expect(b.metadata).toMatchObject({ credits_used: 0, cached_free: 1 });
    expect(b.results).toEqual(a.results.map((r: any) => ({ ...r, from_cache: true })));
  });
});
