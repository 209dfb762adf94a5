/**
 * Golden files for the HTML cascade: each `test/golden/<slug>/source.html` (pages written
 * for this project, one per construct or page type) must convert to exactly
 * `expected.md`. After a deliberate change, regenerate with
 * `UPDATE_GOLDEN=1 npx vitest run test/extract/html-golden.test.ts` and review the diff.
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { htmlToMarkdown } from '../../src/extract/html/html-to-markdown.js';

const GOLDEN = fileURLToPath(new URL('../golden', import.meta.url));
const UPDATE = process.env.UPDATE_GOLDEN === '1';

describe('golden pages', () => {
  const slugs = readdirSync(GOLDEN).filter((s) => existsSync(join(GOLDEN, s, 'source.html')));
  it('has pages', () => expect(slugs.length).toBeGreaterThanOrEqual(6));
  it.each(slugs)('%s', (slug) => {
    const html = readFileSync(join(GOLDEN, slug, 'source.html'), 'utf8');
    const { markdown } = htmlToMarkdown(html, `https://golden.example.com/${slug}/`);
    const file = join(GOLDEN, slug, 'expected.md');
    if (UPDATE || !existsSync(file)) writeFileSync(file, `${markdown}\n`);
    expect(`${markdown}\n`).toBe(readFileSync(file, 'utf8'));
  });
});
