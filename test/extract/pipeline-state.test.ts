/**
 * The pipeline's typed state (pipeline.ts, page-context.ts, switches.ts): one pass under
 * each typed name, in order; and no failure is silent: a step `attempt` lets fail and a
 * pass whose error the runner catches are both recorded in the result's `failures`, under
 * the pass they came out of, with a short message and no stack. Passes are made to fail
 * here by stand-ins for the modules they call (no page of the dev splits makes one fail).
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import type * as MathModule from '../../src/extract/html/prepare/math.js';
import type * as NoiseModule from '../../src/extract/html/prepare/noise.js';
import type * as TablesModule from '../../src/extract/html/clean/tables.js';
import { htmlToMarkdown } from '../../src/extract/html/html-to-markdown.js';
import { FailureLog, pipelineRun } from '../../src/extract/html/page-context.js';
import { PIPELINE, RULES, SWITCHES, runPipeline } from '../../src/extract/html/pipeline.js';
import { PASSES, RULES as RULE_NAMES } from '../../src/extract/html/switches.js';

const broken = vi.hoisted(() => ({ math: false, tables: false, noiseFrom: Infinity, noiseCalls: 0 }));
const STACK = '\n    at fake (fake.ts:1:1)\n    at fake (fake.ts:2:2)';

vi.mock('../../src/extract/html/prepare/math.js', async (importOriginal) => {
  const original = await importOriginal<typeof MathModule>();
  return {
    ...original,
    normalizeMath: (...args: Parameters<typeof MathModule.normalizeMath>) => {
      if (broken.math) throw new Error(`math broke${STACK}`);
      return original.normalizeMath(...args);
    },
  };
});
vi.mock('../../src/extract/html/clean/tables.js', async (importOriginal) => {
  const original = await importOriginal<typeof TablesModule>();
  return {
    ...original,
    normalizeTables: (...args: Parameters<typeof TablesModule.normalizeTables>) => {
      if (broken.tables) throw new TypeError(`tables broke${STACK}`);
      return original.normalizeTables(...args);
    },
  };
});
vi.mock('../../src/extract/html/prepare/noise.js', async (importOriginal) => {
  const original = await importOriginal<typeof NoiseModule>();
  return {
    ...original,
    removeNoise: (...args: Parameters<typeof NoiseModule.removeNoise>) => {
      if (broken.noiseCalls++ >= broken.noiseFrom) throw new Error('noise broke');
      return original.removeNoise(...args);
    },
  };
});

afterEach(() => {
  Object.assign(broken, { math: false, tables: false, noiseFrom: Infinity, noiseCalls: 0 });
});

const URL_ = 'https://notes.example/river/locks';
const PROSE = Array.from(
  { length: 12 },
  (_, i) => `The river keeps its course past lock ${i} and the towpath follows it.`,
).join(' ');
const ARTICLE = `<html><head><title>River locks</title></head><body><nav><a href="/">Home</a> <a href="/about">About</a></nav>
<article><h1>River locks</h1><p>${PROSE}</p><p>${PROSE}</p>
<table><tr><th>Lock</th><th>Rise</th></tr><tr><td>Upper</td><td>2 m</td></tr></table></article></body></html>`;

describe('pass and rule names', () => {
  it('PIPELINE has one pass under each name of PASSES, in order; SWITCHES as the ablation reads them', () => {
    expect(PIPELINE.map((pass) => pass.name)).toEqual([...PASSES]);
    expect([...RULES]).toEqual([...RULE_NAMES]);
    expect(SWITCHES).toEqual([
      ...PIPELINE.filter((pass) => pass.essential !== true).map((pass) => pass.name),
      ...RULE_NAMES,
    ]);
    expect(SWITCHES).not.toContain('parse');
  });

  it('are typed: a misspelt name does not compile', () => {
    const run = pipelineRun(URL_, new Set(['tables']));
    // @ts-expect-error: no pass or rule is named so
    expect(run.on('tabels')).toBe(true);
    expect(run.on('tables')).toBe(false);
    expect(run.on('chrome-words')).toBe(true);
  });

  it('switched off by a name that is none: a type error, and an error at run time (a script naming it)', () => {
    // @ts-expect-error: no pass or rule is named so
    expect(() => runPipeline(ARTICLE, URL_, { off: ['tabels'] })).toThrow(/no pass or rule is named "tabels"/);
    expect(runPipeline(ARTICLE, URL_, { off: ['tables'] }).markdown).toContain('Upper');
  });
});

describe('failures', () => {
  it('a page on which nothing fails has none (htmlToMarkdown: no failures key)', () => {
    const result = runPipeline(ARTICLE, URL_);
    expect(result.failures).toEqual([]);
    expect(result.markdown).toContain('The river keeps its course');
    expect(htmlToMarkdown(ARTICLE, URL_)).not.toHaveProperty('failures');
  });

  it('a step that attempt lets fail is recorded under its pass; the page is written as without it', () => {
    const whole = runPipeline(ARTICLE, URL_);
    broken.math = true;
    const result = runPipeline(ARTICLE, URL_);
    expect(result.failures).toEqual([{ pass: 'math', error: 'Error: math broke' }]);
    expect({ ...result, failures: [] }).toEqual(whole);
    expect(htmlToMarkdown(ARTICLE, URL_).failures).toEqual([{ pass: 'math', error: 'Error: math broke' }]);
  });

  it('a clean pass that throws loses its candidate, recorded each time; the next candidate is written', () => {
    broken.tables = true;
    const result = runPipeline(ARTICLE, URL_);
    expect(result.stage).toBe('plain-text');
    expect(result.markdown).toContain('The river keeps its course');
    expect(result.failures.length).toBeGreaterThanOrEqual(1);
    expect(result.failures).toEqual(result.failures.map(() => ({ pass: 'tables', error: 'TypeError: tables broke' })));
    expect(result.features).not.toBeNull();
  });

  it('a prepare pass that throws empties the page, its metadata kept', () => {
    broken.noiseFrom = 0;
    const result = runPipeline(ARTICLE, URL_);
    expect(result).toMatchObject({
      markdown: '',
      stage: 'empty',
      pageType: 'other',
      features: null,
      metadata: { title: 'River locks' },
    });
    expect(result.failures).toEqual([{ pass: 'noise', error: 'Error: noise broke' }]);
  });

  it("an error in a pass run inside another (the plain-text stage's fresh body) is put down to the inner one", () => {
    broken.tables = true;
    broken.noiseFrom = 1;
    const result = runPipeline(ARTICLE, URL_);
    expect(result.stage).toBe('empty');
    expect(result.failures.at(-1)).toEqual({ pass: 'noise', error: 'Error: noise broke' });
    expect(result.failures.slice(0, -1).every((failure) => failure.pass === 'tables')).toBe(true);
  });
});

describe('FailureLog', () => {
  it('keeps a long message short, and records what is thrown that is no Error', () => {
    const log = new FailureLog();
    log.during('tidy', () => {
      expect(
        log.attempt(() => {
          throw new RangeError('x'.repeat(1_000));
        }),
      ).toBeNull();
      expect(
        log.attempt(() => {
          throw 'a string';
        }),
      ).toBeNull();
    });
    expect(log.failures[0]?.pass).toBe('tidy');
    expect(log.failures[0]?.error.length).toBeLessThanOrEqual(200);
    expect(log.failures[0]?.error).toMatch(/^RangeError: x+…$/);
    expect(log.failures[1]).toEqual({ pass: 'tidy', error: 'a string' });
  });

  it('outside every pass, attempt has nothing to put a failure down to: the error is thrown', () => {
    const log = new FailureLog();
    expect(() =>
      log.attempt(() => {
        throw new Error('no pass');
      }),
    ).toThrow('no pass');
    expect(log.failures).toEqual([]);
  });
});
