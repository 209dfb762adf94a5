import { describe, expect, it } from 'vitest';
import { anyGlobMatches, pathGlob } from '../../src/core/path-glob.js';

describe('path globs', () => {
  it('match within a segment (*, ?) and across segments (** as a whole segment)', () => {
    const docs = pathGlob('/docs/**');
    expect(docs.matches('/docs/')).toBe(true);
    expect(docs.matches('/docs/a/b/c')).toBe(true);
    expect(docs.matches('/docs')).toBe(true);
    expect(docs.matches('/doc/a')).toBe(false);
    const one = pathGlob('/blog/*/comments');
    expect(one.matches('/blog/2026/comments')).toBe(true);
    expect(one.matches('/blog/2026/11/comments')).toBe(false);
    expect(pathGlob('/v?/api').matches('/v2/api')).toBe(true);
    expect(pathGlob('/v?/api').matches('/v22/api')).toBe(false);
    expect(pathGlob('*.pdf').matches('/report.pdf')).toBe(true);
    expect(pathGlob('**/*.pdf').matches('/a/b/report.pdf')).toBe(true);
    expect(pathGlob('/guide/d*').matches('/guide/dunes')).toBe(true);
  });

  it('take a glob without a leading slash as rooted, and treat every other character literally', () => {
    expect(pathGlob('docs/*').matches('/docs/x')).toBe(true);
    expect(pathGlob('/a.b/(x)+').matches('/a.b/(x)+')).toBe(true);
    expect(pathGlob('/a.b').matches('/axb')).toBe(false);
    expect(anyGlobMatches([pathGlob('/x/**'), pathGlob('/y')], '/y')).toBe(true);
    expect(anyGlobMatches([], '/y')).toBe(false);
  });

  it('stay fast on patterns that make a regular expression backtrack', () => {
    const glob = pathGlob(`/${'*a'.repeat(40)}b`);
    const path = `/${'a'.repeat(8000)}`;
    const started = performance.now();
    expect(glob.matches(path)).toBe(false);
    const many = pathGlob(`/${'**/'.repeat(20)}z`);
    expect(many.matches(`/${'a/'.repeat(300)}y`)).toBe(false);
    expect(performance.now() - started).toBeLessThan(2_000);
  });
});
