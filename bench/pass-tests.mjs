#!/usr/bin/env node
// Which extraction tests need each pass: the tests under test/extract run once per pass or
// rule of the pipeline with it switched off (bench/pass-off.vitest.config.ts mocks the
// pipeline's entry so that every page conversion in them has it off); a pass that no
// test needs and that gains nothing in the ablation bench has not earned its place.
//
//   node bench/pass-tests.mjs [--only A,B] [--markdown FILE]
//
// Prints, per name, how many tests fail with it off and the first of them.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { UsageError, commandLine, helpText } from './dev-pages.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { SWITCHES } = await import(pathToFileURL(path.join(ROOT, 'dist/extract/html/pipeline.js')).href);
let names = SWITCHES;
let markdown = null;
try {
  for (const { name, value } of commandLine(process.argv.slice(2))) {
    if (name === '--only')
      names = value()
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean);
    else if (name === '--markdown') markdown = value();
    else if (name === '-h' || name === '--help') {
      console.log(helpText(import.meta.url));
      process.exit(0);
    } else throw new UsageError(`unknown option ${name} (--only A,B, --markdown FILE)`);
  }
  // A misspelt name would switch nothing off and pass every test.
  for (const name of names)
    if (!SWITCHES.includes(name)) throw new UsageError(`no pass or rule named ${name} (known: ${SWITCHES.join(', ')})`);
} catch (error) {
  if (!(error instanceof UsageError)) throw error;
  console.error(`pass-tests: ${error.message}`);
  process.exit(2);
}
const rows = [];
for (const name of names) {
  const report = path.join(ROOT, `.pass-tests-${process.pid}.json`);
  spawnSync(
    'npx',
    ['vitest', 'run', '--config', 'bench/pass-off.vitest.config.ts', '--reporter=json', `--outputFile=${report}`],
    {
      cwd: ROOT,
      env: { ...process.env, PIPELINE_OFF: name },
      stdio: 'ignore',
    },
  );
  const result = JSON.parse(fs.readFileSync(report, 'utf8'));
  fs.rmSync(report, { force: true });
  const failed = result.testResults.flatMap((file) =>
    file.assertionResults.filter((t) => t.status === 'failed').map((t) => `${path.basename(file.name)}: ${t.fullName}`),
  );
  rows.push({ name, failed: failed.length, first: failed[0] ?? '' });
  console.log(`${name.padEnd(22)} ${String(failed.length).padStart(3)}  ${failed[0] ?? ''}`);
}
if (markdown) {
  const lines = [
    '| name | tests failing with it off | the first of them |',
    '| --- | --- | --- |',
    ...rows.map((r) => `| ${r.name} | ${r.failed} | ${r.first.replace(/\|/g, '\\|')} |`),
  ];
  fs.writeFileSync(markdown, `${lines.join('\n')}\n`);
}
