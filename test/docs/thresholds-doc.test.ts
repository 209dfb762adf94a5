/**
 * Every entry of the extraction's threshold table is documented with the measurements
 * that chose it (docs/extraction.md, "Thresholds"), so that the two cannot drift.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { THRESHOLDS } from '../../src/extract/html/thresholds.js';

const doc = readFileSync(new URL('../../docs/extraction.md', import.meta.url), 'utf8');
const section = doc.slice(doc.indexOf('\n## Thresholds\n'), doc.indexOf('\n## ', doc.indexOf('\n## Thresholds\n') + 1));

describe('docs/extraction.md, "Thresholds"', () => {
  it('exists', () => {
    expect(doc).toContain('\n## Thresholds\n');
  });

  it.each(Object.keys(THRESHOLDS))('documents %s', (name) => {
    expect(section).toContain(`\`${name}\``);
  });
});
