/**
 * The host gate on Redis: the contract with three gates on three clients of one server
 * (three instances), then what only a shared store has: a dead instance's slot freed when
 * its lease ends while a live holder keeps its own, its keys under the prefix with TTLs,
 * and its waits through the store (not cut by the store's timeout; an outage fails them).
 */
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { expect, it } from 'vitest';
import { HOST_START_MEMORY_MS } from '../../src/core/ports/host-gate.js';
import { RedisHostGate } from '../../src/store/redis/redis-host-gate.js';
import { RedisStore } from '../../src/store/redis-store.js';
import { redisSuite, startRedis } from '../helpers/redis-server.js';
import { hostGateContract, pendingAfter } from './host-gate-contract.js';

const open = () => new AbortController().signal;

redisSuite('host gate on Redis', (redis) => {
  hostGateContract('Redis host gate, three clients', async () => {
    const prefix = `hg-${randomUUID()}:`;
    const clients = [new Redis(redis().url), new Redis(redis().url), new Redis(redis().url)] as const;
    return {
      gates: [
        new RedisHostGate(clients[0], prefix),
        new RedisHostGate(clients[1], prefix),
        new RedisHostGate(clients[2], prefix),
      ],
      close: async () => {
        await Promise.all(clients.map((client) => client.quit()));
      },
    };
  });

  it('keeps a live holder by renewing its lease, and frees a dead instance’s slot when its lease ends', async () => {
    const leaseMs = 600;
    const prefix = `lease-${randomUUID()}:`;
    const [live, dead, waiter] = [new Redis(redis().url), new Redis(redis().url), new Redis(redis().url)];
    const waiterGate = new RedisHostGate(waiter, prefix, { leaseMs });
    const host = 'lease.example:443';
    try {
      const held = await new RedisHostGate(live, prefix, { leaseMs }).acquire(host, {
        limit: 1,
        delayMs: 0,
        signal: open(),
      });
      const waiting = waiterGate.acquire(host, { limit: 1, delayMs: 0, signal: open() });
      // Three leases long: only the renewals keep the slot.
      expect(await pendingAfter(waiting, 3 * leaseMs)).toBe(true);
      await held.release();
      await (await waiting).release();

      // Beside a live holder, whose renewals keep the set (and its TTL) alive: only the dead
      // holder's lease ending frees its slot.
      const liveGate = new RedisHostGate(live, prefix, { leaseMs });
      const stays = await liveGate.acquire(host, { limit: 2, delayMs: 0, signal: open() });
      await new RedisHostGate(dead, prefix, { leaseMs }).acquire(host, { limit: 2, delayMs: 0, signal: open() });
      const diedAt = performance.now();
      // kill -9: no release, and its renewals fail from now on.
      dead.disconnect();
      const next = await waiterGate.acquire(host, { limit: 2, delayMs: 0, signal: open() });
      const waited = performance.now() - diedAt;
      expect(waited).toBeGreaterThanOrEqual(leaseMs - 50);
      expect(waited).toBeLessThan(leaseMs + 1_000);
      // The live holder still counts: the host is full again.
      const full = liveGate.acquire(host, { limit: 2, delayMs: 0, signal: open() });
      expect(await pendingAfter(full, 2 * leaseMs)).toBe(true);
      await next.release();
      await (await full).release();
      await stays.release();
    } finally {
      live.disconnect();
      waiter.disconnect();
    }
  });

  it('keeps its keys under the prefix, each with a TTL, and a released host’s slots not at all', async () => {
    const prefix = `keys-${randomUUID()}:`;
    const client = new Redis(redis().url);
    const raw = new Redis(redis().url);
    const host = `keys-${randomUUID()}.example:443`;
    try {
      const gate = new RedisHostGate(client, prefix);
      const pass = await gate.acquire(host, { limit: 2, delayMs: 200, signal: open() });
      const slots = `${prefix}host-slots:${host}`;
      const start = `${prefix}host-start:${host}`;
      expect((await raw.keys(`*${host}*`)).sort()).toEqual([slots, start]);
      const slotsTtl = await raw.pttl(slots);
      const startTtl = await raw.pttl(start);
      expect(slotsTtl).toBeGreaterThan(0);
      expect(slotsTtl).toBeLessThanOrEqual(15_000);
      expect(startTtl).toBeGreaterThan(0);
      expect(startTtl).toBeLessThanOrEqual(HOST_START_MEMORY_MS);
      await pass.release();
      expect(await raw.exists(slots)).toBe(0);
      expect(await raw.pttl(start)).toBeGreaterThan(0);
      // An unpaced start writes no start at all.
      const other = `unpaced-${host}`;
      await (await gate.acquire(other, { limit: 1, delayMs: 0, signal: open() })).release();
      expect(await raw.keys(`*${other}*`)).toEqual([]);
    } finally {
      client.disconnect();
      raw.disconnect();
    }
  });

  it('waits through the store past its command timeout: a wait is not an outage', async () => {
    const store = await RedisStore.connect({ url: redis().url, prefix: `st-${randomUUID()}:`, commandTimeoutMs: 200 });
    try {
      const host = 'slow.example:443';
      const held = await store.hostGate.acquire(host, { limit: 1, delayMs: 0, signal: open() });
      const waiting = store.hostGate.acquire(host, { limit: 1, delayMs: 0, signal: open() });
      expect(await pendingAfter(waiting, 600)).toBe(true);
      await held.release();
      await (await waiting).release();
    } finally {
      await store.close();
    }
  });
});

redisSuite('host gate on a Redis that goes away', () => {
  it('fails a waiting acquire with store_unavailable, and a release still resolves', async () => {
    const server = await startRedis();
    // Two instances: the holder's, and the waiter's, which asks Redis while it waits.
    const [one, two] = await Promise.all(
      [0, 1].map(() => RedisStore.connect({ url: server.url, prefix: 'gone:', commandTimeoutMs: 500 })),
    );
    try {
      const host = 'gone.example:443';
      const held = await one!.hostGate.acquire(host, { limit: 1, delayMs: 0, signal: open() });
      const waiting = two!.hostGate.acquire(host, { limit: 1, delayMs: 0, signal: open() });
      expect(await pendingAfter(waiting, 100)).toBe(true);
      await server.stop();
      await expect(waiting).rejects.toMatchObject({ code: 'store_unavailable' });
      await expect(held.release()).resolves.toBeUndefined();
    } finally {
      await Promise.all([one?.close(), two?.close()]);
      await server.stop();
    }
  });
});
