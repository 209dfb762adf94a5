/**
 * A library call's signal (issue 34, item 15): an aborted `extract` rejects with
 * `cancelled`, as an aborted `search` does and as the README promises, whether the signal
 * fires before the call or while a page is being fetched; a deadline still answers with
 * per-URL `timeout`s.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWebSearch, type WebSearch } from '../../src/index.js';
import { startFixtureSite } from '../helpers/fixture-site.js';

type Site = Awaited<ReturnType<typeof startFixtureSite>>;
let site: Site;
let web: WebSearch;
beforeAll(async () => {
  site = await startFixtureSite();
  web = createWebSearch({
    env: { WEBSEARCH_ALLOW_PRIVATE_ADDRESSES: 'true', WEBSEARCH_STORE_PATH: ':memory:', SEARXNG_URL: site.origin },
  });
});
afterAll(async () => {
  await web?.close();
  await site?.close();
});

describe('cancellation through the library', () => {
  it('rejects an extract aborted while its page is fetched with cancelled', async () => {
    const controller = new AbortController();
    const call = web.extract({ urls: [`${site.origin}/hang`], timeout_ms: 30_000 }, { signal: controller.signal });
    for (let i = 0; i < 200 && site.hits('/hang') === 0; i++) await new Promise((r) => setTimeout(r, 10));
    controller.abort();
    await expect(call).rejects.toMatchObject({ code: 'cancelled' });
  });

  it('rejects an extract and a search given an aborted signal alike', async () => {
    const signal = AbortSignal.abort();
    await expect(web.extract({ urls: [`${site.origin}/text`] }, { signal })).rejects.toMatchObject({
      code: 'cancelled',
    });
    await expect(web.search({ q: 'x', engines: ['searxng'] }, { signal })).rejects.toMatchObject({
      code: 'cancelled',
    });
  });

  it('still answers a deadline with a per-URL timeout', async () => {
    const out = await web.extract({ urls: [`${site.origin}/hang`], timeout_ms: 300 });
    expect(out.results[0]).toMatchObject({ success: false, error_type: 'timeout' });
  });
});
