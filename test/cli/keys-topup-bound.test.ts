/**
 * `keys topup` never takes a balance past 2^53 - 1, where credits stop counting one by
 * one (issue 34, item 8): the real binary refuses with exit 2 and one line, and the
 * balance stays as it was.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/spawn-cli.js';

const dir = mkdtempSync(join(tmpdir(), 'topup-bound-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('keys topup past 2^53 - 1', () => {
  it('is refused with exit 2 and one line, changing nothing', async () => {
    const env = {
      ...(process.env as Record<string, string>),
      WEBSEARCH_STORE_PATH: join(dir, 'store.db'),
      WEBSEARCH_LOG_LEVEL: 'silent',
    };
    const max = String(Number.MAX_SAFE_INTEGER);
    expect((await runCli(['keys', 'create', '--name', 'big', '--credits', max], env)).code).toBe(0);
    const listed = JSON.parse((await runCli(['keys', 'list', '--json'], env)).stdout) as { id: string }[];
    const id = listed[0]?.id as string;
    const refused = await runCli(['keys', 'topup', id, '--credits', '1'], env);
    expect(refused.code).toBe(2);
    expect(refused.stderr.trim().split('\n')).toHaveLength(1);
    expect(refused.stderr).toMatch(/past 9007199254740991 credits/);
    // One sentence: the message and the pointer to --help joined without a stray full stop.
    expect(refused.stderr).not.toMatch(/\.;/);
    const after = JSON.parse((await runCli(['keys', 'list', '--json'], env)).stdout) as { balance: number }[];
    expect(after[0]?.balance).toBe(Number.MAX_SAFE_INTEGER);
  });
});
