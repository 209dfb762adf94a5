/**
 * Durability of the SQLite ledger: the real server, charging one key under load, is killed
 * with SIGKILL; the file then opens cleanly and holds every charge a client saw
 * acknowledged (and no usage record without its debit).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { SqliteStore } from '../../src/store/sqlite-store.js';
import { startFixtureSite } from '../helpers/fixture-site.js';
import { spawnServe } from '../helpers/spawn-cli.js';

type Site = Awaited<ReturnType<typeof startFixtureSite>>;
let site: Site;
let dir: string;

beforeAll(async () => {
  site = await startFixtureSite();
  dir = mkdtempSync(join(tmpdir(), 'sqlite-durability-'));
});
afterAll(async () => {
  await site?.close();
  rmSync(dir, { recursive: true, force: true });
});

it('keeps every acknowledged charge when the server is killed mid-load', async () => {
  const path = join(dir, 'ledger.db');
  const initial = 100_000;
  const setup = SqliteStore.open(path);
  const { ApiKeys } = await import('../../src/services/accounts/api-keys.js');
  const { secret, record } = await new ApiKeys(setup).create({ name: 'load', credits: initial });
  await setup.close();

  const env = {
    ...(process.env as Record<string, string>),
    WEBSEARCH_STORE_PATH: path,
    WEBSEARCH_ALLOW_PRIVATE_ADDRESSES: 'true',
    WEBSEARCH_LOG_LEVEL: 'silent',
  };
  const server = await spawnServe([], env);
  const { url } = server;

  let acknowledgedCredits = 0;
  let acknowledged = 0;
  let n = 0;
  let killed = false;
  const worker = async () => {
    while (!killed) {
      const i = n++;
      try {
        const res = await fetch(`${url}/api/crawl`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-api-key': secret },
          body: JSON.stringify({ urls: [`${site.origin}/text?load-${i}`] }),
        });
        const body = (await res.json()) as { metadata: { credits_used: number } };
        if (res.status === 200) {
          acknowledged += 1;
          acknowledgedCredits += body.metadata.credits_used;
        }
      } catch {
        // The connection died with the server: not acknowledged.
      }
    }
  };
  const workers = Array.from({ length: 8 }, worker);
  const until = Date.now() + 15_000;
  while (acknowledged < 60 && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
  expect(acknowledged, `acknowledged before the kill (of ${n} sent)`).toBeGreaterThan(0);
  const gone = server.kill();
  killed = true;
  await Promise.all([gone, ...workers]);

  const db = new Database(path);
  try {
    expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
  } finally {
    db.close();
  }
  const store = SqliteStore.open(path);
  try {
    const usage = await store.usage({ keyId: record.id });
    const recorded = usage.reduce((s, u) => s + u.credits, 0);
    expect(acknowledgedCredits).toBe(acknowledged);
    expect(usage.length).toBeGreaterThanOrEqual(acknowledged);
    expect(recorded).toBeGreaterThanOrEqual(acknowledgedCredits);
    // Debit and record are one transaction: the balance agrees with the records exactly.
    expect((await store.keyById(record.id))?.balance).toBe(initial - recorded);
  } finally {
    await store.close();
  }
});
