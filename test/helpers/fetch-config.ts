/**
 * Fetch and robots settings for tests: the real defaults (loadConfig with an empty
 * environment) with per-test overrides. Built as plain objects so tests may use limits
 * below the config schema's minimums (e.g. a 300 ms idle timeout).
 */
import { loadConfig, type Config } from '../../src/core/config.js';

const defaults = loadConfig({ env: {} });

export function fetchConfig(overrides: Partial<Config['fetch']> = {}): Config['fetch'] {
  return { ...defaults.fetch, ...overrides };
}

export function robotsConfig(overrides: Partial<Config['robots']> = {}): Config['robots'] {
  return { ...defaults.robots, ...overrides };
}
