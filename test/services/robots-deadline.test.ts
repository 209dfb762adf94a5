/**
 * Answers that say what happened: the per-URL deadline bounds the robots.txt check, an
 * unreachable robots.txt is reported with its reason and RFC 9309's rule, and localhost
 * names are refused by name (RFC 6761) with the setting that would allow them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FixtureSite } from '../helpers/fixture-site.js';
import { startFixtureSite } from '../helpers/fixture-site.js';
import type { TestApi } from '../helpers/test-server.js';
import { startTestApi } from '../helpers/test-server.js';

let hanging: FixtureSite;
let failing: FixtureSite;
let open: TestApi;
let guarded: TestApi;

beforeAll(async () => {
  [hanging, failing] = await Promise.all([
    startFixtureSite({ robots: 'timeout' }),
    startFixtureSite({ robots: '503' }),
  ]);
  [open, guarded] = await Promise.all([
    startTestApi({ cache: { ttlMs: 0 } }),
    startTestApi({ cache: { ttlMs: 0 }, fetch: { allowPrivateAddresses: false } }),
  ]);
});
afterAll(async () => {
  await Promise.all([open?.close(), guarded?.close()]);
  await Promise.all([hanging?.close(), failing?.close()]);
});

describe('robots.txt and the per-URL deadline', () => {
  it('a robots.txt that never answers costs the URL its deadline, not more, and is called a timeout', async () => {
    const started = performance.now();
    const { json } = await open.crawl({ urls: [`${hanging.origin}/html`], timeout_ms: 1000 });
    const elapsed = performance.now() - started;
    expect(json.results[0]).toMatchObject({ success: false, error_type: 'timeout', status_code: 0 });
    expect(json.results[0].error).toMatch(/robots\.txt did not answer/);
    expect(elapsed).toBeLessThan(3_000);
    expect(json.metadata.credits_used).toBe(0);
  });

  it('an unreachable robots.txt says why and cites RFC 9309', async () => {
    const { json } = await open.crawl({ urls: [`${failing.origin}/html`] });
    expect(json.results[0]).toMatchObject({ success: false, error_type: 'robots_disallowed' });
    expect(json.results[0].error).toMatch(
      /robots\.txt could not be fetched \(HTTP 503\).*RFC 9309 \(2\.3\.1\.4\).*WEBSEARCH_ROBOTS setting/,
    );
  });
});

describe('localhost names', () => {
  it.each(['localhost', 'localhost.', 'LOCALHOST', 'api.localhost', 'a.b.localhost.'])(
    'refuses http://%s/ by name as forbidden_address',
    async (host) => {
      const { json } = await guarded.crawl({ urls: [`http://${host}:${new URL(hanging.origin).port}/html`] });
      expect(json.results[0]).toMatchObject({ success: false, error_type: 'forbidden_address', status_code: 0 });
      expect(json.results[0].error).toMatch(/loopback name \(RFC 6761\).*WEBSEARCH_ALLOW_PRIVATE_ADDRESSES=true/);
    },
  );

  it('names the setting when an address is refused', async () => {
    const { json } = await guarded.crawl({ urls: [`http://127.0.0.1:${new URL(hanging.origin).port}/html`] });
    expect(json.results[0]).toMatchObject({ error_type: 'forbidden_address' });
    expect(json.results[0].error).toMatch(/WEBSEARCH_ALLOW_PRIVATE_ADDRESSES=true/);
  });

  it('does not take a name that merely contains localhost', async () => {
    const { json } = await guarded.crawl({ urls: ['http://localhost.example.invalid/'] });
    expect(json.results[0].error_type).toBe('network');
  });
});
