/**
 * Site crawl jobs in one SQLite file shared by processes: what one connection wrote the
 * next one sees (an instance that died is taken over by another, or by itself restarted),
 * a file from before the jobs' tables gains them, and a file locked past its busy timeout
 * fails a job's write with `store_unavailable`, as the store's own methods do.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, expect, it } from 'vitest';
import type { FrontierEntry } from '../../src/core/ports/site-job-store.js';
import { SqliteStore } from '../../src/store/sqlite-store.js';
import { STORE_RETRY_AFTER_S } from '../../src/store/store-outage.js';
import { siteJob } from './site-job-contract.js';

const dir = mkdtempSync(join(tmpdir(), 'sqlite-site-jobs-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const url = (path: string): string => `https://example.com${path}`;
const entry = (path: string, priority = 0): FrontierEntry => ({ url: url(path), depth: 1, priority });

const job = (id: string, owner: string, leaseUntil: number) =>
  siteJob({ id, keyId: 'key_a', request: { url: url('/'), limit: 10 }, owner, leaseUntil });

it('resumes a job from another connection to the file: its frontier, leases, results and pending charges', async () => {
  const path = join(dir, 'resume.db');
  const now = Date.now();
  const first = SqliteStore.open(path);
  const second = SqliteStore.open(path);
  try {
    await first.siteJobs.createJob(job('req_resume', 'one', now + 30_000), [entry('/', 1), entry('/a')]);
    // Both connections work on the job at once: one frontier, leases never handed out twice.
    expect(await second.siteJobs.enqueue('req_resume', [entry('/a'), entry('/b', 2)])).toEqual([
      { ...entry('/b', 2), seq: 3 },
    ]);
    const leasedByFirst = await first.siteJobs.lease('req_resume', 1);
    const leasedBySecond = await second.siteJobs.lease('req_resume', 1);
    expect([...leasedByFirst, ...leasedBySecond].map((e) => e.url)).toEqual([url('/b'), url('/')]);
    const [b] = leasedByFirst;
    expect(
      await first.siteJobs.complete('req_resume', b!.seq, { result: { page: { b: 1 }, credits: 1, succeeded: true } }),
    ).toBe(1);
    expect(
      await second.siteJobs.complete('req_resume', b!.seq, { result: { page: { b: 2 }, credits: 1, succeeded: true } }),
    ).toBeUndefined();
  } finally {
    // The first instance dies here: its lease, its leased entry and its uncharged result stay behind.
    await first.close();
    await second.close();
  }

  const restarted = SqliteStore.open(path);
  try {
    expect(await restarted.siteJobs.claimJobs('two', now + 1_000, 30_000)).toEqual([]);
    const [taken] = await restarted.siteJobs.claimJobs('two', now + 30_000, 30_000);
    expect(taken).toMatchObject({
      id: 'req_resume',
      owner: 'two',
      counts: { discovered: 3, results: 1, succeeded: 1 },
    });
    expect((await restarted.siteJobs.requeueLeased('req_resume')).map((e) => e.url)).toEqual([url('/')]);
    expect((await restarted.siteJobs.unchargedResults('req_resume')).map((r) => r.page)).toEqual([{ b: 1 }]);
    expect(await restarted.siteJobs.seen('req_resume', [url('/b'), url('/c')])).toEqual([true, false]);
    expect((await restarted.siteJobs.lease('req_resume', 5)).map((e) => e.url)).toEqual([url('/'), url('/a')]);
  } finally {
    await restarted.close();
  }
});

it('adds the site crawl tables to a file written before them (schema 1), keeping its keys', async () => {
  const path = join(dir, 'schema-1.db');
  const old = new Database(path);
  old.exec(`CREATE TABLE api_keys (
    id TEXT PRIMARY KEY, name TEXT NOT NULL, hash TEXT NOT NULL UNIQUE, prefix TEXT NOT NULL,
    balance INTEGER, created_at TEXT NOT NULL, revoked_at TEXT)`);
  old
    .prepare('INSERT INTO api_keys (id, name, hash, prefix, balance, created_at) VALUES (?, ?, ?, ?, ?, ?)')
    .run('key_old', 'old', 'c'.repeat(64), 'wsk_old', 7, '2026-01-01T00:00:00.000Z');
  old.pragma('user_version = 1');
  old.close();

  const store = SqliteStore.open(path);
  try {
    expect((await store.keyById('key_old'))?.balance).toBe(7);
    await store.siteJobs.createJob(job('req_after', 'one', Date.now() + 30_000), [entry('/')]);
    expect(await store.siteJobs.frontierCounts('req_after')).toEqual({ queued: 1, leased: 0, done: 0 });
  } finally {
    await store.close();
  }
});

it("fails a job's write with store_unavailable while another process holds the file's lock", async () => {
  const path = join(dir, 'locked.db');
  const store = SqliteStore.open(path);
  const other = new Database(path);
  try {
    await store.siteJobs.createJob(job('req_locked', 'one', Date.now() + 30_000), []);
    other.exec('BEGIN EXCLUSIVE');
    await expect(store.siteJobs.enqueue('req_locked', [entry('/x')])).rejects.toMatchObject({
      code: 'store_unavailable',
      retryAfter: STORE_RETRY_AFTER_S,
    });
    other.exec('ROLLBACK');
    // A mistake of the caller's is no outage: the same job id twice stays a plain error.
    await expect(store.siteJobs.createJob(job('req_locked', 'one', 0), [])).rejects.not.toMatchObject({
      code: 'store_unavailable',
    });
    expect(await store.siteJobs.enqueue('req_locked', [entry('/x')])).toEqual([{ ...entry('/x'), seq: 1 }]);
  } finally {
    other.close();
    await store.close();
  }
});
