/**
 * The playground's files as served: `/` is the page for browsers and a JSON index for API
 * clients; every file carries the strict CSP; the page has no inline script or style and
 * loads nothing from another origin; the files weigh under 150 KB compressed; unknown
 * names are 404 and nothing outside the folder is reachable.
 */
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PLAYGROUND_CSP, PLAYGROUND_FILES } from '../../../src/faces/http/playground-assets.js';
import type { TestApi } from '../../helpers/test-server.js';
import { startTestApi } from '../../helpers/test-server.js';

let a: TestApi;
beforeAll(async () => {
  a = await startTestApi();
});
afterAll(async () => {
  await a?.close();
});

const DIR = new URL('../../../src/faces/http/playground/', import.meta.url);

describe('the playground files', () => {
  it('serves the page at / to a browser, and a JSON index to an API client', async () => {
    const page = await fetch(`${a.url}/`, { headers: { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' } });
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(page.headers.get('content-security-policy')).toBe(PLAYGROUND_CSP);
    expect(await page.text()).toMatch(/<title>websearch-mcp playground<\/title>/);
    expect((await fetch(`${a.url}/`)).headers.get('content-type')).toMatch(/^text\/html/); // curl's */*
    const index = await fetch(`${a.url}/`, { headers: { accept: 'application/json' } });
    expect(index.status).toBe(200);
    const body = (await index.json()) as any;
    expect(body).toMatchObject({ name: 'websearch-mcp', openapi: '/openapi.json' });
    expect(body.routes).toEqual(expect.arrayContaining(['GET /api/usage', 'GET /r/*', 'POST /api/crawl']));
  });

  it('serves every file with its type, the CSP, nosniff, an ETag (304) and gzip when asked', async () => {
    for (const [name, type] of Object.entries(PLAYGROUND_FILES)) {
      const res = await fetch(`${a.url}/playground/${name}`);
      expect(res.status, name).toBe(200);
      expect(res.headers.get('content-type')).toBe(type);
      expect(res.headers.get('content-security-policy')).toBe(PLAYGROUND_CSP);
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect(Buffer.from(await res.arrayBuffer()).equals(readFileSync(new URL(name, DIR)))).toBe(true);
      const etag = res.headers.get('etag') as string;
      expect((await fetch(`${a.url}/playground/${name}`, { headers: { 'if-none-match': etag } })).status).toBe(304);
    }
    // fetch decodes gzip itself: the header says it was sent compressed.
    const gz = await fetch(`${a.url}/playground/playground.js`, { headers: { 'accept-encoding': 'gzip' } });
    expect(gz.headers.get('content-encoding')).toBe('gzip');
    expect(await gz.text()).toBe(readFileSync(new URL('playground.js', DIR), 'utf8'));
  });

  it('answers 404 for unknown names and anything outside the folder', async () => {
    for (const path of ['/playground/nope.js', '/playground/..%2F..%2Fauth.ts', '/playground/%2e%2e%2fapp.ts']) {
      expect((await fetch(`${a.url}${path}`)).status, path).toBe(404);
    }
  });

  it('has no inline script or style and nothing from another origin (the CSP allows neither)', () => {
    const html = readFileSync(new URL('index.html', DIR), 'utf8');
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/i);
    expect(html).not.toMatch(/<style|\sstyle=|\son[a-z]+=/i);
    expect(html).not.toMatch(/(src|href)="(https?:)?\/\//i);
    for (const name of Object.keys(PLAYGROUND_FILES).filter((n) => n.endsWith('.js'))) {
      const js = readFileSync(new URL(name, DIR), 'utf8');
      expect(js, name).not.toMatch(/innerHTML|outerHTML|insertAdjacentHTML|document\.write|eval\(|new Function/);
    }
    expect(PLAYGROUND_CSP).toMatch(/default-src 'none'/);
    expect(PLAYGROUND_CSP).not.toMatch(/unsafe-inline|unsafe-eval|\*/);
  });

  it('weighs under 150 KB compressed, all files together', () => {
    const total = Object.keys(PLAYGROUND_FILES).reduce(
      (sum, name) => sum + gzipSync(readFileSync(new URL(name, DIR)), { level: 9 }).length,
      0,
    );
    console.log(`playground files: ${total} bytes gzipped`);
    expect(total).toBeLessThan(150 * 1024);
  });
});
