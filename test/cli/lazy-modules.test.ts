/**
 * What the stdio server a desktop client keeps open all day carries (issue 34, item 11):
 * the browser driver (playwright-core, ~90 MB once imported) loads only when a page needs
 * the browser, and the Redis client only for a Redis store. A module-resolution hook in
 * the child process reports those modules if they are loaded. (That the renderer still
 * renders through compose is the render tests' part.)
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFixtureSite } from '../helpers/fixture-site.js';

type Site = Awaited<ReturnType<typeof startFixtureSite>>;
let site: Site;
const dir = mkdtempSync(join(tmpdir(), 'websearch-lazy-'));
const hooks = join(dir, 'hooks.mjs');
const register = join(dir, 'register.mjs');
const script = join(dir, 'run.mjs');
const compose = pathToFileURL(join(process.cwd(), 'dist/compose.js')).href;
const config = pathToFileURL(join(process.cwd(), 'dist/core/config.js')).href;
const logger = pathToFileURL(join(process.cwd(), 'dist/core/logger.js')).href;

beforeAll(async () => {
  site = await startFixtureSite();
  writeFileSync(
    hooks,
    `import { writeSync } from 'node:fs';
export async function resolve(specifier, context, next) {
  const found = await next(specifier, context);
  if (/playwright-core|node_modules\\/(@redis|redis)\\//.test(found.url)) writeSync(2, 'LOADED ' + found.url + '\\n');
  return found;
}
`,
  );
  writeFileSync(
    register,
    `import { register } from 'node:module';\nregister(${JSON.stringify(pathToFileURL(hooks).href)});\n`,
  );
  // Builds the core as the stdio server does and extracts one page (argv: the URL, the render mode).
  writeFileSync(
    script,
    `const { buildCore } = await import(${JSON.stringify(compose)});
const { loadConfig } = await import(${JSON.stringify(config)});
const { silentLogger } = await import(${JSON.stringify(logger)});
const cfg = loadConfig({ env: { WEBSEARCH_STORE_PATH: ':memory:', WEBSEARCH_ALLOW_PRIVATE_ADDRESSES: 'true', WEBSEARCH_RENDER: process.argv[3] } });
const core = await buildCore(cfg, silentLogger, { poolSizing: 'footprint' });
const out = await core.operations.extract({ id: 'req_lazy', caller: { key: undefined }, log: silentLogger }, { urls: [process.argv[2]] }).catch((e) => ({ error: e.message }));
process.stdout.write(JSON.stringify(out.results?.[0] ?? out));
await core.close();
`,
  );
});
afterAll(async () => {
  await site?.close();
  rmSync(dir, { recursive: true, force: true });
});

function run(url: string, render: string): Promise<{ stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', pathToFileURL(register).href, script, url, render], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', () => resolve({ stdout, stderr }));
  });
}

describe('modules loaded on demand', () => {
  it('extracts a static page without loading the browser driver or the Redis client', async () => {
    const out = await run(`${site.origin}/text`, 'auto');
    expect(JSON.parse(out.stdout)).toMatchObject({ success: true });
    expect(out.stderr).not.toMatch(/LOADED/);
  });
});
