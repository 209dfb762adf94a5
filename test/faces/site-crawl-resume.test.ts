/**
 * A site crawl survives its server: `serve` on a SQLite file is killed with SIGKILL in the
 * middle of a crawl and started again; the job resumes and completes, every page delivered
 * once, and the key charged exactly once per successful page (nothing left held).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, spawnServe } from '../helpers/spawn-cli.js';
import { startSmallSite, type SmallSite } from '../services/site/small-site.js';

let site: SmallSite;
let dir: string;
beforeAll(async () => {
  site = await startSmallSite({ treePages: 150, latencyMs: 40 });
  dir = mkdtempSync(join(tmpdir(), 'websearch-site-resume-'));
});
afterAll(async () => {
  await site?.close();
  rmSync(dir, { recursive: true, force: true });
});

async function getJson(url: string, secret: string): Promise<any> {
  const res = await fetch(url, { headers: { authorization: `Bearer ${secret}` } });
  expect(res.status).toBe(200);
  return res.json();
}

describe('a site crawl killed with its server', () => {
  it('resumes after a restart: every page once, credits = successful pages', async () => {
    const env = {
      ...(process.env as Record<string, string>),
      WEBSEARCH_STORE_PATH: join(dir, 'store.db'),
      WEBSEARCH_ALLOW_PRIVATE_ADDRESSES: 'true',
      WEBSEARCH_LOG_LEVEL: 'silent',
      WEBSEARCH_CACHE_TTL_MS: '0',
      // The same instance after its restart: it takes its own running jobs back at once.
      WEBSEARCH_INSTANCE_ID: 'resume-test',
      WEBSEARCH_RATE_LIMIT_REQUESTS: '0',
    };
    const created = await runCli(['keys', 'create', '--name', 'crawler', '--credits', '1000'], env);
    expect(created.code).toBe(0);
    const secret = created.stdout.trim();

    let server = await spawnServe([], env);
    const res = await fetch(`${server.url}/api/site-crawls`, {
      method: 'POST',
      headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' },
      body: JSON.stringify({ url: site.origin, limit: 100, max_depth: 20, use_sitemap: false, max_chars: 50 }),
    });
    expect(res.status).toBe(202);
    const { id } = (await res.json()) as { id: string };
    // Halfway, the server dies.
    let seen: any;
    for (let i = 0; i < 400; i++) {
      seen = await getJson(`${server.url}/api/site-crawls/${id}?limit=1`, secret);
      if (seen.progress.pages >= 40) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    await server.kill();
    expect(seen.status).toBe('running');
    expect(seen.progress.pages).toBeLessThan(100);
    const before = site.hits.size;
    expect(before).toBeGreaterThan(10);

    server = await spawnServe([], env);
    try {
      let status = await getJson(`${server.url}/api/site-crawls/${id}?limit=1`, secret);
      for (let i = 0; i < 200 && status.status === 'running'; i++)
        status = await getJson(`${server.url}/api/site-crawls/${id}?limit=1&wait_ms=500&cursor=1000`, secret);
      expect(status).toMatchObject({ status: 'done', stop_reason: 'limit' });
      const pages: any[] = [];
      let cursor: string | undefined = '0';
      while (cursor !== undefined) {
        const page = await getJson(`${server.url}/api/site-crawls/${id}?limit=100&cursor=${cursor}`, secret);
        pages.push(...page.pages);
        cursor = page.next_cursor;
      }
      expect(pages).toHaveLength(100);
      const urls = pages.map((p) => p.url);
      expect(new Set(urls).size).toBe(100);
      const succeeded = pages.filter((p) => p.success).length;
      expect(status.progress.succeeded).toBe(succeeded);
      expect(status.progress.credits_used).toBe(succeeded);
      // The ledger agrees: one record a delivered page under the job's id, nothing held.
      const usage = await getJson(`${server.url}/api/usage?limit=100`, secret);
      const records = usage.records.filter((r: any) => r.request_id === id);
      expect(records.reduce((sum: number, r: any) => sum + r.credits, 0)).toBe(succeeded);
      expect(new Set(records.map((r: any) => r.urls[0])).size).toBe(records.length);
      expect(usage.balance).toBe(1000 - succeeded);
      expect(usage.held_credits).toBe(0);
    } finally {
      await server.stop();
    }
  }, 90_000);
});
