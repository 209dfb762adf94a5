/**
 * A SQLite file written before usage records kept their URLs or query (no `subject`
 * column) opens, gains the column, keeps its rows, and stays writable by an older
 * version's INSERT (which names its five columns).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, expect, it } from 'vitest';
import { SqliteStore } from '../../src/store/sqlite-store.js';

const dir = mkdtempSync(join(tmpdir(), 'sqlite-subject-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it('adds the subject column to a file written before it, keeping old rows', async () => {
  const path = join(dir, 'old.db');
  const old = new Database(path);
  old.exec(`CREATE TABLE usage (
    seq INTEGER PRIMARY KEY AUTOINCREMENT, key_id TEXT NOT NULL, operation TEXT NOT NULL,
    credits INTEGER NOT NULL, request_id TEXT NOT NULL, at TEXT NOT NULL)`);
  old
    .prepare('INSERT INTO usage (key_id, operation, credits, request_id, at) VALUES (?, ?, ?, ?, ?)')
    .run('key_a', 'crawl', 1, 'r_old', '2026-01-01T00:00:00.000Z');
  old.pragma('user_version = 1');
  old.close();

  const store = SqliteStore.open(path);
  const second = SqliteStore.open(path); // a second process opening the migrated file
  try {
    await store.charge({
      keyId: 'key_a',
      operation: 'search',
      credits: 1,
      requestId: 'r_new',
      at: '2026-01-02T00:00:00.000Z',
      query: 'q',
    });
    const page = await second.usagePage('key_a', { limit: 5 });
    expect(page.records.map((r) => [r.requestId, r.query])).toEqual([
      ['r_new', 'q'],
      ['r_old', undefined],
    ]);
  } finally {
    await store.close();
    await second.close();
  }
  const older = new Database(path);
  older
    .prepare('INSERT INTO usage (key_id, operation, credits, request_id, at) VALUES (?, ?, ?, ?, ?)')
    .run('key_a', 'crawl', 1, 'r_older_version', '2026-01-03T00:00:00.000Z');
  older.close();
  const reopened = SqliteStore.open(path);
  expect((await reopened.usage({ keyId: 'key_a' })).map((r) => r.requestId)).toEqual([
    'r_old',
    'r_new',
    'r_older_version',
  ]);
  await reopened.close();
});

it('numbers usage records per key in a file written before, and the rows an older version inserts', async () => {
  const path = join(dir, 'unnumbered.db');
  const old = new Database(path);
  old.exec(`CREATE TABLE usage (
    seq INTEGER PRIMARY KEY AUTOINCREMENT, key_id TEXT NOT NULL, operation TEXT NOT NULL,
    credits INTEGER NOT NULL, request_id TEXT NOT NULL, at TEXT NOT NULL, subject TEXT)`);
  const insert = old.prepare('INSERT INTO usage (key_id, operation, credits, request_id, at) VALUES (?, ?, ?, ?, ?)');
  for (const [key, id] of [
    ['key_a', 'a1'],
    ['key_b', 'b1'],
    ['key_b', 'b2'],
    ['key_a', 'a2'],
  ])
    insert.run(key, 'crawl', 1, id, '2026-01-01T00:00:00.000Z');
  old.pragma('user_version = 1');
  old.close();

  const store = SqliteStore.open(path);
  const second = SqliteStore.open(path); // numbered once, by whichever opened it first
  const places = async (key: string) =>
    (await second.usagePage(key, { limit: 10 })).records.map((r) => [r.requestId, r.seq]);
  try {
    expect(await places('key_a')).toEqual([
      ['a2', 2],
      ['a1', 1],
    ]);
    // An older version's INSERT names no key_seq: the file's trigger numbers it.
    const older = new Database(path);
    older
      .prepare('INSERT INTO usage (key_id, operation, credits, request_id, at) VALUES (?, ?, ?, ?, ?)')
      .run('key_a', 'crawl', 1, 'a3', '2026-01-02T00:00:00.000Z');
    older.close();
    await store.charge({
      keyId: 'key_a',
      operation: 'search',
      credits: 1,
      requestId: 'a4',
      at: '2026-01-03T00:00:00.000Z',
    });
    expect(await places('key_a')).toEqual([
      ['a4', 4],
      ['a3', 3],
      ['a2', 2],
      ['a1', 1],
    ]);
    expect(await places('key_b')).toEqual([
      ['b2', 2],
      ['b1', 1],
    ]);
  } finally {
    await store.close();
    await second.close();
  }
});
