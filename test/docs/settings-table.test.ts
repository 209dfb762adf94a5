/**
 * README.md's table of every setting (variable, path in the library's `config`, meaning) is
 * the one `settingsTable()` writes from the settings' own rows (src/core/config.ts), so a
 * setting added, renamed or re-explained there cannot leave the README behind.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { settingFlags, settingsTable } from '../../src/core/config.js';

const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
const START = '<!-- settings-table: settingsTable() in src/core/config.ts -->\n';
const END = '\n<!-- /settings-table -->';

describe('README.md, "Every setting"', () => {
  it('holds the table settingsTable() writes (replace it with the expected one below when this fails)', () => {
    const start = readme.indexOf(START);
    const end = readme.indexOf(END, start);
    expect(start, 'the table markers').toBeGreaterThan(-1);
    expect(end).toBeGreaterThan(start);
    expect(readme.slice(start + START.length, end)).toBe(settingsTable());
  });

  it('has a row for every variable, with its path', () => {
    const table = settingsTable();
    for (const { env } of settingFlags())
      expect(table).toMatch(new RegExp(`^\\| \`${env}\` \\| \`[a-z]+\\.[A-Za-z]+\` \\|`, 'm'));
    expect(table).toContain('| `WEBSEARCH_ALLOW_PRIVATE_ADDRESSES` | `fetch.allowPrivateAddresses` |');
  });
});
