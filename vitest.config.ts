import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

/**
 * Files that measure the server under load (latency percentiles, conversions within a
 * deadline): they run alone, after the others, so no other file's work skews them.
 */
const ALONE = ['test/workers/hostile-pages.test.ts'];

export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // Vitest's default is one fork fewer than the cores: one file at a time on a 2-core
    // machine, while most files spend their time waiting on spawned binaries, servers and
    // browsers. One fork per core; VITEST_MAX_WORKERS overrides it.
    maxWorkers: availableParallelism(),
    // The conversion pool's workers run dist/: built here when src/ is newer.
    globalSetup: ['test/helpers/build-dist.ts'],
    // Servers and CLI runs spawned by tests inherit this: no test writes to the user's
    // state directory or sees another run's cache. Tests of the file store name their own.
    env: { WEBSEARCH_STORE_PATH: ':memory:' },
    projects: [
      // Each project names its own files: `extends` would add the root's list to its own.
      { extends: true, test: { name: 'side-by-side', include: ['test/**/*.test.ts'], exclude: ALONE } },
      // One fork: Vitest runs such a project's files after every other file.
      { extends: true, test: { name: 'alone', include: ALONE, maxWorkers: 1 } },
    ],
  },
});
