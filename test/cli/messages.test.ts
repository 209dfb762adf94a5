/**
 * The command line's messages as a new user meets them (issue 34, item 13): one program
 * prefix, a bad number named as such, a bare `keys` as a usage mistake, an unknown engine
 * named, and a `--help` that cites nothing a user does not have and says each default once.
 */
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/core/config.js';
import { runCli } from '../helpers/spawn-cli.js';

const run = (args: string[]) => runCli(args, process.env as Record<string, string>);

describe('messages', () => {
  it('names the program once', async () => {
    const out = await run(['--bogus']);
    expect(out.code).toBe(2);
    expect(out.stderr.trim()).toBe('websearch-mcp: unknown option --bogus; see "websearch-mcp --help"');
  });

  it('says what a number must be, for a negative one and for a word', async () => {
    const negative = await run(['serve', '--port', '-1']);
    expect(negative.code).toBe(2);
    expect(negative.stderr.trim()).toBe('websearch-mcp: --port: a whole number from 0 to 65535 (got "-1")');
    const word = await run(['serve', '--port', 'abc']);
    expect(word.stderr).not.toMatch(/NaN|ambiguous/);
    expect(word.stderr).toMatch(/--port: a whole number from 0 to 65535 \(got "abc"\)/);
    const credits = await run(['keys', 'topup', 'key_x', '--credits', '-5']);
    expect(credits.code).toBe(2);
    expect(credits.stderr).toMatch(/--credits needs a whole number of at least 1 \(got "-5"\)/);
    expect(credits.stderr).not.toMatch(/ambiguous/);
  });

  it('never says NaN for a number setting given a word', () => {
    for (const argv of [['--port=abc'], ['--brave-rate-per-second=fast'], ['--fetch-timeout-ms=1.5']]) {
      let message = '';
      try {
        loadConfig({ env: {}, argv });
      } catch (err) {
        message = (err as Error).message;
      }
      expect(message, argv[0]).toMatch(/a (whole )?number/);
      expect(message, argv[0]).not.toMatch(/NaN|expected (number|int)/);
    }
  });

  it('treats a bare `keys` as a usage mistake (usage on stderr, exit 2); `keys --help` is help', async () => {
    const bare = await run(['keys']);
    expect(bare.code).toBe(2);
    expect(bare.stdout).toBe('');
    expect(bare.stderr).toMatch(/keys create/);
    const help = await run(['keys', '--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/keys create/);
  });

  it('names the unknown engine', async () => {
    const out = await run(['search', 'x', '--engines', 'bogus']);
    expect(out.code).toBe(2);
    expect(out.stderr).toMatch(/unknown engine "bogus"; engines: duckduckgo, wikipedia/);
  });

  it('--help cites no spec section, says each default once, and lists the --no- forms', async () => {
    const out = await run(['--help']);
    expect(out.code).toBe(0);
    expect(out.stdout).not.toMatch(/spec \d/);
    expect(out.stdout).not.toMatch(/\(default:[^)]*\)\s*\(default:/);
    expect(out.stdout).toMatch(/--\[no-\]robots\s+WEBSEARCH_ROBOTS/);
    expect(out.stdout).toMatch(/--robots false/);
  });
});
