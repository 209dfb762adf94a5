/**
 * Site crawl jobs on Redis, past the contract: every key a job writes is under the store's
 * prefix and goes with the job when its retention ends, and a job's call while Redis is
 * down fails with `store_unavailable`, as the store's own methods do.
 */
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { expect, it } from 'vitest';
import { RedisStore } from '../../src/store/redis-store.js';
import { redisSuite } from '../helpers/redis-server.js';
import { siteJob } from './site-job-contract.js';

const job = (id: string) => siteJob({ id, keyId: null, request: { url: 'https://example.com/' } });

async function keysOf(url: string, pattern: string): Promise<string[]> {
  const raw = new Redis(url);
  try {
    return (await raw.keys(pattern)).sort();
  } finally {
    raw.disconnect();
  }
}

redisSuite('site crawl jobs on Redis', (redis) => {
  it("keeps a job's keys under the store's prefix and deletes every one of them with the job", async () => {
    const prefix = `sj-${randomUUID()}:`;
    const store = await RedisStore.connect({ url: redis().url, prefix });
    try {
      const now = Date.now();
      await store.siteJobs.createJob(job('req_keys'), [
        { url: 'https://example.com/', depth: 0, priority: 0 },
        { url: 'https://example.com/a', depth: 1, priority: -1 },
      ]);
      const [start] = await store.siteJobs.lease('req_keys', 1);
      await store.siteJobs.lease('req_keys', 1);
      await store.siteJobs.complete('req_keys', start!.seq, {
        result: { page: { ok: true }, credits: 1, succeeded: true },
        aliases: ['https://example.com/index.html'],
        fingerprint: 's1',
        counts: { duplicates: 1 },
      });
      await store.siteJobs.finishJob('req_keys', { stopReason: 'completed', at: now, expiresAt: now });
      const written = await keysOf(redis().url, '*req_keys*');
      expect(written.length).toBeGreaterThan(5);
      expect(written.filter((k) => !k.startsWith(`${prefix}sj:`))).toEqual([]);
      expect(await store.siteJobs.deleteExpired(now)).toBe(1);
      expect(await keysOf(redis().url, `${prefix}*`)).toEqual([]);
    } finally {
      await store.close();
    }
  });

  it("fails a job's call with store_unavailable once Redis is gone", async () => {
    const store = await RedisStore.connect({ url: redis().url, prefix: `down-${randomUUID()}:` });
    try {
      await store.siteJobs.createJob(job('req_down'), []);
      expect(await store.siteJobs.getJob('req_down')).toMatchObject({ id: 'req_down' });
      await redis().stop();
      await expect(store.siteJobs.getJob('req_down')).rejects.toMatchObject({ code: 'store_unavailable' });
      await expect(store.siteJobs.lease('req_down', 1)).rejects.toMatchObject({ code: 'store_unavailable' });
    } finally {
      await store.close();
    }
  });
});
