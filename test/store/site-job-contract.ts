/**
 * The contract of SiteJobStore (core/ports/site-job-store.ts), as `store.siteJobs`: a URL
 * enters a job's frontier once (aliases included), leases come highest priority first then
 * in insertion order, completing is atomic and only for a leased entry, a charge is marked
 * once, leases are claimed and renewed per owner, and expired jobs go with everything of
 * theirs.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { emptySiteJobCounts, type FrontierEntry, type SiteJob } from '../../src/core/ports/site-job-store.js';
import type { Store } from '../../src/core/ports/store-port.js';

let n = 0;
/** A running job with its own id, for the contract and the adapters' own tests. */
export function siteJob(overrides: Partial<SiteJob> = {}): SiteJob {
  n += 1;
  const at = Date.now();
  return {
    id: `req_job${n}_${Math.random().toString(36).slice(2, 8)}`,
    keyId: 'key_a',
    request: { url: 'https://example.com/', include_paths: [], limit: 5, nested: { big: 12345678901234 } },
    status: 'running',
    createdAt: at,
    updatedAt: at,
    deadline: at + 600_000,
    owner: 'one',
    leaseUntil: at + 30_000,
    counts: emptySiteJobCounts(),
    ...overrides,
  };
}
const entry = (url: string, priority = 0, depth = 1): FrontierEntry => ({
  url: `https://example.com${url}`,
  depth,
  priority,
});

/** A job nobody has leased yet (no owner, no lease). */
function unleased(overrides: Partial<SiteJob> = {}): SiteJob {
  const { owner: _owner, leaseUntil: _lease, ...rest } = siteJob(overrides);
  return rest;
}

export function siteJobContract(make: () => Promise<Store>): void {
  describe('site crawl jobs (SiteJobStore)', () => {
    let store: Store;
    beforeEach(async () => {
      store = await make();
    });
    afterEach(async () => {
      await store.close();
    });

    it('stores a job as given and counts the URLs that entered its frontier once', async () => {
      const j = siteJob();
      await store.siteJobs.createJob(j, [entry('/', 0, 0), entry('/', 0, 0)]);
      // As given, its seeds counted; writing them is part of creating it (updatedAt stays).
      expect(await store.siteJobs.getJob(j.id)).toEqual({ ...j, counts: { ...j.counts, discovered: 1 } });
      expect(await store.siteJobs.getJob('req_none')).toBeUndefined();
      const added = await store.siteJobs.enqueue(j.id, [entry('/a'), entry('/'), entry('/b'), entry('/a')]);
      // The ones added, with their places in the frontier.
      expect(added).toEqual([
        { ...entry('/a'), seq: 2 },
        { ...entry('/b'), seq: 3 },
      ]);
      expect((await store.siteJobs.getJob(j.id))?.counts.discovered).toBe(3);
      expect(await store.siteJobs.seen(j.id, ['https://example.com/a', 'https://example.com/c'])).toEqual([
        true,
        false,
      ]);
    });

    it('leases the highest priority first, ties in insertion order, fractional and negative priorities included', async () => {
      const j = siteJob();
      await store.siteJobs.createJob(j, []);
      await store.siteJobs.enqueue(j.id, [
        entry('/low', -3),
        entry('/tie1', 12.75),
        entry('/mid', 0.5),
        entry('/tie2', 12.75),
        entry('/top', 40),
        entry('/neg', -0.25),
      ]);
      const first = await store.siteJobs.lease(j.id, 3);
      expect(first.map((e) => e.url.slice(19))).toEqual(['/top', '/tie1', '/tie2']);
      expect(first[0]).toMatchObject({ depth: 1, priority: 40, seq: 5 });
      expect(await store.siteJobs.frontierCounts(j.id)).toEqual({ queued: 3, leased: 3, done: 0 });
      const back = await store.siteJobs.requeueLeased(j.id);
      expect(back.map((e) => e.seq).sort()).toEqual([2, 4, 5]);
      const again = await store.siteJobs.lease(j.id, 10);
      expect(again.map((e) => e.url.slice(19))).toEqual(['/top', '/tie1', '/tie2', '/mid', '/neg', '/low']);
      expect(await store.siteJobs.lease(j.id, 10)).toEqual([]);
    });

    it('leases one entry by its seq, queued or already leased; never one done, an alias or unknown', async () => {
      const j = siteJob();
      const a = { ...entry('/a', 1), parent: 'https://example.com/', anchor: 'The A page' };
      await store.siteJobs.createJob(j, [a, entry('/b', 2.5), entry('/c', -1)]);
      // Not the queue's best: exactly the one asked for.
      expect(await store.siteJobs.leaseEntry(j.id, 1)).toEqual({ ...a, seq: 1 });
      expect(await store.siteJobs.frontierCounts(j.id)).toEqual({ queued: 2, leased: 1, done: 0 });
      // Already leased (its worker died): returned as it is, still leased, counted once.
      expect(await store.siteJobs.leaseEntry(j.id, 1)).toEqual({ ...a, seq: 1 });
      expect(await store.siteJobs.frontierCounts(j.id)).toEqual({ queued: 2, leased: 1, done: 0 });
      // The queue no longer holds it.
      expect((await store.siteJobs.lease(j.id, 1)).map((e) => e.seq)).toEqual([2]);
      expect(await store.siteJobs.frontierCounts(j.id)).toEqual({ queued: 1, leased: 2, done: 0 });
      // It completes as any leased entry.
      expect(
        await store.siteJobs.complete(j.id, 1, {
          result: { page: { a: 1 }, credits: 1, succeeded: true },
          aliases: ['https://example.com/a/'],
        }),
      ).toBe(1);
      expect(await store.siteJobs.frontierCounts(j.id)).toEqual({ queued: 1, leased: 1, done: 1 });
      // Done: nothing, and it stays done.
      expect(await store.siteJobs.leaseEntry(j.id, 1)).toBeUndefined();
      expect(await store.siteJobs.frontierCounts(j.id)).toEqual({ queued: 1, leased: 1, done: 1 });
      expect(
        await store.siteJobs.complete(j.id, 1, { result: { page: { a: 2 }, credits: 1, succeeded: true } }),
      ).toBeUndefined();
      // An alias's place, seqs never given, a job that does not exist: nothing.
      const aliasSeq = 4;
      expect(await store.siteJobs.seen(j.id, ['https://example.com/a/'])).toEqual([true]);
      for (const seq of [aliasSeq, 0, 99]) expect(await store.siteJobs.leaseEntry(j.id, seq)).toBeUndefined();
      expect(await store.siteJobs.leaseEntry('req_gone', 1)).toBeUndefined();
      expect(await store.siteJobs.frontierCounts(j.id)).toEqual({ queued: 1, leased: 1, done: 1 });
      // The last queued one, leased by its seq and completed without a result.
      expect(await store.siteJobs.leaseEntry(j.id, 3)).toEqual({ ...entry('/c', -1), seq: 3 });
      expect(await store.siteJobs.lease(j.id, 5)).toEqual([]);
      expect(await store.siteJobs.complete(j.id, 3, { counts: { duplicates: 1 } })).toBeUndefined();
      expect(await store.siteJobs.frontierCounts(j.id)).toEqual({ queued: 0, leased: 1, done: 2 });
      expect((await store.siteJobs.getJob(j.id))?.counts).toMatchObject({ results: 1, duplicates: 1 });
    });

    it('lists the unfinished entries (queued and leased) by seq with their priorities; never done ones or aliases', async () => {
      const j = siteJob();
      const mid = { ...entry('/mid', 0.1 + 0.2, 2), parent: 'https://example.com/top', anchor: 'Mid' };
      await store.siteJobs.createJob(j, [entry('/', 0, 0)]);
      await store.siteJobs.enqueue(j.id, [entry('/low', -2.5), entry('/top', 12.75), mid, entry('/gone', 3)]);
      const all = [
        { ...entry('/', 0, 0), seq: 1 },
        { ...entry('/low', -2.5), seq: 2 },
        { ...entry('/top', 12.75), seq: 3 },
        { ...mid, seq: 4 },
        { ...entry('/gone', 3), seq: 5 },
      ];
      expect(await store.siteJobs.unfinished(j.id)).toEqual(all);
      expect((await store.siteJobs.lease(j.id, 2)).map((e) => e.seq)).toEqual([3, 5]);
      expect(await store.siteJobs.unfinished(j.id)).toEqual(all);
      expect(
        await store.siteJobs.complete(j.id, 5, {
          result: { page: { gone: true }, credits: 1, succeeded: true },
          aliases: ['https://example.com/gone/'],
        }),
      ).toBe(1);
      const left = all.slice(0, 4);
      expect(await store.siteJobs.unfinished(j.id)).toEqual(left);
      // Listing changes nothing.
      expect(await store.siteJobs.frontierCounts(j.id)).toEqual({ queued: 3, leased: 1, done: 1 });
      await store.siteJobs.requeueLeased(j.id);
      expect(await store.siteJobs.unfinished(j.id)).toEqual(left);
      for (const e of await store.siteJobs.lease(j.id, 10)) await store.siteJobs.complete(j.id, e.seq, {});
      expect(await store.siteJobs.unfinished(j.id)).toEqual([]);
      expect(await store.siteJobs.unfinished('req_gone')).toEqual([]);
    });

    it('gives the fingerprints in result order, from any point of the list', async () => {
      const j = siteJob();
      await store.siteJobs.createJob(j, [entry('/', 0, 0), entry('/a'), entry('/b'), entry('/c')]);
      const leased = await store.siteJobs.lease(j.id, 4);
      for (const [i, e] of leased.entries()) {
        await store.siteJobs.complete(j.id, e.seq, {
          result: { page: { i }, credits: 0, succeeded: true },
          // The third page has none: it counts in no position.
          ...(i === 2 ? {} : { fingerprint: `f${i}` }),
        });
      }
      expect(await store.siteJobs.fingerprints(j.id)).toEqual(['f0', 'f1', 'f3']);
      expect(await store.siteJobs.fingerprints(j.id, 0)).toEqual(['f0', 'f1', 'f3']);
      expect(await store.siteJobs.fingerprints(j.id, 1)).toEqual(['f1', 'f3']);
      expect(await store.siteJobs.fingerprints(j.id, 3)).toEqual([]);
      expect(await store.siteJobs.fingerprints('req_gone', 1)).toEqual([]);
    });

    it('completes a leased entry atomically: result, counts, aliases, fingerprint; never one not leased', async () => {
      const j = siteJob();
      await store.siteJobs.createJob(j, [entry('/', 0, 0), entry('/b')]);
      const [start] = await store.siteJobs.lease(j.id, 1);
      const page = { url: 'https://example.com/', success: true, markdown: 'x', links: [], n: 12345678901234 };
      const seq = await store.siteJobs.complete(j.id, start!.seq, {
        result: { page, credits: 1, succeeded: true },
        aliases: ['https://example.com/index.html'],
        fingerprint: 's0123456789abcdef',
        counts: { robots_disallowed: 2 },
      });
      expect(seq).toBe(1);
      // Twice, or an entry never leased: nothing written.
      expect(
        await store.siteJobs.complete(j.id, start!.seq, { result: { page, credits: 1, succeeded: true } }),
      ).toBeUndefined();
      expect(await store.siteJobs.complete(j.id, 2, { result: { page, credits: 1, succeeded: true } })).toBeUndefined();
      // An alias is seen, never queued.
      expect(await store.siteJobs.seen(j.id, ['https://example.com/index.html'])).toEqual([true]);
      expect(await store.siteJobs.enqueue(j.id, [entry('/index.html')])).toEqual([]);
      const [b] = await store.siteJobs.lease(j.id, 5);
      expect(b?.url).toBe('https://example.com/b');
      // A duplicate: no result, so no fingerprint either; aliases already seen change nothing.
      expect(
        await store.siteJobs.complete(j.id, b!.seq, {
          counts: { duplicates: 1 },
          fingerprint: 'sduplicate',
          aliases: ['https://example.com/', 'https://example.com/index.html'],
        }),
      ).toBeUndefined();
      const counts = (await store.siteJobs.getJob(j.id))?.counts;
      expect(counts).toMatchObject({
        discovered: 2,
        results: 1,
        succeeded: 1,
        failed: 0,
        duplicates: 1,
        robots_disallowed: 2,
        credits_used: 0,
      });
      expect(await store.siteJobs.frontierCounts(j.id)).toEqual({ queued: 0, leased: 0, done: 2 });
      expect(await store.siteJobs.fingerprints(j.id)).toEqual(['s0123456789abcdef']);
      const [result] = await store.siteJobs.results(j.id, 0, 10);
      expect(result).toEqual({ seq: 1, entrySeq: start!.seq, page, credits: 1, charged: false });
    });

    it("writes no result past the job's limit of results, yet ends the entry with its counts and aliases", async () => {
      const j = siteJob();
      await store.siteJobs.createJob(j, [entry('/1'), entry('/2'), entry('/3'), entry('/4')]);
      const [one, two, three, four] = await store.siteJobs.lease(j.id, 4);
      const result = (i: number, succeeded = true) => ({ page: { i }, credits: 1, succeeded });
      expect(
        await store.siteJobs.complete(j.id, one!.seq, { result: result(1), maxResults: 1, fingerprint: 's1' }),
      ).toBe(1);
      // At the limit: the entry ends as one without a result (no result, fingerprint or failure counted).
      expect(
        await store.siteJobs.complete(j.id, two!.seq, {
          result: result(2, false),
          maxResults: 1,
          fingerprint: 's2',
          aliases: ['https://example.com/2/'],
          counts: { duplicates: 1, robots_disallowed: 2 },
        }),
      ).toBeUndefined();
      expect(await store.siteJobs.frontierCounts(j.id)).toEqual({ queued: 0, leased: 2, done: 2 });
      expect((await store.siteJobs.getJob(j.id))?.counts).toMatchObject({
        results: 1,
        succeeded: 1,
        failed: 0,
        duplicates: 1,
        robots_disallowed: 2,
      });
      expect(await store.siteJobs.results(j.id, 0, 10)).toEqual([
        { seq: 1, entrySeq: one!.seq, page: { i: 1 }, credits: 1, charged: false },
      ]);
      expect((await store.siteJobs.unchargedResults(j.id)).map((r) => r.seq)).toEqual([1]);
      expect(await store.siteJobs.fingerprints(j.id)).toEqual(['s1']);
      expect(await store.siteJobs.seen(j.id, ['https://example.com/2/'])).toEqual([true]);
      // It ended: completing it again writes nothing.
      expect(await store.siteJobs.complete(j.id, two!.seq, { result: result(2) })).toBeUndefined();
      // Below the limit a result is written; without a limit, as ever.
      expect(await store.siteJobs.complete(j.id, three!.seq, { result: result(3), maxResults: 3 })).toBe(2);
      expect(await store.siteJobs.complete(j.id, four!.seq, { result: result(4, false) })).toBe(3);
      expect((await store.siteJobs.getJob(j.id))?.counts).toMatchObject({ results: 3, succeeded: 2, failed: 1 });
      expect((await store.siteJobs.results(j.id, 0, 10)).map((r) => [r.seq, r.entrySeq, r.page])).toEqual([
        [1, one!.seq, { i: 1 }],
        [2, three!.seq, { i: 3 }],
        [3, four!.seq, { i: 4 }],
      ]);
      expect(await store.siteJobs.frontierCounts(j.id)).toEqual({ queued: 0, leased: 0, done: 4 });
    });

    it('marks a charge once, lists the pending ones, and pages results by cursor', async () => {
      const j = siteJob();
      await store.siteJobs.createJob(j, [entry('/1'), entry('/2'), entry('/3')]);
      const leased = await store.siteJobs.lease(j.id, 3);
      for (const [i, e] of leased.entries())
        await store.siteJobs.complete(j.id, e.seq, {
          result: { page: { i }, credits: i === 2 ? 0 : 5, succeeded: i !== 2 },
        });
      expect((await store.siteJobs.unchargedResults(j.id)).map((r) => r.seq)).toEqual([1, 2, 3]);
      await store.siteJobs.markCharged(j.id, 1);
      await store.siteJobs.markCharged(j.id, 1);
      await store.siteJobs.markCharged(j.id, 3);
      expect((await store.siteJobs.unchargedResults(j.id)).map((r) => r.seq)).toEqual([2]);
      const counts = (await store.siteJobs.getJob(j.id))?.counts;
      expect(counts).toMatchObject({ results: 3, succeeded: 2, failed: 1, credits_used: 5 });
      expect((await store.siteJobs.results(j.id, 1, 1)).map((r) => [r.seq, r.page, r.charged])).toEqual([
        [2, { i: 1 }, false],
      ]);
      expect((await store.siteJobs.results(j.id, 2, 10)).map((r) => r.seq)).toEqual([3]);
      expect(await store.siteJobs.results(j.id, 3, 10)).toEqual([]);
      expect(await store.siteJobs.results(j.id, 0, 0)).toEqual([]);
      expect((await store.siteJobs.results(j.id, -5, 2)).map((r) => r.seq)).toEqual([1, 2]);
      // The last pending one (3, free, was marked above); a result that does not exist changes nothing.
      await store.siteJobs.markCharged(j.id, 2);
      await store.siteJobs.markCharged(j.id, 99);
      expect(await store.siteJobs.unchargedResults(j.id)).toEqual([]);
      expect((await store.siteJobs.results(j.id, 0, 10)).map((r) => r.charged)).toEqual([true, true, true]);
      expect((await store.siteJobs.getJob(j.id))?.counts.credits_used).toBe(10);
    });

    it('claims running jobs per owner and lease, renews only its own, finishes once, counts running per key', async () => {
      const now = Date.now();
      const mine = siteJob({ owner: 'one', leaseUntil: now + 30_000 });
      const orphan = siteJob({ owner: 'dead', leaseUntil: now - 1, keyId: null });
      const held = siteJob({ owner: 'two', leaseUntil: now + 30_000, keyId: 'key_b' });
      for (const j of [mine, orphan, held]) await store.siteJobs.createJob(j, []);
      // A job nobody runs (its lease ended) does not count against its key until it is taken over.
      expect(await store.siteJobs.countRunning('key_a', now)).toEqual({ key: 1, total: 2 });
      expect(await store.siteJobs.countRunning(null, now)).toEqual({ key: 0, total: 2 });
      const claimed = (await store.siteJobs.claimJobs('one', now, 30_000)).map((j) => j.id).sort();
      expect(claimed).toEqual([mine.id, orphan.id].sort());
      expect((await store.siteJobs.getJob(orphan.id))?.owner).toBe('one');
      expect(await store.siteJobs.countRunning(null, now)).toEqual({ key: 1, total: 3 });
      // The dead owner's renewal finds its job taken.
      expect(await store.siteJobs.renewLeases('dead', [orphan.id], now + 60_000)).toEqual([]);
      expect(await store.siteJobs.renewLeases('one', [orphan.id, held.id], now + 60_000)).toEqual([orphan.id]);
      expect((await store.siteJobs.getJob(orphan.id))?.leaseUntil).toBe(now + 60_000);
      const end = {
        stopReason: 'failed' as const,
        error: { code: 'network', message: 'gone' },
        at: now,
        expiresAt: now + 1_000,
      };
      expect(await store.siteJobs.finishJob(held.id, end)).toBe(true);
      expect(await store.siteJobs.finishJob(held.id, { ...end, stopReason: 'cancelled' })).toBe(false);
      expect(await store.siteJobs.getJob(held.id)).toMatchObject({
        status: 'done',
        stopReason: 'failed',
        error: end.error,
        expiresAt: now + 1_000,
      });
      expect(await store.siteJobs.countRunning('key_b', now)).toEqual({ key: 0, total: 2 });
      expect(await store.siteJobs.renewLeases('two', [held.id], now + 60_000)).toEqual([]);
      expect((await store.siteJobs.claimJobs('three', now + 120_000, 30_000)).map((j) => j.id).sort()).toEqual(
        [mine.id, orphan.id].sort(),
      );
    });

    it('takes every running job live under one owner, setting its lease; never a done one', async () => {
      const now = Date.now();
      expect(await store.siteJobs.liveJobs('three', now, 60_000)).toEqual([]);
      const mine = siteJob({ owner: 'one', leaseUntil: now + 30_000 });
      const lapsed = siteJob({ owner: 'dead', leaseUntil: now - 1 });
      const free = unleased({ keyId: null });
      const done = unleased({ status: 'done', stopReason: 'completed', expiresAt: now + 1_000 });
      const finished = siteJob({ owner: 'two', leaseUntil: now + 30_000, keyId: 'key_b' });
      for (const j of [mine, lapsed, free, done, finished]) await store.siteJobs.createJob(j, []);
      const end = { stopReason: 'cancelled' as const, at: now, expiresAt: now + 1_000 };
      expect(await store.siteJobs.finishJob(finished.id, end)).toBe(true);
      expect(await store.siteJobs.countRunning('key_a', now)).toEqual({ key: 1, total: 1 });

      const live = await store.siteJobs.liveJobs('three', now, 60_000);
      expect(live.map((j) => j.id).sort()).toEqual([mine.id, lapsed.id, free.id].sort());
      expect(live.find((j) => j.id === free.id)).toEqual({ ...free, owner: 'three', leaseUntil: now + 60_000 });
      for (const j of [mine, lapsed, free])
        expect(await store.siteJobs.getJob(j.id)).toMatchObject({
          status: 'running',
          owner: 'three',
          leaseUntil: now + 60_000,
        });
      // Done jobs keep what they had.
      expect(await store.siteJobs.getJob(done.id)).toEqual(done);
      expect(await store.siteJobs.getJob(finished.id)).toMatchObject({
        status: 'done',
        owner: 'two',
        leaseUntil: now + 30_000,
      });
      // Each counts as running until its new lease ends.
      expect(await store.siteJobs.countRunning('key_a', now)).toEqual({ key: 2, total: 3 });
      expect(await store.siteJobs.countRunning(null, now + 59_999)).toEqual({ key: 1, total: 3 });
      expect(await store.siteJobs.countRunning(null, now + 60_000)).toEqual({ key: 0, total: 0 });
      // The old owner's renewal finds the job taken; the new owner's holds.
      expect(await store.siteJobs.renewLeases('one', [mine.id], now + 90_000)).toEqual([]);
      expect(await store.siteJobs.renewLeases('three', [mine.id], now + 90_000)).toEqual([mine.id]);
      // The last instance to say it works on them owns them.
      const again = await store.siteJobs.liveJobs('four', now + 1_000, 60_000);
      expect(again.map((j) => [j.id, j.owner, j.leaseUntil]).sort()).toEqual(
        [mine.id, lapsed.id, free.id].sort().map((id) => [id, 'four', now + 61_000]),
      );
      expect(await store.siteJobs.getJob(mine.id)).toMatchObject({ owner: 'four', leaseUntil: now + 61_000 });
    });

    it('deletes a finished job past its retention with its frontier and results', async () => {
      const now = Date.now();
      const j = siteJob();
      await store.siteJobs.createJob(j, [entry('/x')]);
      const [x] = await store.siteJobs.lease(j.id, 1);
      await store.siteJobs.complete(j.id, x!.seq, {
        result: { page: { a: 1 }, credits: 1, succeeded: true },
        fingerprint: 's1',
      });
      await store.siteJobs.finishJob(j.id, { stopReason: 'completed', at: now, expiresAt: now + 1_000 });
      expect(await store.siteJobs.deleteExpired(now)).toBe(0);
      expect(await store.siteJobs.deleteExpired(now + 1_000)).toBe(1);
      expect(await store.siteJobs.getJob(j.id)).toBeUndefined();
      expect(await store.siteJobs.results(j.id, 0, 10)).toEqual([]);
      expect(await store.siteJobs.seen(j.id, ['https://example.com/x'])).toEqual([false]);
      expect(await store.siteJobs.fingerprints(j.id)).toEqual([]);
    });

    it('stores a finished job and a job without a key as given', async () => {
      const now = Date.now();
      const done = unleased({
        keyId: null,
        status: 'done',
        stopReason: 'failed',
        error: { code: 'network', message: 'the host went away' },
        expiresAt: now + 1_000,
        counts: { ...siteJob().counts, results: 2, succeeded: 1, failed: 1, credits_used: 1 },
      });
      await store.siteJobs.createJob(done, []);
      expect(await store.siteJobs.getJob(done.id)).toEqual(done);
      // Done: never counted, claimed or renewed; deleted once its retention ends.
      expect(await store.siteJobs.countRunning(null, now)).toEqual({ key: 0, total: 0 });
      expect(await store.siteJobs.claimJobs('one', now, 30_000)).toEqual([]);
      expect(await store.siteJobs.finishJob(done.id, { stopReason: 'completed', at: now, expiresAt: now })).toBe(false);
      expect(await store.siteJobs.deleteExpired(now + 1_000)).toBe(1);
      expect(await store.siteJobs.getJob(done.id)).toBeUndefined();
    });

    it('writes nothing into a job that does not exist (or no longer does)', async () => {
      expect(await store.siteJobs.enqueue('req_gone', [entry('/a')])).toEqual([]);
      expect(await store.siteJobs.seen('req_gone', ['https://example.com/a'])).toEqual([false]);
      expect(await store.siteJobs.lease('req_gone', 5)).toEqual([]);
      expect(await store.siteJobs.requeueLeased('req_gone')).toEqual([]);
      expect(await store.siteJobs.leaseEntry('req_gone', 1)).toBeUndefined();
      expect(await store.siteJobs.unfinished('req_gone')).toEqual([]);
      expect(await store.siteJobs.complete('req_gone', 1, { result: { page: {}, credits: 1, succeeded: true } })).toBe(
        undefined,
      );
      await store.siteJobs.markCharged('req_gone', 1);
      expect(await store.siteJobs.frontierCounts('req_gone')).toEqual({ queued: 0, leased: 0, done: 0 });
      expect(await store.siteJobs.results('req_gone', 0, 10)).toEqual([]);
      expect(await store.siteJobs.unchargedResults('req_gone')).toEqual([]);
      expect(await store.siteJobs.fingerprints('req_gone')).toEqual([]);
      expect(await store.siteJobs.renewLeases('one', ['req_gone'], Date.now())).toEqual([]);
      expect(await store.siteJobs.seen('req_gone', [])).toEqual([]);
      expect(await store.siteJobs.getJob('req_gone')).toBeUndefined();
    });

    it('orders priorities exactly: close fractions, huge and tiny values, zero and minus zero as ties', async () => {
      const j = siteJob();
      await store.siteJobs.createJob(j, []);
      await store.siteJobs.enqueue(j.id, [
        entry('/p03', 0.3),
        entry('/p0102', 0.1 + 0.2), // 0.30000000000000004: above 0.3
        entry('/zero', 0),
        entry('/minus-zero', -0),
        entry('/zero2', 0),
        entry('/huge', 1e15),
        entry('/below', -1e-9),
        entry('/above', 1e-9),
        entry('/deep', -12.75),
        entry('/deeper', -12.5 - 0.25),
      ]);
      expect(await store.siteJobs.lease(j.id, 0)).toEqual([]);
      expect(await store.siteJobs.lease(j.id, -1)).toEqual([]);
      const first = await store.siteJobs.lease(j.id, 3);
      expect(first.map((e) => e.url.slice(19))).toEqual(['/huge', '/p0102', '/p03']);
      expect(first[1]?.priority).toBe(0.1 + 0.2);
      // A later entry of an equal priority comes after the earlier ones, even those leased and put back.
      await store.siteJobs.enqueue(j.id, [entry('/p03-later', 0.3)]);
      await store.siteJobs.requeueLeased(j.id);
      expect((await store.siteJobs.lease(j.id, 2)).map((e) => e.url.slice(19))).toEqual(['/huge', '/p0102']);
      expect((await store.siteJobs.lease(j.id, 20)).map((e) => e.url.slice(19))).toEqual([
        '/p03',
        '/p03-later',
        '/above',
        '/zero',
        '/minus-zero',
        '/zero2',
        '/below',
        '/deep',
        '/deeper',
      ]);
      expect(await store.siteJobs.frontierCounts(j.id)).toEqual({ queued: 0, leased: 11, done: 0 });
    });

    it("keeps updatedAt at a running job's last write and, once it is done, at its end", async () => {
      const old = Date.now() - 60_000;
      const j = siteJob({ createdAt: old, updatedAt: old });
      await store.siteJobs.createJob(j, [entry('/1'), entry('/2')]);
      expect((await store.siteJobs.getJob(j.id))?.updatedAt).toBe(old);
      const [one, two] = await store.siteJobs.lease(j.id, 2);
      const before = Date.now();
      await store.siteJobs.complete(j.id, one!.seq, { result: { page: { n: 1 }, credits: 1, succeeded: true } });
      expect((await store.siteJobs.getJob(j.id))?.updatedAt).toBeGreaterThanOrEqual(before);
      const end = old + 1;
      expect(await store.siteJobs.finishJob(j.id, { stopReason: 'cancelled', at: end, expiresAt: end + 1_000 })).toBe(
        true,
      );
      // A page in flight when the job ended still delivers its result and its charge.
      expect(
        await store.siteJobs.complete(j.id, two!.seq, { result: { page: { n: 2 }, credits: 1, succeeded: true } }),
      ).toBe(2);
      await store.siteJobs.markCharged(j.id, 2);
      expect(await store.siteJobs.enqueue(j.id, [entry('/3')])).toHaveLength(1);
      const done = await store.siteJobs.getJob(j.id);
      expect(done).toMatchObject({ status: 'done', stopReason: 'cancelled', updatedAt: end, expiresAt: end + 1_000 });
      expect(done?.counts).toMatchObject({ discovered: 3, results: 2, succeeded: 2, credits_used: 1 });
    });

    it('lets the first instance claim a job nobody leased, counting it only while its lease is live', async () => {
      const now = Date.now();
      const free = unleased({ keyId: 'key_free' });
      await store.siteJobs.createJob(free, []);
      expect(await store.siteJobs.countRunning('key_free', now)).toEqual({ key: 0, total: 0 });
      const [claimed] = await store.siteJobs.claimJobs('x', now, 5_000);
      expect(claimed).toEqual({ ...free, owner: 'x', leaseUntil: now + 5_000 });
      expect(await store.siteJobs.countRunning('key_free', now)).toEqual({ key: 1, total: 1 });
      expect(await store.siteJobs.countRunning('key_other', now)).toEqual({ key: 0, total: 1 });
      // The lease ends at leaseUntil: from then on nobody runs it, and anyone may take it.
      expect(await store.siteJobs.countRunning('key_free', now + 5_000)).toEqual({ key: 0, total: 0 });
      expect(await store.siteJobs.claimJobs('y', now + 4_999, 5_000)).toEqual([]);
      expect((await store.siteJobs.claimJobs('y', now + 5_000, 5_000)).map((c) => c.owner)).toEqual(['y']);
      expect(await store.siteJobs.renewLeases('x', [free.id, 'req_unknown'], now + 20_000)).toEqual([]);
      expect(await store.siteJobs.renewLeases('y', [free.id, 'req_unknown'], now + 20_000)).toEqual([free.id]);
      expect(await store.siteJobs.getJob(free.id)).toMatchObject({ owner: 'y', leaseUntil: now + 20_000 });
      // Its owner claiming again (a restart of the same instance) keeps it and renews the lease.
      expect(await store.siteJobs.claimJobs('y', now + 1, 60_000)).toEqual([
        { ...free, owner: 'y', leaseUntil: now + 60_001 },
      ]);
      expect(await store.siteJobs.renewLeases('y', [], now)).toEqual([]);
    });

    it('deletes only the jobs past their retention, and a sweep keeps its own results apart', async () => {
      const now = Date.now();
      const expired = siteJob();
      const kept = siteJob();
      const running = siteJob();
      for (const j of [expired, kept, running]) {
        await store.siteJobs.createJob(j, [entry('/x'), entry('/y')]);
        const [x] = await store.siteJobs.lease(j.id, 1);
        await store.siteJobs.complete(j.id, x!.seq, {
          result: { page: { of: j.id }, credits: 1, succeeded: true },
          fingerprint: `s${j.id}`,
          aliases: ['https://example.com/x/'],
        });
      }
      await store.siteJobs.lease(expired.id, 1);
      await store.siteJobs.finishJob(expired.id, { stopReason: 'limit', at: now, expiresAt: now + 1_000 });
      await store.siteJobs.finishJob(kept.id, { stopReason: 'limit', at: now, expiresAt: now + 2_000 });
      expect(await store.siteJobs.deleteExpired(now + 1_500)).toBe(1);
      expect(await store.siteJobs.deleteExpired(now + 1_500)).toBe(0);
      expect(await store.siteJobs.getJob(expired.id)).toBeUndefined();
      expect(await store.siteJobs.frontierCounts(expired.id)).toEqual({ queued: 0, leased: 0, done: 0 });
      expect(await store.siteJobs.unchargedResults(expired.id)).toEqual([]);
      expect(await store.siteJobs.seen(expired.id, ['https://example.com/x/', 'https://example.com/y'])).toEqual([
        false,
        false,
      ]);
      // A straggler's writes into the deleted job leave nothing behind.
      expect(await store.siteJobs.enqueue(expired.id, [entry('/z')])).toEqual([]);
      expect(await store.siteJobs.lease(expired.id, 5)).toEqual([]);
      for (const j of [kept, running]) {
        expect((await store.siteJobs.results(j.id, 0, 10)).map((r) => r.page)).toEqual([{ of: j.id }]);
        expect(await store.siteJobs.fingerprints(j.id)).toEqual([`s${j.id}`]);
        expect(await store.siteJobs.frontierCounts(j.id)).toEqual({ queued: 1, leased: 0, done: 1 });
        expect(await store.siteJobs.seen(j.id, ['https://example.com/x/'])).toEqual([true]);
      }
      expect(await store.siteJobs.deleteExpired(now + 2_000)).toBe(1);
      expect(await store.siteJobs.getJob(kept.id)).toBeUndefined();
      expect(await store.siteJobs.getJob(running.id)).toMatchObject({ status: 'running' });
    });
  });
}
