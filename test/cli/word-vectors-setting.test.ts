/**
 * WEBSEARCH_WORD_VECTORS and WEBSEARCH_WORD_VECTORS_WORDS are settings like the others: a
 * file that is missing or has a bad line, or a count out of bounds, stops `serve` (and a
 * one-shot command) with one line naming the setting, exit 2, and no stack trace.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CLI, spawnServe, type CliRun } from '../helpers/spawn-cli.js';

const dir = mkdtempSync(join(tmpdir(), 'word-vectors-setting-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The CLI with `env` added; killed if it is still running after 20 s (a server that started after all). */
function run(args: string[], env: Record<string, string>): Promise<CliRun> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, ...args], {
      env: { ...(process.env as Record<string, string>), ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** One line, naming what is wrong, with exit 2 and no trace. */
function expectOneLine(out: CliRun, pattern: RegExp): void {
  expect(out.code, out.stderr).toBe(2);
  expect(out.stderr.endsWith('\n')).toBe(true);
  expect(out.stderr.trimEnd().split('\n')).toHaveLength(1);
  expect(out.stderr).toMatch(pattern);
  expect(out.stderr).not.toMatch(/\n\s+at |internal error/);
}

/** 100 filler rows of 4 numbers, then two words, then `tail`. */
function vectors(tail = ''): string {
  const rows = Array.from({ length: 100 }, (_, i) => `w${i} 0.${i % 10} 0.1 0.2 1`);
  return `${[...rows, 'ferry 1 0 0 0', 'boat 0.9 0.1 0 0'].join('\n')}\n${tail}`;
}

describe('the word vectors settings on the command line', () => {
  it('a good file: serve loads it once at start and logs its words, dimensions and time', async () => {
    const good = join(dir, 'start.txt');
    writeFileSync(good, vectors());
    const env = { ...(process.env as Record<string, string>), WEBSEARCH_WORD_VECTORS: good };
    const server = await spawnServe([], env);
    try {
      const loaded = server.log.text.split('\n').filter((line) => line.includes('word vectors loaded'));
      expect(loaded).toHaveLength(1);
      expect(JSON.parse(loaded[0]!)).toMatchObject({
        level: 30,
        path: good,
        words: 102,
        dims: 4,
        ms: expect.any(Number),
      });
      const health = (await (await fetch(`${server.url}/healthz`)).json()) as Record<string, unknown>;
      expect(health).toMatchObject({ status: 'ok', word_vectors: { words: 102, dims: 4 } });
    } finally {
      expect(await server.stop()).toBe(0);
    }
  });

  it('a missing file: one line naming WEBSEARCH_WORD_VECTORS and the path, exit 2', async () => {
    const missing = join(dir, 'no-such-vectors.txt');
    for (const args of [
      ['serve', '--port', '0'],
      ['extract', 'http://127.0.0.1:9/'],
    ]) {
      const out = await run(args, { WEBSEARCH_WORD_VECTORS: missing });
      expectOneLine(out, new RegExp(`^websearch-mcp: WEBSEARCH_WORD_VECTORS: no file at ${missing} `));
    }
    // The flag says the same.
    const out = await run(['serve', '--port', '0', '--word-vectors', missing], {});
    expectOneLine(out, new RegExp(`WEBSEARCH_WORD_VECTORS: no file at ${missing}`));
    // `keys` ranks nothing: the setting does not stop it.
    expect((await run(['keys', 'list'], { WEBSEARCH_WORD_VECTORS: missing })).code).toBe(0);
  });

  it('a file with a bad line: its line number and what is wrong with it, exit 2', async () => {
    const bad = join(dir, 'bad.txt');
    writeFileSync(bad, vectors('sails 1 2 three 4\n'));
    for (const args of [
      ['serve', '--port', '0'],
      ['extract', 'http://127.0.0.1:9/'],
    ]) {
      const out = await run(args, { WEBSEARCH_WORD_VECTORS: bad });
      expectOneLine(
        out,
        new RegExp(
          `^websearch-mcp: WEBSEARCH_WORD_VECTORS: ${bad} line 103 is not a word and 4 numbers: "sails 1 2 three 4"`,
        ),
      );
    }
    // A directory, and a file of no vectors at all, are bad files too.
    expectOneLine(
      await run(['serve', '--port', '0'], { WEBSEARCH_WORD_VECTORS: dir }),
      new RegExp(`^websearch-mcp: WEBSEARCH_WORD_VECTORS: ${dir} is a directory, not a file`),
    );
    const empty = join(dir, 'empty.txt');
    writeFileSync(empty, '\n\n');
    expectOneLine(
      await run(['serve', '--port', '0'], { WEBSEARCH_WORD_VECTORS: empty }),
      new RegExp(`^websearch-mcp: WEBSEARCH_WORD_VECTORS: ${empty} holds no word vectors`),
    );
  });

  it('a bad WEBSEARCH_WORD_VECTORS_WORDS: one line naming it and its bounds, exit 2', async () => {
    const good = join(dir, 'good.txt');
    writeFileSync(good, vectors());
    for (const value of ['999', '2000001', 'many', '']) {
      const out = await run(['serve', '--port', '0'], {
        WEBSEARCH_WORD_VECTORS: good,
        WEBSEARCH_WORD_VECTORS_WORDS: value,
      });
      expectOneLine(out, /^websearch-mcp: WEBSEARCH_WORD_VECTORS_WORDS/);
      if (value !== '') expect(out.stderr).toContain('a whole number from 1000 to 2000000');
    }
    const flag = await run(['serve', '--port', '0', '--word-vectors-words', '5'], {});
    expectOneLine(flag, /^websearch-mcp: --word-vectors-words: a whole number from 1000 to 2000000 \(got "5"\)/);
  });
});
