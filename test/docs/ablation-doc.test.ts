/**
 * Every pass and rule of the extraction pipeline has its row in the ablation table of
 * docs/extraction.md ("Ablation: what each pass earns"): a pass added without being
 * measured, or one removed while the docs still justify it, fails here.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { PIPELINE, RULES, SWITCHES } from '../../src/extract/html/pipeline.js';

const doc = readFileSync(new URL('../../docs/extraction.md', import.meta.url), 'utf8');
const start = doc.indexOf('\n## Ablation');
const section = doc.slice(start, doc.indexOf('\n## ', start + 1));
const rows = new Set([...section.matchAll(/^\| ([a-z][a-z-]*) \|/gm)].map((m) => m[1] ?? ''));

describe('docs/extraction.md, "Ablation"', () => {
  it('exists', () => expect(start).toBeGreaterThan(0));

  it.each(SWITCHES)('has a row for %s', (name) => {
    expect(rows.has(name)).toBe(true);
  });

  it('has no row for a pass that is gone', () => {
    const names = new Set<string>([...PIPELINE.map((pass) => pass.name), ...RULES]);
    expect([...rows].filter((name) => name !== 'name' && !names.has(name))).toEqual([]);
  });
});
