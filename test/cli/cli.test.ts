/**
 * The command line's conventions, through the built binary: strict options with a
 * suggestion, --version / -v, per-command help, a command's own option winning over the
 * setting of the same name, exit codes (2 usage or setting, 1 failed operation), start-up
 * failures in one line, settings a command does not use not stopping it, and extract's
 * human output naming each page.
 */
import { readFileSync } from 'node:fs';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFixtureSite } from '../helpers/fixture-site.js';
import { runCli } from '../helpers/spawn-cli.js';

const VERSION = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')).version as string;
type Site = Awaited<ReturnType<typeof startFixtureSite>>;
let site: Site;
beforeAll(async () => {
  site = await startFixtureSite();
});
afterAll(async () => {
  await site?.close();
});

const run = (args: string[], env: Record<string, string> = {}) =>
  runCli(args, { ...(process.env as Record<string, string>), WEBSEARCH_ALLOW_PRIVATE_ADDRESSES: 'true', ...env });

const oneLine = (text: string) => text.trim().split('\n').length === 1 && !/\n\s+at /.test(text);

// Each test spawns its own binaries (each with an in-memory store) and shares only the
// fixture site: the tests run side by side.
describe.concurrent('conventions', () => {
  it('prints the version with --version and -v', async () => {
    for (const flag of ['--version', '-v']) expect((await run([flag])).stdout.trim()).toBe(VERSION);
  });

  it('refuses an unknown option, naming the closest one, with exit 2', async () => {
    const out = await run(['extract', `${site.origin}/text`, '--jsn']);
    expect(out.code).toBe(2);
    expect(out.stderr).toMatch(/unknown option --jsn \(did you mean --json\?\)/);
    expect(oneLine(out.stderr)).toBe(true);
    const setting = await run(['serve', '--prot', '9000']);
    expect(setting.stderr).toMatch(/unknown option --prot \(did you mean --port\?\)/);
    const command = await run(['serch', 'x']);
    expect(command.code).toBe(2);
    expect(command.stderr).toMatch(/unknown command "serch" \(did you mean "search"\?\)/);
  });

  it('has help per command, and --help shows each setting with its default', async () => {
    const extract = await run(['extract', '--help']);
    expect(extract.code).toBe(0);
    expect(extract.stdout).toMatch(/--max-chars N/);
    expect(extract.stdout).not.toMatch(/--content-results/);
    const all = await run(['--help']);
    expect(all.stdout).toMatch(/--port\s+WEBSEARCH_PORT\s+.*\(default: 8787\)/);
    expect(all.stdout).toMatch(/--store\s+WEBSEARCH_STORE\s+.*\(default: sqlite\)/);
  });

  it("lets a command's own --engines win over the setting of that name", async () => {
    const out = await run(['search', 'x', '--engines', 'bing', '--json']);
    expect(out.code).toBe(2);
    expect(out.stderr).toMatch(/invalid_request: .*engines\.0/);
    expect(out.stderr).not.toMatch(/WEBSEARCH_ENGINES/);
    // --json prints the error body too.
    expect(JSON.parse(out.stdout)).toMatchObject({
      error: { code: 'invalid_request', details: [{ path: 'engines.0' }] },
    });
  });

  it('lets --engines win over a WEBSEARCH_ENGINES that names an unknown engine, and prints a bad option as JSON under --json', async () => {
    const out = await run(['search', 'x', '--engines', 'searxng', '--json'], {
      WEBSEARCH_ENGINES: 'bing',
      SEARXNG_URL: 'http://127.0.0.1:1',
      WEBSEARCH_ENGINE_TIMEOUT_MS: '500',
    });
    expect(out.stderr).not.toMatch(/WEBSEARCH_ENGINES/);
    expect(JSON.parse(out.stdout)).toMatchObject({ error: { code: 'engines_unavailable' } });
    const bad = await run(['search', 'x', '--max-results', '0', '--json']);
    expect(bad.code).toBe(2);
    expect(JSON.parse(bad.stdout)).toMatchObject({
      error: { code: 'invalid_request', message: expect.stringMatching(/--max-results/) },
    });
  });

  it('exits 1 when the operation itself fails, with the error body under --json', async () => {
    const out = await run(['search', 'nothing answers', '--engines', 'searxng', '--json'], {
      SEARXNG_URL: 'http://127.0.0.1:1',
      WEBSEARCH_ENGINE_TIMEOUT_MS: '500',
    });
    expect(out.code).toBe(1);
    expect(JSON.parse(out.stdout)).toMatchObject({ error: { code: 'engines_unavailable' } });
  });
});

describe.concurrent('settings', () => {
  it('does not let a setting a command never reads stop it', async () => {
    const out = await run(['extract', `${site.origin}/text`, '--json'], {
      WEBSEARCH_PORT: 'abc',
      WEBSEARCH_HOST: '',
      WEBSEARCH_ENGINES: 'bing',
      WEBSEARCH_ENGINE_WEIGHTS: 'zz',
    });
    expect(out.stderr).toBe('');
    expect(out.code).toBe(0);
    expect(JSON.parse(out.stdout).metadata.successful_crawls).toBe(1);
  });

  it('refuses a blank on/off setting instead of reading it as off', async () => {
    const out = await run(['extract', `${site.origin}/text`], { WEBSEARCH_ROBOTS: '' });
    expect(out.code).toBe(2);
    expect(out.stderr).toMatch(/WEBSEARCH_ROBOTS is set but empty: unset it for the default \(true\)/);
    expect(oneLine(out.stderr)).toBe(true);
  });

  it('refuses a blank port in one line instead of picking one', async () => {
    const out = await run(['serve'], { WEBSEARCH_PORT: ' ' });
    expect(out.code).toBe(2);
    expect(out.stderr).toMatch(/WEBSEARCH_PORT is set but empty/);
    expect(oneLine(out.stderr)).toBe(true);
  });

  it('reports several bad settings and a conflict together, one line each, with exit 2', async () => {
    const out = await run(['serve'], {
      WEBSEARCH_PORT: '70000',
      WEBSEARCH_ROBOTS: 'maybe',
      WEBSEARCH_HEADERS_TIMEOUT_MS: '40000',
      WEBSEARCH_REQUEST_TIMEOUT_MS: '30000',
    });
    expect(out.code).toBe(2);
    const lines = out.stderr.trimEnd().split('\n');
    expect(lines).toEqual([
      'websearch-mcp: 3 settings are wrong:',
      expect.stringMatching(/^ {2}- WEBSEARCH_PORT: .*\(got "70000"\)$/),
      expect.stringMatching(/^ {2}- WEBSEARCH_ROBOTS: .*\(got "maybe"\)$/),
      '  - WEBSEARCH_HEADERS_TIMEOUT_MS (40000) exceeds WEBSEARCH_REQUEST_TIMEOUT_MS (30000)',
    ]);
    expect(out.stderr).not.toMatch(/\n\s+at /);
  });

  it('says which port is in use and what to do, in one line', async () => {
    const blocker = net.createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const port = (blocker.address() as net.AddressInfo).port;
    try {
      const out = await run(['serve', '--port', String(port)]);
      expect(out.code).toBe(2);
      expect(out.stderr).toMatch(
        new RegExp(`127\\.0\\.0\\.1:${port} is in use by another program: choose another with --port`),
      );
      expect(oneLine(out.stderr)).toBe(true);
    } finally {
      blocker.close();
    }
  });
});

describe.concurrent('extract in human mode', () => {
  it("starts each page with its title, source URL, (HTML) page type and authors, the Markdown following as the API's", async () => {
    const out = await run(['extract', `${site.origin}/html`, `${site.origin}/text`]);
    expect(out.code).toBe(0);
    const json = JSON.parse((await run(['extract', `${site.origin}/html`, '--json'])).stdout);
    expect(json.results[0].page_type).toBeDefined();
    expect(json.results[0].authors).toEqual(['Harbour Notes']);
    // Pages print as they complete: either may come first.
    expect(out.stdout).toContain(
      `Title: ${json.results[0].title}\nURL: ${site.origin}/html\nPage type: ${json.results[0].page_type}\nAuthors: Harbour Notes\n\n${json.results[0].markdown}\n`,
    );
    expect(out.stdout).toContain(`\n---\n\nTitle: `);
    // A text page has no page type, so no such line.
    expect(out.stdout).toContain(`URL: ${site.origin}/text\n\n`);
  });

  it('never starts with a blank line or a separator when the first URL to finish failed', async () => {
    // The bad URLs fail at once, before the delayed pages arrive; the separators sit between pages only.
    const out = await run([
      'extract',
      'not-a-url',
      `${site.origin}/delay/300`,
      'ftp://x.example/',
      `${site.origin}/delay/600`,
    ]);
    expect(out.code).toBe(1);
    expect(out.stderr).toMatch(/^not-a-url: invalid_url: /m);
    expect(out.stdout.startsWith('Title: Delayed\n')).toBe(true);
    expect(out.stdout.split('\n---\n')).toHaveLength(2);
    expect(out.stdout.endsWith('\n---\n')).toBe(false);
  });
});

describe.concurrent('through Operations', () => {
  it('runs extract as a request of its own: validated there, its log lines under its request id', async () => {
    const out = await run(['extract', `${site.origin}/text`, '--log-level', 'debug']);
    expect(out.code).toBe(0);
    const lines = out.stderr
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines.find((line) => line.msg === 'operation done')).toMatchObject({
      operation: 'crawl',
      credits_used: 1,
      request_id: expect.stringMatching(/^req_[0-9A-Z]{26}$/),
    });
    // The schema's refusal, as the HTTP API words it (exit 2: a usage mistake).
    const bad = await run(['extract', ...Array.from({ length: 11 }, (_, i) => `${site.origin}/text?${i}`)]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/^websearch-mcp: invalid_request: Invalid request: urls: /);
  });
});
