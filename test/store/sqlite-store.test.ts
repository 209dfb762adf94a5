import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { SqliteStore } from '../../src/store/sqlite-store.js';
import { storeContract } from './store-contract.js';

const dir = mkdtempSync(join(tmpdir(), 'sqlite-store-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;

storeContract('SqliteStore (file)', async () => SqliteStore.open(join(dir, `contract-${++n}.db`)));
storeContract('SqliteStore (:memory:)', async () => SqliteStore.open(':memory:'));

describe('SqliteStore', () => {
  it('creates its directory (private) and shares one file between two connections', async () => {
    const path = join(dir, 'nested', 'deeper', 'store.db');
    const a = SqliteStore.open(path);
    const b = SqliteStore.open(path);
    try {
      expect(statSync(join(dir, 'nested', 'deeper')).mode & 0o777).toBe(0o700);
      // WAL: readers in other processes never wait for the writer.
      const raw = new Database(path, { readonly: true });
      expect(raw.pragma('journal_mode', { simple: true })).toBe('wal');
      raw.close();
      await a.createKey({
        id: 'key_shared',
        name: 'shared',
        hash: 'f'.repeat(64),
        prefix: 'wsk_shared',
        balance: 5,
        createdAt: new Date().toISOString(),
      });
      expect((await b.keyById('key_shared'))?.balance).toBe(5);
      await b.cache<string>('page').set('p', 'from b', 60_000);
      expect(await a.cache<string>('page').get('p')).toBe('from b');
      // Concurrent admissions and charges from both connections add up, never below zero.
      const now = Date.now();
      await Promise.all(
        Array.from({ length: 20 }, async (_, i) => {
          const s = i % 2 ? a : b;
          if (!(await s.reserve('key_shared', `r${i}`, 1, 60_000, now)).ok) return;
          await s.charge({
            keyId: 'key_shared',
            operation: 'crawl',
            credits: 1,
            requestId: `r${i}`,
            at: new Date(now).toISOString(),
          });
        }),
      );
      expect((await a.keyById('key_shared'))?.balance).toBe(0);
      expect(await b.usage({ keyId: 'key_shared' })).toHaveLength(5);
    } finally {
      await a.close();
      await b.close();
    }
  });

  it('sweeps expired holds of keys nobody uses again', async () => {
    const path = join(dir, 'holds.db');
    const a = SqliteStore.open(path);
    await a.createKey({
      id: 'key_idle',
      name: 'idle',
      hash: 'd'.repeat(64),
      prefix: 'wsk_idle',
      balance: 5,
      createdAt: new Date().toISOString(),
    });
    await a.reserve('key_idle', 'crashed-request', 5, 1, Date.now() - 10_000);
    await a.close();
    const count = () => {
      const raw = new Database(path, { readonly: true });
      const n = (raw.prepare('SELECT count(*) AS n FROM holds').get() as { n: number }).n;
      raw.close();
      return n;
    };
    expect(count()).toBe(1);
    // The sweep runs when a store opens (and every minute after).
    await SqliteStore.open(path).close();
    expect(count()).toBe(0);
  });

  it('says which path it cannot open', () => {
    const blocker = join(dir, 'a-file');
    SqliteStore.open(blocker).close();
    expect(() => SqliteStore.open(join(blocker, 'store.db'))).toThrow(
      /cannot open the SQLite store at .*a-file\/store\.db/,
    );
  });

  it('lets the event loop turn between cache reads queued at once (a page can be megabytes)', async () => {
    const store = SqliteStore.open(join(dir, 'turns.db'));
    try {
      const cache = store.cache<string>('page');
      await Promise.all(Array.from({ length: 10 }, (_, i) => cache.set(`page-${i}`, 'word '.repeat(20_000), 60_000)));
      let read = 0;
      const reads = Array.from({ length: 40 }, (_, i) => cache.get(`page-${i % 10}`).then(() => read++));
      // A timer set now fires after a few reads, not after all forty (a request's URLs read
      // back to back in microtasks would otherwise hold every other socket until the last).
      // How many depends on the machine: a timer is due after 1 ms, a read takes less.
      const readWhenTimerFired = await new Promise<number>((resolve) => setTimeout(() => resolve(read), 0));
      await Promise.all(reads);
      expect(read).toBe(40);
      expect(readWhenTimerFired).toBeLessThan(20);
    } finally {
      store.close();
    }
  });
});
