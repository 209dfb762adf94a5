/**
 * A refusal is not a verdict (issue 34, item 9): robots.txt refused by our own address
 * policy is never kept in the shared cache, so the same store answers with the site's own
 * rules once the operator allows private addresses (a CLI re-run on the same state).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GuardedFetcher } from '../../src/net/guarded-fetcher.js';
import { RobotsChecker, type StoredRobots } from '../../src/net/robots.js';
import { SqliteStore } from '../../src/store/sqlite-store.js';
import { fetchConfig, robotsConfig } from '../helpers/fetch-config.js';
import { startFixtureSite, type FixtureSite } from '../helpers/fixture-site.js';

const TOKEN = 'websearch-mcp';
let site: FixtureSite;
const dir = mkdtempSync(join(tmpdir(), 'robots-refusal-'));

beforeAll(async () => {
  site = await startFixtureSite();
});
afterAll(async () => {
  await site?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** One run of the CLI: its own fetcher (with or without private addresses) over the store file. */
async function run(path: string, allowPrivateAddresses: boolean, url: string) {
  const store = SqliteStore.open(path);
  const client = new GuardedFetcher(fetchConfig({ allowPrivateAddresses }));
  try {
    const robots = new RobotsChecker(client, robotsConfig({ timeoutMs: 2_000 }), TOKEN, {
      shared: store.cache<StoredRobots>('robots'),
    });
    return { verdict: await robots.check(url), stored: await store.cache<StoredRobots>('robots').get(site.origin) };
  } finally {
    await client.close();
    await store.close();
  }
}

describe('robots.txt refused by the address policy', () => {
  it('is not stored, so allowing private addresses takes effect on the same state', async () => {
    const path = join(dir, 'store.db');
    const first = await run(path, false, `${site.origin}/html`);
    expect(first.verdict).toMatchObject({ allowed: false, error: { code: 'forbidden_address' } });
    expect(first.stored).toBeUndefined();
    const second = await run(path, true, `${site.origin}/html`);
    expect(second.verdict).toEqual({ allowed: true, source: 'parsed', status: 200 });
  });

  it('ignores a refusal an earlier version stored', async () => {
    const path = join(dir, 'old.db');
    const store = SqliteStore.open(path);
    await store.cache<StoredRobots>('robots').set(
      site.origin,
      {
        kind: 'unreachable',
        expiresAt: Date.now() + 60_000,
        error: { code: 'forbidden_address', message: 'refused' },
      },
      60_000,
    );
    await store.close();
    expect((await run(path, true, `${site.origin}/html`)).verdict).toEqual({
      allowed: true,
      source: 'parsed',
      status: 200,
    });
  });
});
