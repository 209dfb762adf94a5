/**
 * Pass failures of the HTML pipeline through the server: the page extractor counts each
 * in /metrics (`websearch_extract_pass_failures_total{pass}`) and drops them, so neither
 * the crawl answer (its schema unchanged) nor the page cache carries them, and a cache hit
 * counts nothing again. A pass is made to fail by a stand-in for the module it calls, so
 * the conversion runs on this thread (the workers load dist/, which no stand-in reaches).
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type * as TablesModule from '../../src/extract/html/clean/tables.js';
import { buildCore, type Core } from '../../src/compose.js';
import { silentLogger } from '../../src/core/logger.js';
import { extractResponseSchema } from '../../src/core/schemas.js';
import { startHttpServer, type RunningServer } from '../../src/http-server.js';
import { Metrics } from '../../src/services/metrics.js';
import type { ExtractedPage } from '../../src/services/pages/extracted-page.js';
import { startFixtureSite, type FixtureSite } from '../helpers/fixture-site.js';
import { testConfig } from '../helpers/test-server.js';

const broken = vi.hoisted(() => ({ tables: false }));
vi.mock('../../src/extract/html/clean/tables.js', async (importOriginal) => {
  const original = await importOriginal<typeof TablesModule>();
  return {
    ...original,
    normalizeTables: (...args: Parameters<typeof TablesModule.normalizeTables>) => {
      if (broken.tables) throw new TypeError('tables broke');
      return original.normalizeTables(...args);
    },
  };
});

let site: FixtureSite;
beforeAll(async () => {
  site = await startFixtureSite();
});
afterAll(async () => {
  await site?.close();
});

let opened: { core: Core; server: RunningServer } | undefined;
afterEach(async () => {
  broken.tables = false;
  await opened?.server.close();
  await opened?.core.close();
  opened = undefined;
});

/** A server converting on this thread, with the page cache on; no key exists, so /metrics is open on loopback. */
async function server() {
  const core = await buildCore(testConfig({ cache: { ttlMs: 60_000 } }), silentLogger, {
    metrics: new Metrics(),
    converter: 'in-thread',
  });
  const running = await startHttpServer(core);
  opened = { core, server: running };
  const crawl = async (body: unknown) => {
    const res = await fetch(`${running.url}/api/crawl`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    expect(res.status).toBe(200);
    return (await res.json()) as Record<string, any>;
  };
  const failed = async (pass: string): Promise<number> => {
    const text = await (await fetch(`${running.url}/metrics`)).text();
    const match = new RegExp(`^websearch_extract_pass_failures_total\\{pass="${pass}"\\} (\\d+)$`, 'm').exec(text);
    return match === null ? 0 : Number(match[1]);
  };
  const cached = (url: string) => core.store.cache<ExtractedPage>('page').get(`page:markdown:${url}`);
  return { crawl, failed, cached };
}

describe('pass failures in /metrics', () => {
  it('are counted by pass, and carried by no answer and no cache entry', async () => {
    const { crawl, failed, cached } = await server();
    broken.tables = true;
    const answer = await crawl({ urls: [`${site.origin}/html`] });
    expect(answer.results[0]).toMatchObject({ success: true });
    expect(answer.results[0].markdown).not.toBe('');
    expect(extractResponseSchema.parse(answer)).toEqual(answer);
    expect(JSON.stringify(answer)).not.toMatch(/failures|tables broke/);
    // Each candidate the clean passes took failed on its tables, down to the plain text.
    const count = await failed('tables');
    expect(count).toBeGreaterThanOrEqual(1);
    const entry = await cached(`${site.origin}/html`);
    expect(entry?.output.markdown).toBe(answer.results[0].markdown);
    expect(entry?.output).not.toHaveProperty('pass_failures');

    // The cached page comes back as it was answered, and counts nothing again.
    const again = await crawl({ urls: [`${site.origin}/html`] });
    expect(again.metadata.cached_free).toBe(1);
    expect(again.results).toEqual(answer.results.map((r: object) => ({ ...r, from_cache: true })));
    expect(await failed('tables')).toBe(count);
  });

  it('count nothing for a page on which nothing failed', async () => {
    const { crawl, failed } = await server();
    const answer = await crawl({ urls: [`${site.origin}/html`] });
    expect(answer.results[0]).toMatchObject({ success: true });
    expect(await failed('tables')).toBe(0);
  });
});
