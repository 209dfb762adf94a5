import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // The conversion pool's workers run dist/: built here when src/ is newer.
    globalSetup: ['test/helpers/build-dist.ts'],
    // Servers and CLI runs spawned by tests inherit this: no test writes to the user's
    // state directory or sees another run's cache. Tests of the file store name their own.
    env: { WEBSEARCH_STORE_PATH: ':memory:' },
  },
});
