/**
 * The package by its name from a CommonJS caller (package.json "exports"): the library is
 * ES modules only, so `require('websearch-mcp')` gives that module where Node.js can
 * require() one and otherwise fails saying to use import(), never with
 * ERR_PACKAGE_PATH_NOT_EXPORTED. Run in a project of its own that holds the package in its
 * node_modules (a link to this checkout's built dist/, as `npm link` leaves it).
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
let project: string;

beforeAll(() => {
  project = mkdtempSync(join(tmpdir(), 'websearch-require-'));
  mkdirSync(join(project, 'node_modules'));
  symlinkSync(ROOT, join(project, 'node_modules', 'websearch-mcp'), 'dir');
});
afterAll(() => {
  rmSync(project, { recursive: true, force: true });
});

function node(args: string[]) {
  return spawnSync(process.execPath, args, { cwd: project, encoding: 'utf8', timeout: 60_000 });
}

describe("require('websearch-mcp')", () => {
  it('gives the ES module itself, the instance import() gives, where Node.js can require() one', () => {
    const run = node([
      '--input-type=module',
      '-e',
      `import { createRequire } from 'node:module';
       const required = createRequire(import.meta.url + '/')('websearch-mcp');
       const imported = await import('websearch-mcp');
       console.log(typeof required.createWebSearch, required.createWebSearch === imported.createWebSearch);`,
    ]);
    expect(run.stderr).toBe('');
    expect(run.stdout.trim()).toBe('function true');
  });

  it('fails with a message saying to use import() where it cannot', () => {
    const run = node(['--no-experimental-require-module', '-e', "require('websearch-mcp')"]);
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('websearch-mcp is ESM-only: use import()');
    expect(run.stderr).toContain("await import('websearch-mcp')");
    expect(run.stderr).not.toContain('ERR_PACKAGE_PATH_NOT_EXPORTED');
  });

  it('is plain require() from a CommonJS file', () => {
    const run = node(['-e', "const { htmlToMarkdown } = require('websearch-mcp'); console.log(typeof htmlToMarkdown)"]);
    expect(run.stderr).toBe('');
    expect(run.stdout.trim()).toBe('function');
  });
});
