/**
 * Vitest global setup: worker threads load JavaScript only, so the conversion pool runs
 * the compiled worker in dist/ even when the tests run src/. When any source file is newer
 * than that build (a targeted `npx vitest run` after an edit), it is rebuilt first, so no
 * test ever converts with stale code. `npm test` builds before and finds it fresh.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const WORKER = join(ROOT, 'dist/workers/convert-worker-entry.cjs');

function newestSource(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestSource(path) : statSync(path).mtimeMs);
  }
  return newest;
}

export default function setup(): void {
  if (existsSync(WORKER) && statSync(WORKER).mtimeMs >= newestSource(join(ROOT, 'src'))) return;
  const tsc = join(ROOT, 'node_modules/typescript/bin/tsc');
  const run = spawnSync(process.execPath, [tsc, '-p', 'tsconfig.build.json'], { cwd: ROOT, encoding: 'utf8' });
  if (run.status !== 0)
    throw new Error(`building dist/ for the conversion workers failed:\n${run.stdout}${run.stderr}`);
}
