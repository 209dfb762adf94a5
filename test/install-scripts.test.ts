/**
 * Every installed package that runs a script at install time is declared in package.json's
 * `allowScripts` (npm 11 lists undeclared ones after each install, and a later npm refuses
 * them). A new native dependency fails here until it is declared and the README says why.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
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
