/**
 * Long CLI work shows its progress (issue 34, item 14): a progress line on stderr only
 * when stderr is a terminal, each page printed as it completes, `--jsonl` as one JSON line
 * per result then the metadata, a bare `websearch-mcp` on a terminal saying what it is,
 * and `serve` naming its store and whether it renders.
 */
import { spawn, spawnSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ProgressLine } from '../../src/cli/progress.js';
import { startFixtureSite } from '../helpers/fixture-site.js';
import { CLI, runCli, spawnServe } from '../helpers/spawn-cli.js';

type Site = Awaited<ReturnType<typeof startFixtureSite>>;
let site: Site;
beforeAll(async () => {
  site = await startFixtureSite();
});
afterAll(async () => {
  await site?.close();
});
const env = (extra: Record<string, string> = {}) => ({
  ...(process.env as Record<string, string>),
  WEBSEARCH_ALLOW_PRIVATE_ADDRESSES: 'true',
  ...extra,
});

const hasScript = spawnSync('script', ['--version']).status === 0;

/** Runs the binary on a pseudo-terminal (util-linux `script`); its stdout and stderr come back as one. Async: the fixture site answers from this process. */
function inTerminal(args: string[], extra: Record<string, string> = {}): Promise<string> {
  const command = [process.execPath, CLI, ...args].map((a) => `'${a}'`).join(' ');
  return new Promise((resolve) => {
    const child = spawn('script', ['-qec', command, '/dev/null'], {
      env: env(extra),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    const timer = setTimeout(() => child.kill(), 20_000);
    child.on('close', () => {
      clearTimeout(timer);
      resolve(out);
    });
  });
}

describe('the progress line', () => {
  it('counts done and failed with the time elapsed, and clears itself around output', () => {
    const written: string[] = [];
    let now = 0;
    const line = new ProgressLine({ isTTY: true, write: (t) => written.push(t) }, 3, { now: () => now });
    line.start();
    now = 1500;
    line.step(false);
    line.step(true);
    expect(line.text()).toBe('2/3 URLs done, 1 failed, 1.5 s');
    line.print(() => written.push('PAGE'));
    line.finish();
    const out = written.join('');
    expect(out).toContain('\r\u001b[K2/3 URLs done, 1 failed, 1.5 s\r\u001b[KPAGE\r\u001b[K2/3 URLs done');
    expect(out.endsWith('\r\u001b[K')).toBe(true);
  });

  it('writes nothing when stderr is not a terminal', () => {
    const written: string[] = [];
    const line = new ProgressLine({ isTTY: false, write: (t) => written.push(t) }, 2);
    line.start();
    line.step(true);
    line.print(() => written.push('PAGE'));
    line.finish();
    expect(written).toEqual(['PAGE']);
  });
});

describe('extract', () => {
  it('--jsonl prints each result as it completes, then the metadata', async () => {
    // The hanging URL comes first but finishes last, at the fetch deadline.
    const out = await runCli(
      ['extract', '--jsonl', '--fetch-timeout-ms', '1500', `${site.origin}/hang`, `${site.origin}/text`],
      env(),
    );
    expect(out.code).toBe(1);
    const lines = out.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines).toHaveLength(3);
    expect(lines[0]).toMatchObject({ url: `${site.origin}/text`, success: true });
    expect(lines[1]).toMatchObject({ url: `${site.origin}/hang`, success: false, error_type: 'timeout' });
    expect(lines[2]).toMatchObject({ metadata: { total_urls: 2, successful_crawls: 1, failed_crawls: 1 } });
    // Not a terminal: no progress line.
    expect(out.stderr).not.toMatch(/URLs done/);
  });

  it.skipIf(!hasScript)(
    'on a terminal, shows the progress line on stderr and prints the first page before the slow one ends',
    async () => {
      const out = await inTerminal([
        'extract',
        '--fetch-timeout-ms',
        '1500',
        `${site.origin}/hang`,
        `${site.origin}/text`,
      ]);
      expect(out).toContain('\r\u001b[K0/2 URLs done, 0 failed, ');
      expect(out).toMatch(/2\/2 URLs done, 1 failed/);
      // The text page is printed while the hanging one still counts as not done.
      expect(out.indexOf('URL: ')).toBeGreaterThan(-1);
      expect(out.indexOf('URL: ')).toBeLessThan(out.indexOf('2/2 URLs done'));
    },
  );
});

describe('banners', () => {
  it.skipIf(!hasScript)(
    'a bare websearch-mcp on a terminal says it is a stdio MCP server waiting for a client',
    async () => {
      const out = await inTerminal([]);
      expect(out).toMatch(/MCP server on stdio, waiting for a client/);
    },
  );

  it('serve --help names the playground, the reader and the usage route', async () => {
    const out = await runCli(['serve', '--help'], env({}));
    for (const face of ['playground at /', 'GET /r/<url>', 'GET /api/usage', '/openapi.json'])
      expect(out.stdout).toContain(face);
  });

  it('stays silent on stdout and stderr when a client spawns it (stdin not a terminal)', async () => {
    const out = await runCli([], env({ WEBSEARCH_LOG_LEVEL: 'warn' }));
    expect(out.stderr).not.toMatch(/waiting for a client/);
    expect(out.stdout).toBe('');
  });

  it('serve names its store and whether it renders', async () => {
    const server = await spawnServe([], env({ WEBSEARCH_RENDER: 'never', WEBSEARCH_LOG_LEVEL: 'warn' }));
    try {
      await new Promise((r) => setTimeout(r, 100));
      expect(server.log.text).toMatch(/store: sqlite :memory:; rendering: off \(WEBSEARCH_RENDER=never\)/);
      // Every face a person or program reaches, so a new user sees the playground and the reader.
      for (const face of ['playground at /', 'GET /r/<url>', 'GET /api/usage', 'at /mcp'])
        expect(server.log.text).toContain(face);
    } finally {
      await server.stop();
    }
  });
});
