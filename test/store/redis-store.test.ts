import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { RedisStore } from '../../src/store/redis-store.js';
import { redisSuite } from '../helpers/redis-server.js';
import { storeContract } from './store-contract.js';

redisSuite('RedisStore', (redis) => {
  storeContract('RedisStore', () => RedisStore.connect({ url: redis().url, prefix: `t-${randomUUID()}:` }));

  describe('RedisStore', () => {
    it('keeps deployments with different prefixes apart on one Redis', async () => {
      const a = await RedisStore.connect({ url: redis().url, prefix: 'one:' });
      const b = await RedisStore.connect({ url: redis().url, prefix: 'two:' });
      try {
        await a.cache<number>('page').set('k', 1, 60_000);
        expect(await b.cache<number>('page').get('k')).toBeUndefined();
        await a.createKey({
          id: 'key_p',
          name: 'p',
          hash: 'e'.repeat(64),
          prefix: 'wsk_p',
          balance: 1,
          createdAt: new Date().toISOString(),
        });
        expect(await b.keyCount()).toBe(0);
      } finally {
        await a.close();
        await b.close();
      }
    });
  });
});

describe('RedisStore without a server', () => {
  it('says it cannot reach Redis, naming the server but not its password', async () => {
    await expect(RedisStore.connect({ url: 'redis://:s3cret@127.0.0.1:1/0', connectTimeoutMs: 1_000 })).rejects.toThrow(
      /cannot reach Redis at redis:\/\/:\*\*\*@127\.0\.0\.1:1\/0/,
    );
  });
});
