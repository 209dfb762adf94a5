/**
 * A refusal is not a page (issue 34, item 9), through the real binary: `extract` of a
 * private address is refused, and the same command on the same store once private
 * addresses are allowed extracts the page; no refusal was kept in the store's caches.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFixtureSite, type FixtureSite } from '../helpers/fixture-site.js';
import { runCli } from '../helpers/spawn-cli.js';

let site: FixtureSite;
const dir = mkdtempSync(join(tmpdir(), 'refusal-cache-'));
beforeAll(async () => {
  site = await startFixtureSite();
});
afterAll(async () => {
  await site?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('extract of a refused address, run again with private addresses allowed', () => {
  it('extracts the page on the same store', async () => {
    const env = {
      ...(process.env as Record<string, string>),
      WEBSEARCH_STORE_PATH: join(dir, 'store.db'),
      WEBSEARCH_RENDER: 'never',
      WEBSEARCH_LOG_LEVEL: 'silent',
    };
    const url = `${site.origin}/html`;
    const first = JSON.parse((await runCli(['extract', url, '--json'], env)).stdout);
    expect(first.results[0]).toMatchObject({ success: false, error_type: 'forbidden_address' });
    const second = JSON.parse(
      (await runCli(['extract', url, '--json'], { ...env, WEBSEARCH_ALLOW_PRIVATE_ADDRESSES: 'true' })).stdout,
    );
    expect(second.results[0]).toMatchObject({ success: true });
    expect(second.results[0].markdown).toMatch(/harbour/);
  });
});
