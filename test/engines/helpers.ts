/** Shared helpers of the engine tests: fixtures, responses, default params and contexts. */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';
import { AppError } from '../../src/core/errors.js';
import type { ErrorCode } from '../../src/core/errors.js';
import type { EngineContext, EngineResponse, SearchParams } from '../../src/engines/types.js';

export const FIXTURE_DIR = fileURLToPath(new URL('../fixtures/engines/', import.meta.url));

export function fixture(path: string): string {
  return readFileSync(`${FIXTURE_DIR}${path}`, 'utf8');
}

export interface ManifestEntry {
  engine: string;
  method: 'GET' | 'POST';
  path: string;
  status: number;
  contentType: string;
  headers?: Record<string, string>;
  outcome: { results: number } | { error: ErrorCode };
  note?: string;
}

export function manifest(): Record<string, ManifestEntry> {
  return (JSON.parse(fixture('manifest.json')) as { fixtures: Record<string, ManifestEntry> }).fixtures;
}

export function response(body: string, status = 200, headers: Record<string, string> = {}, url = ''): EngineResponse {
  const lower: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers)) lower[k.toLowerCase()] = v;
  return { url, status, headers: lower, body };
}

export function fixtureResponse(
  path: string,
  status = 200,
  headers: Record<string, string> = {},
  url = '',
): EngineResponse {
  return response(fixture(path), status, headers, url);
}

export function params(overrides: Partial<SearchParams> = {}): SearchParams {
  return { query: 'test query', maxResults: 10, safesearch: 'moderate', ...overrides };
}

export function ctx(overrides: Partial<EngineContext> = {}): EngineContext {
  return { baseUrl: 'http://127.0.0.1:9999', userAgent: 'websearch-mcp-test/1.0', ...overrides };
}

/** Runs fn and returns the AppError it throws (fails the test otherwise). */
export function thrown(fn: () => unknown): AppError {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(AppError);
    return err as AppError;
  }
  throw new Error('expected an AppError to be thrown');
}

export function query(url: string): URLSearchParams {
  return new URL(url).searchParams;
}
