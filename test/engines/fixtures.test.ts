/**
 * The fixture manifest (test/fixtures/engines/manifest.json) tells fake engine servers how
 * to serve each body; this checks that every listed body gives the listed outcome.
 */
import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ENGINES } from '../../src/engines/registry.js';
import { isEngineId } from '../../src/engines/registry.js';
import { AppError } from '../../src/core/errors.js';
import { FIXTURE_DIR, fixtureResponse, manifest, params } from './helpers.js';

const entries = Object.entries(manifest());

describe('fixture manifest', () => {
  it('lists every fixture file', () => {
    const files = readdirSync(FIXTURE_DIR, { withFileTypes: true })
      .filter((d) => d.isDirectory())
      .flatMap((d) => readdirSync(`${FIXTURE_DIR}${d.name}`).map((f) => `${d.name}/${f}`))
      .sort();
    expect(entries.map(([file]) => file).sort()).toEqual(files);
  });

  it.each(entries)('%s gives its outcome', (file, entry) => {
    expect(isEngineId(entry.engine)).toBe(true);
    const engine = ENGINES[entry.engine as keyof typeof ENGINES];
    const res = fixtureResponse(file, entry.status, { 'content-type': entry.contentType, ...(entry.headers ?? {}) });
    if ('results' in entry.outcome) {
      expect(engine.parseResponse(res, params())).toHaveLength(entry.outcome.results);
    } else {
      let error: unknown;
      try {
        engine.parseResponse(res, params());
      } catch (err) {
        error = err;
      }
      expect(error).toBeInstanceOf(AppError);
      expect((error as AppError).code).toBe(entry.outcome.error);
    }
  });
});
