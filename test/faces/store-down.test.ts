/**
 * A store that is down answers 503 `store_unavailable` with Retry-After, like /healthz,
 * not 500 `internal_error` (issue 34, item 10): Redis stopped mid-run, and a SQLite file
 * locked past its busy timeout.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { openStore } from '../../src/compose.js';
import { SqliteStore } from '../../src/store/sqlite-store.js';
import { STORE_RETRY_AFTER_S } from '../../src/store/store-outage.js';
import { redisSuite } from '../helpers/redis-server.js';
import type { TestApi } from '../helpers/test-server.js';
import { startTestApi, testConfig } from '../helpers/test-server.js';

redisSuite('a request while Redis is down', (redis) => {
  let api: TestApi | undefined;
  afterEach(async () => {
    await api?.close().catch(() => undefined);
  });

  it('gets 503 store_unavailable with Retry-After, before and after authentication', async () => {
    let secret = '';
    api = await startTestApi(
      { store: { kind: 'redis', redisUrl: redis().url, redisPrefix: `down-${process.pid}:` } },
      { beforeStart: async (core) => void (secret = (await core.keys.create({ name: 'a', credits: 5 })).secret) },
    );
    const auth = { authorization: `Bearer ${secret}` };
    // Up: a request the store answers (a bad body: 400, after authentication).
    expect((await api.post('/api/crawl', { urls: [] }, auth)).status).toBe(400);
    await redis().stop();
    for (const body of [{ urls: ['http://127.0.0.1:1/'] }, { urls: [] }]) {
      const res = await api.post('/api/crawl', body, auth);
      expect(res.status).toBe(503);
      expect(res.headers.get('retry-after')).toBe(String(STORE_RETRY_AFTER_S));
      expect(await res.json()).toMatchObject({ error: { code: 'store_unavailable' } });
    }
    expect((await fetch(`${api.url}/healthz`)).status).toBe(503);
  });
});

describe('a SQLite file locked by another process', () => {
  const dir = mkdtempSync(join(tmpdir(), 'store-down-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('fails a write with store_unavailable once the busy timeout has passed', async () => {
    const path = join(dir, 'store.db');
    const store = SqliteStore.open(path);
    const other = new Database(path);
    try {
      await store.createKey({
        id: 'key_locked',
        name: 'locked',
        hash: 'a'.repeat(64),
        prefix: 'wsk_locked',
        balance: 5,
        createdAt: new Date().toISOString(),
      });
      other.exec('BEGIN EXCLUSIVE');
      await expect(store.reserve('key_locked', 'r1', 1, 60_000, Date.now())).rejects.toMatchObject({
        code: 'store_unavailable',
        retryAfter: STORE_RETRY_AFTER_S,
      });
      other.exec('ROLLBACK');
      // A statement's own mistake is no outage: a second key with the same id stays a plain error.
      await expect(
        store.createKey({
          id: 'key_locked',
          name: 'again',
          hash: 'b'.repeat(64),
          prefix: 'wsk_again',
          balance: 1,
          createdAt: new Date().toISOString(),
        }),
      ).rejects.not.toMatchObject({ code: 'store_unavailable' });
      expect(await store.reserve('key_locked', 'r1', 1, 60_000, Date.now())).toMatchObject({ ok: true });
    } finally {
      other.close();
      await store.close();
    }
  }, 20_000);

  it('waits for the lock no longer than the store timeout (WEBSEARCH_STORE_TIMEOUT_MS)', async () => {
    const path = join(dir, 'bounded.db');
    // The lock is waited for on the server's one thread: the setting bounds that stall.
    const store = await openStore(testConfig({ store: { path, timeoutMs: 300 } }));
    const other = new Database(path);
    try {
      await store.createKey({
        id: 'key_bounded',
        name: 'bounded',
        hash: 'c'.repeat(64),
        prefix: 'wsk_bounded',
        balance: 5,
        createdAt: new Date().toISOString(),
      });
      other.exec('BEGIN EXCLUSIVE');
      const started = performance.now();
      await expect(store.reserve('key_bounded', 'r1', 1, 60_000, Date.now())).rejects.toMatchObject({
        code: 'store_unavailable',
      });
      const waited = performance.now() - started;
      expect(waited).toBeGreaterThanOrEqual(250);
      expect(waited).toBeLessThan(2_000);
      other.exec('ROLLBACK');
    } finally {
      other.close();
      await store.close();
    }
  }, 20_000);
});
