// The extraction tests with the pipeline passes in PIPELINE_OFF switched off (bench/pass-tests.mjs).
import { defineConfig, mergeConfig } from 'vitest/config';
import base from '../vitest.config.js';

export default mergeConfig(base, defineConfig({ test: { include: ['test/extract/**/*.test.ts'], globalSetup: [], setupFiles: ['bench/pass-off-setup.ts'] } }));
