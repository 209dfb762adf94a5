/**
 * No site can take the server down: the built binary, serving, is sent crawls of many URLs
 * at once on an origin that answers with every odd framing (bodies delimited by the close,
 * cut connections, bodies shorter and longer than their Content-Length, junk after a
 * response, no status line, a bad chunk size). Each URL ends as a result of its own, a
 * page or a per-URL error; the server answers every request and is still alive after.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { markerOf, RAW_SCENARIOS, startRawOrigin, type RawOrigin } from '../helpers/raw-origin.js';
import { spawnServe, type ServeProcess } from '../helpers/spawn-cli.js';

// Several origins (ports), so the per-host limit lets many pages arrive at once.
let origins: RawOrigin[] = [];
let server: ServeProcess;

beforeAll(async () => {
  origins = await Promise.all(Array.from({ length: 6 }, () => startRawOrigin()));
  server = await spawnServe([], {
    ...(process.env as Record<string, string>),
    WEBSEARCH_STORE_PATH: ':memory:',
    WEBSEARCH_ALLOW_PRIVATE_ADDRESSES: 'true',
    WEBSEARCH_RENDER: 'never',
    WEBSEARCH_LOG_LEVEL: 'warn',
  });
});
afterAll(async () => {
  await server?.kill();
  await Promise.all(origins.map((o) => o.close()));
});

interface ExtractResult {
  url: string;
  success: boolean;
  markdown: string;
  error_type?: string;
}

async function crawl(urls: string[]): Promise<{ status: number; results: ExtractResult[] }> {
  const res = await fetch(`${server.url}/api/crawl`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ urls, timeout_ms: 60_000 }),
  });
  const body = (await res.json()) as { results?: ExtractResult[] };
  return { status: res.status, results: body.results ?? [] };
}

describe('a crawl of hostile framings', () => {
  it('gives every URL its own result, and the server lives', { timeout: 120_000 }, async () => {
    // Fresh server: the first requests also wait for the sniffer's first load, which holds
    // their readers while the close-delimited bodies arrive (the original trigger).
    const close = (round: number) =>
      Array.from({ length: 10 }, (_, i) => {
        const scenario = i % 2 === 0 ? 'close10' : 'close11';
        const size = 40_000 + ((round * 37 + i * 53) % 30) * 4_000;
        const shape = `pieces=${2 + ((i + round) % 4)}&gap=${2 + ((i * 7 + round) % 11)}`;
        return `${origins[(round + i) % origins.length]!.origin}/${scenario}/p${round}-${i}?size=${size}&${shape}`;
      });
    const hostile = RAW_SCENARIOS.filter((s) => !s.startsWith('close')).map(
      (s, i) => `${origins[i % origins.length]!.origin}/${s}/h${i}?size=${20_000 + i * 9_000}&pieces=3&gap=5`,
    );
    const batches = [close(0), close(1), close(2), hostile, close(3)];
    const answers = await Promise.all(batches.map((urls) => crawl(urls)));

    answers.forEach((answer, b) => {
      expect(answer.status, `batch ${b}`).toBe(200);
      expect(answer.results).toHaveLength(batches[b]!.length);
    });
    // Every close-delimited page is read whole: its last words are in the Markdown.
    for (const answer of answers.filter((_, b) => batches[b] !== hostile)) {
      for (const result of answer.results) {
        const path = new URL(result.url).pathname;
        expect(result.success, `${path}: ${result.error_type}`).toBe(true);
        expect(result.markdown, path).toContain(markerOf(path));
      }
    }
    // The hostile ones fail as a URL fails (never as the request or the process does).
    const hostileResults = answers[batches.indexOf(hostile)]!.results;
    for (const result of hostileResults) {
      if (!result.success) expect(['network', 'timeout', 'http'], result.url).toContain(result.error_type);
    }
    const failed = Object.fromEntries(hostileResults.map((r) => [new URL(r.url).pathname.split('/')[1], r.success]));
    expect(failed).toMatchObject({ 'early-close': false, short: false, 'bad-status': false, 'bad-chunk': false });

    const health = await fetch(`${server.url}/healthz`);
    expect(health.status).toBe(200);
    expect(server.log.text).not.toMatch(/ERR_ASSERTION|uncaught/i);
  });
});
