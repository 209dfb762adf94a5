/**
 * A server killed with SIGKILL mid-request leaves its hold in the store; restarted on the
 * same store under the same instance id, it drops that hold as it starts, before any
 * request (security issue, item 8; before, only at its first metered request), so the key
 * is usable at once rather than after the hold expires (issue 34, item 5).
 * The real binary on a SQLite file.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, spawnServe } from '../helpers/spawn-cli.js';
import { startFixtureSite, type FixtureSite } from '../helpers/fixture-site.js';

let site: FixtureSite;
let dir: string;

beforeAll(async () => {
  site = await startFixtureSite();
  dir = mkdtempSync(join(tmpdir(), 'holds-kill-'));
});
afterAll(async () => {
  await site?.close();
  rmSync(dir, { recursive: true, force: true });
});

function heldCredits(path: string): number {
  const db = new Database(path, { readonly: true });
  try {
    return (db.prepare('SELECT coalesce(sum(credits), 0) AS held FROM holds').get() as { held: number }).held;
  } finally {
    db.close();
  }
}

describe('holds of a killed server', () => {
  it('are released when it starts again on the same store', async () => {
    const store = join(dir, 'store.db');
    const env = {
      ...(process.env as Record<string, string>),
      WEBSEARCH_STORE_PATH: store,
      WEBSEARCH_ALLOW_PRIVATE_ADDRESSES: 'true',
      WEBSEARCH_RENDER: 'never',
      WEBSEARCH_LOG_LEVEL: 'info',
      // The default name (host, address, port) is the same after a restart on a fixed port;
      // these servers take any free port (0), where the default is per process.
      WEBSEARCH_INSTANCE_ID: 'holds-kill-test',
    };
    const created = await runCli(['keys', 'create', '--name', 'one', '--credits', '1'], env);
    expect(created.code).toBe(0);
    const auth = { 'content-type': 'application/json', authorization: `Bearer ${created.stdout.trim()}` };
    const crawl = (url: string, body: unknown) =>
      fetch(`${url}/api/crawl`, { method: 'POST', headers: auth, body: JSON.stringify(body) });

    const first = await spawnServe([], env);
    // A slow page: the request holds the key's one credit while it drips.
    void crawl(first.url, { urls: [`${site.origin}/slow-drip?interval=200`], timeout_ms: 60_000 }).catch(
      () => undefined,
    );
    for (let i = 0; i < 100 && heldCredits(store) === 0; i++) await new Promise((r) => setTimeout(r, 50));
    expect(heldCredits(store)).toBe(1);
    await first.kill();
    expect(heldCredits(store)).toBe(1);

    const second = await spawnServe([], env);
    try {
      // Listening, and no request sent yet: the hold is already gone.
      expect(heldCredits(store)).toBe(0);
      expect(second.log.text).toMatch(/released the credit holds of an earlier run/);
      const res = await crawl(second.url, { urls: [`${site.origin}/text`] });
      expect(res.status).toBe(200);
      expect(((await res.json()) as { metadata: { credits_used: number } }).metadata.credits_used).toBe(1);
      expect(second.log.text).toMatch(/released the credit holds of an earlier run/);
    } finally {
      await second.stop();
    }
  }, 60_000);
});
