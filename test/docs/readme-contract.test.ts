/**
 * What the README promises a user, checked against the code so the two cannot drift: every
 * error code the server can send is in its tables, and one project URL and version are
 * used everywhere (package.json, the User-Agent, the README).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { PROJECT_URL, VERSION, loadConfig } from '../../src/core/config.js';
import { REQUEST_ERROR_CODES, URL_ERROR_CODES, contentErrorOf, extractionErrorTypeOf } from '../../src/core/errors.js';

const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
  version: string;
  homepage: string;
  repository: { url: string };
  bugs: { url: string };
};

describe('the README', () => {
  it.each([...REQUEST_ERROR_CODES])('documents the request error %s', (code) => {
    expect(readme).toContain(`\`${code}\``);
  });

  it.each([...new Set(URL_ERROR_CODES.map((c) => extractionErrorTypeOf(c)))])('documents the error_type %s', (type) => {
    expect(readme).toContain(`\`${type}\``);
  });

  it.each([...new Set(URL_ERROR_CODES.map((c) => contentErrorOf(c)))])('documents the content_error %s', (value) => {
    expect(readme).toContain(`\`${value}\``);
  });

  it('names one project URL, the one of package.json and the User-Agent', () => {
    expect(pkg.homepage.startsWith(PROJECT_URL)).toBe(true);
    expect(pkg.repository.url).toBe(`git+${PROJECT_URL}.git`);
    expect(pkg.bugs.url).toBe(`${PROJECT_URL}/issues`);
    expect(pkg.version).toBe(VERSION);
    expect(loadConfig({ env: {}, overrides: { store: { path: ':memory:' } } }).fetch.userAgent).toContain(
      `+${PROJECT_URL})`,
    );
    const urls = [...readme.matchAll(/https:\/\/github\.com\/[^\s)"'`#]+/g)].map((m) => m[0].replace(/\.git$/, ''));
    for (const url of urls) expect(url.startsWith(PROJECT_URL), url).toBe(true);
  });
});
