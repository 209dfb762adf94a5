/**
 * Every setting is a flag with its value (issue 34, item 12): an on/off flag alone, negated
 * or with true/false; the list form of --allow-private-addresses as the next argument or
 * after `=`; a value that starts with a dash; setting flags before the command. The parser
 * is checked directly, and the two reported cases through the built binary.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseCommand, splitCommand, UsageError } from '../../src/cli/args.js';
import { loadConfig } from '../../src/core/config.js';
import { startFixtureSite } from '../helpers/fixture-site.js';
import { runCli } from '../helpers/spawn-cli.js';

const EXTRACT = { json: { type: 'boolean' }, 'max-chars': { type: 'string' } } as const;
const parse = (args: string[]) => parseCommand('extract', args, EXTRACT);
const configOf = (args: string[]) => loadConfig({ env: {}, argv: parse(args).settings });

describe('on/off settings', () => {
  it('reads `--robots false` as the value, not as a URL', () => {
    const parsed = parse(['--robots', 'false', 'https://example.com/']);
    expect(parsed.positionals).toEqual(['https://example.com/']);
    expect(configOf(['--robots', 'false', 'https://example.com/']).robots.enabled).toBe(false);
  });

  it('takes a switch alone, negated, with true/false, and every variable form after =', () => {
    expect(configOf(['--no-robots']).robots.enabled).toBe(false);
    expect(configOf(['--robots']).robots.enabled).toBe(true);
    expect(configOf(['--no-robots', '--robots', 'true']).robots.enabled).toBe(true);
    for (const off of ['false', 'off', 'no', '0']) expect(configOf([`--robots=${off}`]).robots.enabled).toBe(false);
    expect(configOf(['--mcp-stateless=on']).mcp.stateless).toBe(true);
  });

  it('leaves a word that is not true/false to the command (a query word stays a query word)', () => {
    const parsed = parseCommand('search', ['--no-robots', 'rust', '--json', 'yes'], EXTRACT);
    expect(parsed.positionals).toEqual(['rust', 'yes']);
    expect(parsed.options.json).toBe(true);
  });

  it('refuses a value after = that is not on/off, and a value on a --no- flag', () => {
    expect(() => parse(['--robots=maybe'])).toThrow(/--robots is on or off: true or false \(got "maybe"\)/);
    expect(() => parse(['--no-robots=true'])).toThrow(/--no-robots takes no value/);
  });
});

describe('--allow-private-addresses', () => {
  it('takes a list as the next argument, allowing only it, and leaves the URL a URL', () => {
    const parsed = parse(['--allow-private-addresses', '127.0.0.1:9100', 'http://127.0.0.1:9100/']);
    expect(parsed.positionals).toEqual(['http://127.0.0.1:9100/']);
    expect(
      configOf(['--allow-private-addresses', '127.0.0.1:9100', 'http://127.0.0.1:9100/']).fetch.allowPrivateAddresses,
    ).toEqual([{ kind: 'address', address: '127.0.0.1', port: 9100 }]);
  });

  it('takes the list after = too', () => {
    expect(configOf(['--allow-private-addresses=10.2.0.0/16,wiki.corp:443']).fetch.allowPrivateAddresses).toEqual([
      { kind: 'range', address: '10.2.0.0', prefix: 16 },
      { kind: 'host', host: 'wiki.corp', port: 443 },
    ]);
  });

  it('stays an on/off flag when what follows is a URL', () => {
    const parsed = parse(['--allow-private-addresses', 'http://10.0.0.1/']);
    expect(parsed.positionals).toEqual(['http://10.0.0.1/']);
    expect(configOf(['--allow-private-addresses', 'http://10.0.0.1/']).fetch.allowPrivateAddresses).toBe(true);
    expect(configOf(['--no-allow-private-addresses']).fetch.allowPrivateAddresses).toBe(false);
    // An option after it leaves it bare too.
    expect(configOf(['--allow-private-addresses', '--json']).fetch.allowPrivateAddresses).toBe(true);
  });

  it('takes a mistyped list as the list, refused naming the flag and the value, never as a URL', () => {
    const url = 'http://127.0.0.1:9100/a.html';
    const cases: [string, RegExp][] = [
      ['127.0.0.1:99999', /port "99999" is not 1-65535/],
      ['300.1.1.1', /"300\.1\.1\.1" is not an allowed origin/],
      ['10.0.0.0/33', /not a valid CIDR range/],
      ['wiki.corp', /a host name needs a port/],
      ['localhost', /a host name needs a port/],
      // A URL without its scheme is no URL: read as the list, it is refused rather than fetched open.
      ['127.0.0.1:9100/a.html', /not a valid CIDR range/],
      ['127.0.0.1:9100,10.0.0.0/99', /"10\.0\.0\.0\/99" is not an allowed origin/],
    ];
    for (const [list, why] of cases) {
      const parsed = parse(['--allow-private-addresses', list, url]);
      expect(parsed.positionals, list).toEqual([url]);
      expect(parsed.settings, list).toEqual([`--allow-private-addresses=${list}`]);
      expect(() => configOf(['--allow-private-addresses', list, url]), list).toThrow(why);
      expect(() => configOf(['--allow-private-addresses', list, url]), list).toThrow(
        `--allow-private-addresses: true, false or a comma-separated list of allowed origins: "${list.split(',').at(-1)}"`,
      );
    }
  });

  it('leaves a command after it to be the command, and takes a list before the command', () => {
    const commands = ['serve', 'extract', 'search'];
    expect(splitCommand(['--allow-private-addresses', 'extract', 'http://x.example/'], commands)).toEqual({
      command: 'extract',
      args: ['--allow-private-addresses', 'http://x.example/'],
    });
    expect(splitCommand(['--allow-private-addresses', '127.0.0.1:99999', 'extract', 'u'], commands)).toEqual({
      command: 'extract',
      args: ['--allow-private-addresses', '127.0.0.1:99999', 'u'],
    });
  });
});

describe('values', () => {
  it('gives a value that starts with a dash to its flag, for the setting to judge', () => {
    expect(parseCommand('serve', ['--port', '-1'], {}).settings).toEqual(['--port=-1']);
    expect(() => loadConfig({ env: {}, argv: ['--port=-1'] })).toThrow(/--port: a whole number from 0 to 65535/);
    expect(parseCommand('keys topup', ['k', '--credits', '-5'], { credits: { type: 'string' } }).options).toEqual({
      credits: '-5',
    });
  });

  it('says a flag needs a value when none follows', () => {
    expect(() => parseCommand('serve', ['--port'], {})).toThrow(UsageError);
    expect(() => parseCommand('serve', ['--port', '--json'], {})).toThrow(/--port needs a value/);
  });
});

describe('setting flags before the command', () => {
  it('finds the command after them and keeps them for it', () => {
    expect(splitCommand(['--log-level', 'warn', 'serve', '--port', '0'])).toEqual({
      command: 'serve',
      args: ['--log-level', 'warn', '--port', '0'],
    });
    expect(splitCommand(['--no-robots', '--robots', 'false', 'extract', 'u'])).toEqual({
      command: 'extract',
      args: ['--no-robots', '--robots', 'false', 'u'],
    });
    expect(splitCommand(['--port=1', '--log-level', 'warn'])).toEqual({
      command: '',
      args: ['--port=1', '--log-level', 'warn'],
    });
  });
});

describe('through the binary', () => {
  type Site = Awaited<ReturnType<typeof startFixtureSite>>;
  let site: Site;
  beforeAll(async () => {
    site = await startFixtureSite();
  });
  afterAll(async () => {
    await site?.close();
  });
  const env = () => {
    const e = { ...(process.env as Record<string, string>) };
    delete e.WEBSEARCH_ALLOW_PRIVATE_ADDRESSES;
    return e;
  };

  it('extract --allow-private-addresses HOST:PORT URL allows that origin only', async () => {
    const port = new URL(site.origin).port;
    const allowed = await runCli(
      ['extract', '--allow-private-addresses', `127.0.0.1:${port}`, `${site.origin}/text`],
      env(),
    );
    expect(allowed.stderr).toBe('');
    expect(allowed.code).toBe(0);
    const other = await runCli(['extract', '--allow-private-addresses', '127.0.0.1:1', `${site.origin}/text`], env());
    expect(other.code).toBe(1);
    expect(other.stderr).toMatch(/forbidden_address/);
    expect(other.stderr).not.toMatch(/invalid_url/);
  });

  it('refuses a mistyped list after the flag with exit 2 in one line, fetching nothing', async () => {
    const before = site.connections();
    for (const list of ['127.0.0.1:99999', '300.1.1.1', '10.0.0.0/33']) {
      const out = await runCli(['extract', '--allow-private-addresses', list, `${site.origin}/text`], env());
      expect(out.code, list).toBe(2);
      expect(out.stdout, list).toBe('');
      const lines = out.stderr.trim().split('\n');
      expect(lines, list).toHaveLength(1);
      expect(lines[0], list).toMatch(
        new RegExp(`^websearch-mcp: --allow-private-addresses: .*\\(got "${list.replace(/[.]/g, '\\.')}"\\)$`),
      );
    }
    // Before the command too.
    const early = await runCli(
      ['--allow-private-addresses', '127.0.0.1:99999', 'extract', `${site.origin}/text`],
      env(),
    );
    expect(early.code).toBe(2);
    expect(early.stderr).toMatch(/--allow-private-addresses: .*port "99999" is not 1-65535/);
    expect(site.connections()).toBe(before);
  });

  it('a bare flag before a URL allows every private address, and before the command leaves the command', async () => {
    const bare = await runCli(['extract', '--allow-private-addresses', `${site.origin}/text`], env());
    expect(bare.stderr).toBe('');
    expect(bare.code).toBe(0);
    expect(bare.stdout).toContain(`URL: ${site.origin}/text`);
    const early = await runCli(['--allow-private-addresses', 'extract', `${site.origin}/text`, '--json'], env());
    expect(early.code).toBe(0);
    expect(JSON.parse(early.stdout).metadata.successful_crawls).toBe(1);
  });

  it('--help states the rule of the argument after the flag', async () => {
    const help = await runCli(['--help'], env());
    expect(help.stdout).toMatch(
      /--\[no-\]allow-private-addresses .*the flag takes the next argument as its list unless that is a URL \(:\/\/\), an option or the command/,
    );
  });

  it('--log-level warn serve reaches serve (a setting before the command)', async () => {
    const out = await runCli(['--log-level', 'warn', 'serve', '--port', 'x'], env());
    // Reaches serve's settings (a bad port), instead of refusing "serve" as an argument.
    expect(out.code).toBe(2);
    expect(out.stderr.trim()).toBe('websearch-mcp: --port: a whole number from 0 to 65535 (got "x")');
  });
});
