/**
 * A store at a custom path (`--store-path`, WEBSEARCH_STORE_PATH) holds key hashes,
 * balances and usage: it is created owner-only, 0600, with its -wal and -shm files
 * (issue 34, item 17), as the default directory is 0700.
 */
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SqliteStore } from '../../src/store/sqlite-store.js';

const dir = mkdtempSync(join(tmpdir(), 'websearch-mode-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const mode = (path: string) => statSync(path).mode & 0o777;

describe('the SQLite file', () => {
  it('is created 0600 with its -wal and -shm files, under a 0700 directory it creates', async () => {
    const path = join(dir, 'nested', 'custom.db');
    const store = SqliteStore.open(path);
    try {
      await store.createKey({
        id: 'key_mode',
        name: 'mode',
        hash: 'a'.repeat(64),
        prefix: 'wsk_mode',
        balance: 1,
        createdAt: new Date().toISOString(),
      });
      for (const file of [path, `${path}-wal`, `${path}-shm`]) {
        expect(existsSync(file), file).toBe(true);
        expect(mode(file).toString(8), file).toBe('600');
      }
      expect(mode(join(dir, 'nested')).toString(8)).toBe('700');
    } finally {
      await store.close();
    }
  });
});
