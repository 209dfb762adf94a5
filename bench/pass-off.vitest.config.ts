// The extraction tests with the pipeline passes in PIPELINE_OFF switched off (bench/pass-tests.mjs).
import { defineConfig } from 'vitest/config';
import base from '../vitest.config.js';

export default defineConfig({
  // One project of extraction files (the base's projects split the whole suite).
  test: {
    ...base.test,
    projects: undefined,
    include: ['test/extract/**/*.test.ts'],
    setupFiles: ['bench/pass-off-setup.ts'],
  },
});
