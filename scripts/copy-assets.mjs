#!/usr/bin/env node
/**
 * The build's second step (after tsc, which compiles only TypeScript): copies the files
 * the code reads at run time from beside its module, so that dist/ (the only directory
 * the package ships) holds them too. Today: the playground's HTML, CSS, browser
 * JavaScript and icon (src/faces/http/playground/ -> dist/faces/http/playground/).
 */
import { cpSync, existsSync, rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const ASSETS = ['faces/http/playground'];

for (const dir of ASSETS) {
  const from = `${ROOT}src/${dir}`;
  const to = `${ROOT}dist/${dir}`;
  if (!existsSync(from)) throw new Error(`copy-assets: ${from} is missing`);
  // A file removed from the sources must not linger in the package.
  rmSync(to, { recursive: true, force: true });
  cpSync(from, to, { recursive: true });
  console.log(`copy-assets: src/${dir} -> dist/${dir}`);
}
