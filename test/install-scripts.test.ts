/**
 * Every installed package that runs a script at install time is declared in package.json's
 * `allowScripts` (npm 11 lists undeclared ones after each install, and a later npm refuses
 * them). A new native dependency fails here until it is declared and the README says why.
 * The README's commands that install the package itself run without that list too: its own
 * `prepare` is one no entry of its own `allowScripts` can cover (README, "Installing the
 * command").
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const INSTALL_SCRIPTS = ['preinstall', 'install', 'postinstall'] as const;

/** Names of the packages under a node_modules folder (nested ones included) with an install-time script. */
function withInstallScripts(modules: string, found = new Set<string>()): Set<string> {
  if (!existsSync(modules)) return found;
  for (const entry of readdirSync(modules)) {
    if (entry.startsWith('.')) continue;
    const dirs = entry.startsWith('@') ? readdirSync(join(modules, entry)).map((n) => join(entry, n)) : [entry];
    for (const name of dirs) {
      const dir = join(modules, name);
      const manifest = join(dir, 'package.json');
      if (!existsSync(manifest)) continue;
      const scripts = (JSON.parse(readFileSync(manifest, 'utf8')) as { scripts?: Record<string, string> }).scripts;
      // npm runs `node-gyp rebuild` for a binding.gyp that no install script handles.
      const gyp = existsSync(join(dir, 'binding.gyp')) && !scripts?.install && !scripts?.preinstall;
      if (gyp || INSTALL_SCRIPTS.some((s) => scripts?.[s])) found.add(name.replaceAll('\\', '/'));
      withInstallScripts(join(dir, 'node_modules'), found);
    }
  }
  return found;
}

describe('install scripts', () => {
  it('are declared in allowScripts, each one, and nothing else is', () => {
    const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
      allowScripts?: Record<string, boolean>;
    };
    const declared = Object.keys(manifest.allowScripts ?? {}).map((key) => key.replace(/(.)@.*$/, '$1'));
    const installed = [...withInstallScripts(join(ROOT, 'node_modules'))].sort();
    expect(installed).toContain('better-sqlite3');
    expect(declared.sort()).toEqual(installed);
  });
});

describe("the README's commands that install the package itself", () => {
  const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
    version: string;
    allowScripts?: Record<string, boolean>;
  };
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const block = /### Installing the command\n[\s\S]*?```sh\n([\s\S]*?)```/.exec(readme)?.[1] ?? '';
  const commands = block
    .split('\n')
    .map((line) => line.replace(/\s+#.*$/, '').trim())
    .filter((line) => line !== '' && !line.startsWith('#'));

  it('link the clone without running its build again, and npm lists no unreviewed script', () => {
    const link = commands.find((c) => c.startsWith('npm link'));
    expect(link).toBe('npm link --ignore-scripts');
    // Into a throwaway global prefix: the link and its bin, nothing else, are written there.
    const prefix = mkdtempSync(join(tmpdir(), 'websearch-link-'));
    try {
      const run = spawnSync('npm', (link as string).split(' ').slice(1), {
        cwd: ROOT,
        encoding: 'utf8',
        timeout: 120_000,
        env: {
          ...process.env,
          npm_config_prefix: prefix,
          npm_config_update_notifier: 'false',
          npm_config_fund: 'false',
        },
      });
      expect(run.status, run.stderr).toBe(0);
      expect(run.stderr).not.toMatch(/install-scripts|allowScripts/);
      expect(existsSync(join(prefix, 'bin', 'websearch-mcp'))).toBe(true);
    } finally {
      rmSync(prefix, { recursive: true, force: true });
    }
  });

  it('allow, for the global tarball install, the allowed dependencies and the tarball itself by its file: path', () => {
    const install = commands.find((c) => c.includes('npm install -g')) ?? '';
    const tarball = `websearch-mcp-${manifest.version}.tgz`;
    expect(install.endsWith(` ./${tarball}`)).toBe(true);
    const allowed = /--allow-scripts=(\S+)/.exec(install)?.[1]?.split(',') ?? [];
    // The scripts the project allows (true); one it declines (false) is left out, as npm leaves it unrun.
    const allows = Object.entries(manifest.allowScripts ?? {}).flatMap(([name, run]) => (run ? [name] : []));
    expect(allowed).toEqual([...allows, `file:$PWD/${tarball}`]);
  });
});
