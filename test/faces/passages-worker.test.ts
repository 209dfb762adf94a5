/**
 * Passages are ranked where pages are converted (the worker pool), in the turn of the key
 * that asked, for a fresh page and for a cached one alike, with the passages the ranker
 * gives on this thread; a ranking the pool cannot take fails that URL, uncharged.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { AppError } from '../../src/core/errors.js';
import type { ConvertContext } from '../../src/core/ports/converter-port.js';
import { rankPassages, type PassagesInput } from '../../src/extract/passages/index.js';
import { laneOf, type ConvertPool } from '../../src/workers/convert-pool.js';
import { startFixtureSite, type FixtureSite } from '../helpers/fixture-site.js';
import { send } from '../helpers/fixture-scenarios.js';
import { startTestApi, type TestApi } from '../helpers/test-server.js';

const GUIDE_HTML = `<!doctype html><html lang="en"><head><title>Harbour Guide</title></head><body><article>
<h1>Harbour Guide</h1>
${Array.from({ length: 30 }, (_, i) => `<h2>Part ${i}</h2><p>Paragraph ${i} tells of the harbour, its roads and its parking, at the length a real page would.</p>`).join('\n')}
<h2>Ferries</h2><p>The ferry to the lighthouse island leaves from pier 7 every 40 minutes between April and October.</p>
</article></body></html>`;

let site: FixtureSite;
let api: TestApi;
let secret: string;
let keyId: string;
beforeAll(async () => {
  site = await startFixtureSite({
    scenarios: [
      {
        path: '/guide',
        description: 'a sectioned guide',
        handle: (ctx) => send(ctx.res, 200, 'text/html', GUIDE_HTML),
      },
    ],
  });
  api = await startTestApi({ cache: { ttlMs: 60_000 } });
  const created = await api.core.keys.create({ name: 'reader' });
  secret = created.secret;
  keyId = created.record.id;
});
afterAll(async () => {
  await api?.close();
  await site?.close();
});

/** POST /api/crawl with the key. */
const crawl = async (body: unknown): ReturnType<TestApi['crawl']> => {
  const res = await api.post('/api/crawl', body, { authorization: `Bearer ${secret}` });
  return { status: res.status, json: await res.json() };
};

describe('passages in the worker pool', () => {
  it("rank a fresh and a cached page on the pool, in the key's turn, as this thread ranks them", async () => {
    const pool = api.core.converter as ConvertPool;
    const spy = vi.spyOn(pool, 'rankPassages');
    try {
      const body = { urls: [`${site.origin}/guide`], query: 'when does the ferry leave', max_passages: 2 };
      const fresh = await crawl(body);
      const cached = await crawl(body);
      expect(fresh.status).toBe(200);
      expect(cached.json.results[0]).toMatchObject({ success: true, from_cache: true });
      expect(spy).toHaveBeenCalledTimes(2);
      for (const [input, ctx] of spy.mock.calls as [PassagesInput, ConvertContext][]) {
        expect(laneOf(ctx.caller)).toBe(keyId);
        expect(input).toMatchObject({ query: 'when does the ferry leave', max: 2 });
      }
      const [input] = spy.mock.calls[1] as [PassagesInput, ConvertContext];
      // The cached page's whole Markdown went to the worker.
      expect(input.markdown).toMatch(/^## Part 0[\s\S]*## Part 29[\s\S]*pier 7/);
      expect(cached.json.results[0].passages).toEqual(rankPassages(input));
      expect(cached.json.results[0].passages[0].text).toContain('pier 7');
      expect(fresh.json.results[0].passages).toEqual(cached.json.results[0].passages);
    } finally {
      spy.mockRestore();
    }
  });

  it('a ranking the pool refuses fails that URL at the passages step, uncharged', async () => {
    const pool = api.core.converter as ConvertPool;
    const spy = vi
      .spyOn(pool, 'rankPassages')
      .mockRejectedValue(new AppError('busy', 'The server is converting all it can.', { retryable: true }));
    try {
      const { json } = await crawl({ urls: [`${site.origin}/guide`], query: 'ferry' });
      expect(json.results[0]).toMatchObject({ success: false, error_type: 'busy' });
      expect(json.metadata.credits_used).toBe(0);
    } finally {
      spy.mockRestore();
    }
  });
});
