/**
 * linkedom's `Node` gets a new parent class (src/extract/html/read/linkedom-patch.ts). Without
 * `--no-omit-default-ctors`, V8 then compiles its subclasses' constructors again and again
 * and throws every result away ("aborted optimizing ... dependency change"): a third of a
 * page's CPU. Counted from V8's own trace, in a fresh process that parses pages the way
 * the pipeline does.
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const PARSE = new URL('../../dist/extract/html/read/parse.js', import.meta.url).href;

function abortedCompiles(before = ''): number {
  const script = `
    ${before}
    const { parseDocument } = await import(${JSON.stringify(PARSE)});
    const body = Array.from({ length: 300 }, (_, i) => '<p>Paragraph ' + i + ' with <a href="/r/' + i + '">a link</a> and <em>emphasis</em>.</p>').join('');
    for (let i = 0; i < 150; i++) parseDocument('<!doctype html><html><body><main><article>' + body + '</article></main></body></html>').body.cloneNode(true);
  `;
  const run = spawnSync(process.execPath, ['--trace-opt', '--input-type=module', '-e', script], {
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
    cwd: fileURLToPath(new URL('../..', import.meta.url)),
  });
  expect(run.status, run.stderr).toBe(0);
  return run.stdout.split('\n').filter((line) => line.includes('aborted optimizing')).length;
}

describe('linkedom with its Node re-parented', () => {
  it('lets V8 keep what it compiles', () => {
    expect(abortedCompiles()).toBeLessThan(20);
  }, 60_000);

  it('would not, were the constructors compiled with default ones omitted (the check can fail)', () => {
    // A node made before the patch runs compiles linkedom's constructors with the omission.
    expect(
      abortedCompiles(`(await import('linkedom')).parseHTML('<p>x</p>').document.createTextNode('x');`),
    ).toBeGreaterThan(100);
  }, 60_000);
});
