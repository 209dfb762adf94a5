/**
 * Site crawl jobs in Redis, shared by every instance: each job is a few keys under
 * `<prefix>sj:<kind>:<job id>`: the job's fixed fields as JSON (`job`), its changing ones
 * and its counts as hashes (`meta`, `counts`), its frontier (`urls`: URL -> seq, the visited
 * set; `entries`: seq -> entry JSON; `queue`: a sorted set of queued seqs, `scores`: seq ->
 * its score there; `leased`: a set), and its results (`pages`: seq -> page JSON as written,
 * never re-encoded; `result`: seq -> "entry seq:credits"; `uncharged`: a set;
 * `fingerprints`: a list). Every step that must be atomic is one Lua script; no script
 * decodes a caller's JSON (cjson would rewrite empty arrays and large numbers). The scripts
 * that walk the running jobs name their keys from the prefix: one Redis, not a cluster.
 *
 * The queue's order: score = minus the priority, written by JavaScript (the shortest text
 * that reads back as the same double, so 12.75, -3 and 0.1 + 0.2 stay exact), and members
 * are zero-padded seqs, which Redis orders lexically among equal scores: ZPOPMIN takes the
 * highest priority first, ties in insertion order.
 */
import type { Redis } from 'ioredis';
import type {
  EntryCompletion,
  FrontierEntry,
  FrontierState,
  LeasedEntry,
  SiteJob,
  SiteJobCounts,
  SiteJobResult,
  SiteJobStopReason,
  SiteJobStore,
} from '../../core/ports/site-job-store.js';

const COUNT_NAMES = [
  'discovered',
  'results',
  'succeeded',
  'failed',
  'duplicates',
  'robots_disallowed',
  'credits_used',
] as const satisfies readonly (keyof SiteJobCounts)[];

/** The job's changing fields, in the order CREATE takes them ('' = absent, except keyId: '' is null). */
const META_NAMES = ['status', 'keyId', 'updatedAt', 'owner', 'leaseUntil', 'stopReason', 'error', 'expiresAt'] as const;

/** Seqs as sorted-set members: zero-padded, so the lexical order of equal scores is insertion order. */
const pad = (seq: number): string => String(seq).padStart(12, '0');

const luaList = (names: readonly string[]): string => `{${names.map((n) => `'${n}'`).join(', ')}}`;

/** `updatedAt` follows a running job's writes; a done job's stays when it ended. */
const TOUCH = `
local function touch(meta, at)
  if at ~= '' and redis.call('HGET', meta, 'status') == 'running' then redis.call('HSET', meta, 'updatedAt', at) end
end
`;

/**
 * Adds the URLs of the (url, score, entry JSON) triples in ARGV from `from` on that the job
 * has not seen (frontier or alias); returns (index from 1, seq) pairs of the ones added.
 */
const ADD_URLS = `
local function addUrls(urls, entries, queue, seq, scores, from)
  local added = {}
  for i = from, #ARGV, 3 do
    if redis.call('HEXISTS', urls, ARGV[i]) == 0 then
      local n = redis.call('INCR', seq)
      redis.call('HSET', urls, ARGV[i], n)
      redis.call('HSET', entries, n, ARGV[i + 2])
      redis.call('HSET', scores, n, ARGV[i + 1])
      redis.call('ZADD', queue, ARGV[i + 1], string.format('%012d', n))
      added[#added + 1] = (i - from) / 3 + 1
      added[#added + 1] = n
    end
  end
  return added
end
`;

/**
 * KEYS: urls, entries, queue, seq, scores, counts, job, meta, running, expiring. ARGV: id,
 * fixed JSON, the META_NAMES values, the COUNT_NAMES values, then the seeds' triples.
 * Returns how many seeds were added.
 */
const CREATE = `${ADD_URLS}
redis.call('SET', KEYS[7], ARGV[2])
for i, name in ipairs(${luaList(META_NAMES)}) do
  local value = ARGV[2 + i]
  if value ~= '' or name == 'keyId' then redis.call('HSET', KEYS[8], name, value) end
end
for i, name in ipairs(${luaList(COUNT_NAMES)}) do redis.call('HSET', KEYS[6], name, ARGV[${2 + META_NAMES.length} + i]) end
if ARGV[3] == 'running' then
  redis.call('SADD', KEYS[9], ARGV[1])
elseif ARGV[${2 + META_NAMES.length}] ~= '' then
  redis.call('ZADD', KEYS[10], ARGV[${2 + META_NAMES.length}], ARGV[1])
end
local added = addUrls(KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5], ${3 + META_NAMES.length + COUNT_NAMES.length})
if #added > 0 then redis.call('HINCRBY', KEYS[6], 'discovered', #added / 2) end
return #added / 2
`;

/**
 * KEYS: urls, entries, queue, seq, scores, counts, meta. ARGV: at, then the triples.
 * Returns (index from 1, seq) pairs of the triples added; none to a job that is gone.
 */
const ENQUEUE = `${TOUCH}${ADD_URLS}
if redis.call('EXISTS', KEYS[6]) == 0 then return {} end
local added = addUrls(KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5], 2)
if #added > 0 then
  redis.call('HINCRBY', KEYS[6], 'discovered', #added / 2)
  touch(KEYS[7], ARGV[1])
end
return added
`;

/** KEYS: queue, leased. ARGV: n. Pops the best `n` queued seqs into the leased set. */
const LEASE = `
local popped = redis.call('ZPOPMIN', KEYS[1], ARGV[1])
local seqs = {}
for i = 1, #popped, 2 do
  redis.call('SADD', KEYS[2], popped[i])
  seqs[#seqs + 1] = popped[i]
end
return seqs
`;

/** KEYS: queue, leased. ARGV: padded seq. Moves a queued seq to the leased set; 1 when it is leased now, 0 when done or unknown. */
const LEASE_ONE = `
if redis.call('ZREM', KEYS[1], ARGV[1]) == 1 then redis.call('SADD', KEYS[2], ARGV[1]) return 1 end
return redis.call('SISMEMBER', KEYS[2], ARGV[1])
`;

/** KEYS: leased, queue, scores. Puts every leased seq back in the queue at its score. */
const REQUEUE = `
local members = redis.call('SMEMBERS', KEYS[1])
for _, member in ipairs(members) do
  redis.call('ZADD', KEYS[2], redis.call('HGET', KEYS[3], tostring(tonumber(member))), member)
end
redis.call('DEL', KEYS[1])
return members
`;

/**
 * KEYS: leased, urls, seq, counts, pages, result, uncharged, fingerprints, done, meta.
 * ARGV: entry seq (padded), has result ('1'/'0'), page JSON, credits, succeeded ('1'/'0'),
 * fingerprint ('' none), duplicates, robots_disallowed, at, max results ('' none), then the
 * aliases. Returns the result's seq, 0 when there is none (or it is past the limit), -1 when
 * the entry was not leased.
 */
const COMPLETE = `${TOUCH}
if redis.call('SREM', KEYS[1], ARGV[1]) == 0 then return -1 end
redis.call('INCR', KEYS[9])
for i = 11, #ARGV do
  if redis.call('HEXISTS', KEYS[2], ARGV[i]) == 0 then
    redis.call('HSET', KEYS[2], ARGV[i], redis.call('INCR', KEYS[3]))
  end
end
if tonumber(ARGV[7]) ~= 0 then redis.call('HINCRBY', KEYS[4], 'duplicates', ARGV[7]) end
if tonumber(ARGV[8]) ~= 0 then redis.call('HINCRBY', KEYS[4], 'robots_disallowed', ARGV[8]) end
touch(KEYS[10], ARGV[9])
if ARGV[2] ~= '1' then return 0 end
if ARGV[10] ~= '' and tonumber(redis.call('HGET', KEYS[4], 'results') or '0') >= tonumber(ARGV[10]) then return 0 end
local seq = redis.call('HINCRBY', KEYS[4], 'results', 1)
redis.call('HSET', KEYS[5], seq, ARGV[3])
redis.call('HSET', KEYS[6], seq, tostring(tonumber(ARGV[1])) .. ':' .. ARGV[4])
redis.call('SADD', KEYS[7], seq)
if ARGV[5] == '1' then redis.call('HINCRBY', KEYS[4], 'succeeded', 1) else redis.call('HINCRBY', KEYS[4], 'failed', 1) end
if ARGV[6] ~= '' then redis.call('RPUSH', KEYS[8], ARGV[6]) end
return seq
`;

/** KEYS: uncharged, result, counts, meta. ARGV: result seq, at. Adds its credits once. */
const MARK_CHARGED = `${TOUCH}
if redis.call('SREM', KEYS[1], ARGV[1]) == 0 then return 0 end
local credits = string.match(redis.call('HGET', KEYS[2], ARGV[1]), ':(.*)$')
if tonumber(credits) ~= 0 then redis.call('HINCRBY', KEYS[3], 'credits_used', credits) end
touch(KEYS[4], ARGV[2])
return 1
`;

/** KEYS: running. ARGV: prefix, owner, now, lease ms. Takes the running jobs owned by `owner` or whose lease ended. */
const CLAIM = `
local claimed = {}
for _, id in ipairs(redis.call('SMEMBERS', KEYS[1])) do
  local meta = ARGV[1] .. 'sj:meta:' .. id
  local owner = redis.call('HGET', meta, 'owner')
  local lease = redis.call('HGET', meta, 'leaseUntil')
  if owner == ARGV[2] or not lease or tonumber(lease) <= tonumber(ARGV[3]) then
    redis.call('HSET', meta, 'owner', ARGV[2], 'leaseUntil', tonumber(ARGV[3]) + tonumber(ARGV[4]))
    claimed[#claimed + 1] = id
  end
end
return claimed
`;

/** KEYS: running. ARGV: prefix, owner, until. Extends every running job's lease under `owner`; returns their ids. */
const LIVE = `
local ids = redis.call('SMEMBERS', KEYS[1])
for _, id in ipairs(ids) do
  redis.call('HSET', ARGV[1] .. 'sj:meta:' .. id, 'owner', ARGV[2], 'leaseUntil', ARGV[3])
end
return ids
`;

/** ARGV: prefix, owner, until, then the ids. Returns the ids still running and owned. */
const RENEW = `
local kept = {}
for i = 4, #ARGV do
  local meta = ARGV[1] .. 'sj:meta:' .. ARGV[i]
  if redis.call('HGET', meta, 'status') == 'running' and redis.call('HGET', meta, 'owner') == ARGV[2] then
    redis.call('HSET', meta, 'leaseUntil', ARGV[3])
    kept[#kept + 1] = ARGV[i]
  end
end
return kept
`;

/** KEYS: meta, running, expiring. ARGV: id, stop reason, error JSON ('' none), at, expires at. */
const FINISH = `
if redis.call('HGET', KEYS[1], 'status') ~= 'running' then return 0 end
redis.call('HSET', KEYS[1], 'status', 'done', 'stopReason', ARGV[2], 'updatedAt', ARGV[4], 'expiresAt', ARGV[5])
if ARGV[3] ~= '' then redis.call('HSET', KEYS[1], 'error', ARGV[3]) end
redis.call('SREM', KEYS[2], ARGV[1])
redis.call('ZADD', KEYS[3], ARGV[5], ARGV[1])
return 1
`;

/** KEYS: running. ARGV: prefix, key id ('' for none), now. Returns {this key's leased running jobs, all leased}. */
const COUNT_RUNNING = `
local mine = 0
local all = 0
for _, id in ipairs(redis.call('SMEMBERS', KEYS[1])) do
  local meta = ARGV[1] .. 'sj:meta:' .. id
  local lease = redis.call('HGET', meta, 'leaseUntil')
  if lease and tonumber(lease) > tonumber(ARGV[3]) then
    all = all + 1
    if redis.call('HGET', meta, 'keyId') == ARGV[2] then mine = mine + 1 end
  end
end
return {mine, all}
`;

interface Scripts {
  wsmSiteCreate(...args: (string | number)[]): Promise<number>;
  wsmSiteEnqueue(...args: (string | number)[]): Promise<number[]>;
  wsmSiteLease(...args: (string | number)[]): Promise<string[]>;
  wsmSiteRequeue(...args: (string | number)[]): Promise<string[]>;
  wsmSiteLeaseOne(...args: (string | number)[]): Promise<number>;
  wsmSiteLive(...args: (string | number)[]): Promise<string[]>;
  wsmSiteComplete(...args: (string | number)[]): Promise<number>;
  wsmSiteMarkCharged(...args: (string | number)[]): Promise<number>;
  wsmSiteClaim(...args: (string | number)[]): Promise<string[]>;
  wsmSiteRenew(...args: (string | number)[]): Promise<string[]>;
  wsmSiteFinish(...args: (string | number)[]): Promise<number>;
  wsmSiteCountRunning(...args: (string | number)[]): Promise<[number, number]>;
}

const KINDS = [
  'job',
  'meta',
  'counts',
  'urls',
  'entries',
  'scores',
  'queue',
  'leased',
  'seq',
  'done',
  'pages',
  'result',
  'uncharged',
  'fingerprints',
] as const;
type Kind = (typeof KINDS)[number];

/** Entries as script arguments: url, queue score (minus the priority), entry JSON. */
function triples(entries: FrontierEntry[]): string[] {
  return entries.flatMap((e) => [e.url, String(-e.priority), JSON.stringify(e)]);
}

/** The replies of a MULTI, or its first error. */
function replies(results: [Error | null, unknown][] | null): unknown[] {
  if (results === null) throw new Error('the Redis transaction was aborted');
  return results.map(([err, value]) => {
    if (err) throw err;
    return value;
  });
}

export class RedisSiteJobs implements SiteJobStore {
  readonly #redis: Redis & Scripts;
  readonly #p: string;

  constructor(redis: Redis, prefix: string) {
    redis.defineCommand('wsmSiteCreate', { numberOfKeys: 10, lua: CREATE });
    redis.defineCommand('wsmSiteEnqueue', { numberOfKeys: 7, lua: ENQUEUE });
    redis.defineCommand('wsmSiteLease', { numberOfKeys: 2, lua: LEASE });
    redis.defineCommand('wsmSiteRequeue', { numberOfKeys: 3, lua: REQUEUE });
    redis.defineCommand('wsmSiteLeaseOne', { numberOfKeys: 2, lua: LEASE_ONE });
    redis.defineCommand('wsmSiteLive', { numberOfKeys: 1, lua: LIVE });
    redis.defineCommand('wsmSiteComplete', { numberOfKeys: 10, lua: COMPLETE });
    redis.defineCommand('wsmSiteMarkCharged', { numberOfKeys: 4, lua: MARK_CHARGED });
    redis.defineCommand('wsmSiteClaim', { numberOfKeys: 1, lua: CLAIM });
    redis.defineCommand('wsmSiteRenew', { numberOfKeys: 0, lua: RENEW });
    redis.defineCommand('wsmSiteFinish', { numberOfKeys: 3, lua: FINISH });
    redis.defineCommand('wsmSiteCountRunning', { numberOfKeys: 1, lua: COUNT_RUNNING });
    this.#redis = redis as Redis & Scripts;
    this.#p = prefix;
  }

  #k(kind: Kind, jobId: string): string {
    return `${this.#p}sj:${kind}:${jobId}`;
  }

  /** The frontier's keys, in the order ADD_URLS takes them. */
  #frontier(jobId: string): string[] {
    return [
      this.#k('urls', jobId),
      this.#k('entries', jobId),
      this.#k('queue', jobId),
      this.#k('seq', jobId),
      this.#k('scores', jobId),
    ];
  }

  get #running(): string {
    return `${this.#p}sj:running`;
  }

  get #expiring(): string {
    return `${this.#p}sj:expiring`;
  }

  async createJob(job: SiteJob, seeds: FrontierEntry[]): Promise<void> {
    const fixed = {
      id: job.id,
      keyId: job.keyId,
      request: job.request,
      createdAt: job.createdAt,
      deadline: job.deadline,
    };
    const meta: Record<(typeof META_NAMES)[number], string> = {
      status: job.status,
      keyId: job.keyId ?? '',
      updatedAt: String(job.updatedAt),
      owner: job.owner ?? '',
      leaseUntil: job.leaseUntil === undefined ? '' : String(job.leaseUntil),
      stopReason: job.stopReason ?? '',
      error: job.error === undefined ? '' : JSON.stringify(job.error),
      expiresAt: job.expiresAt === undefined ? '' : String(job.expiresAt),
    };
    await this.#redis.wsmSiteCreate(
      ...this.#frontier(job.id),
      this.#k('counts', job.id),
      this.#k('job', job.id),
      this.#k('meta', job.id),
      this.#running,
      this.#expiring,
      job.id,
      JSON.stringify(fixed),
      ...META_NAMES.map((name) => meta[name]),
      ...COUNT_NAMES.map((name) => job.counts[name]),
      ...triples(seeds),
    );
  }

  async getJob(id: string): Promise<SiteJob | undefined> {
    const [fixed, meta, counts] = replies(
      await this.#redis
        .multi()
        .get(this.#k('job', id))
        .hgetall(this.#k('meta', id))
        .hgetall(this.#k('counts', id))
        .exec(),
    ) as [string | null, Record<string, string>, Record<string, string>];
    if (fixed === null) return undefined;
    return toJob(fixed, meta, counts);
  }

  async countRunning(keyId: string | null, now: number): Promise<{ key: number; total: number }> {
    const [key, total] = await this.#redis.wsmSiteCountRunning(this.#running, this.#p, keyId ?? '', now);
    return { key: Number(key), total: Number(total) };
  }

  async claimJobs(owner: string, now: number, leaseMs: number): Promise<SiteJob[]> {
    const ids = await this.#redis.wsmSiteClaim(this.#running, this.#p, owner, now, leaseMs);
    const jobs = await Promise.all(ids.map((id) => this.getJob(id)));
    return jobs.filter((job): job is SiteJob => job !== undefined);
  }

  async liveJobs(owner: string, now: number, leaseMs: number): Promise<SiteJob[]> {
    const ids = await this.#redis.wsmSiteLive(this.#running, this.#p, owner, now + leaseMs);
    const jobs = await Promise.all(ids.map((id) => this.getJob(id)));
    return jobs.filter((job): job is SiteJob => job?.status === 'running');
  }

  async renewLeases(owner: string, ids: string[], until: number): Promise<string[]> {
    if (ids.length === 0) return [];
    return this.#redis.wsmSiteRenew(this.#p, owner, until, ...ids);
  }

  async finishJob(
    id: string,
    end: { stopReason: SiteJobStopReason; error?: { code: string; message: string }; at: number; expiresAt: number },
  ): Promise<boolean> {
    const done = await this.#redis.wsmSiteFinish(
      this.#k('meta', id),
      this.#running,
      this.#expiring,
      id,
      end.stopReason,
      end.error === undefined ? '' : JSON.stringify(end.error),
      end.at,
      end.expiresAt,
    );
    return done === 1;
  }

  async enqueue(jobId: string, entries: FrontierEntry[]): Promise<LeasedEntry[]> {
    if (entries.length === 0) return [];
    const added = await this.#redis.wsmSiteEnqueue(
      ...this.#frontier(jobId),
      this.#k('counts', jobId),
      this.#k('meta', jobId),
      Date.now(),
      ...triples(entries),
    );
    const out: LeasedEntry[] = [];
    for (let i = 0; i < added.length; i += 2)
      out.push({
        ...(JSON.parse(JSON.stringify(entries[Number(added[i]) - 1])) as FrontierEntry),
        seq: Number(added[i + 1]),
      });
    return out;
  }

  async seen(jobId: string, urls: string[]): Promise<boolean[]> {
    if (urls.length === 0) return [];
    const found = await this.#redis.hmget(this.#k('urls', jobId), ...urls);
    return found.map((seq) => seq !== null);
  }

  async lease(jobId: string, n: number): Promise<LeasedEntry[]> {
    if (n <= 0) return [];
    const members = await this.#redis.wsmSiteLease(this.#k('queue', jobId), this.#k('leased', jobId), n);
    return this.#entries(jobId, members);
  }

  async leaseEntry(jobId: string, seq: number): Promise<LeasedEntry | undefined> {
    const leased = await this.#redis.wsmSiteLeaseOne(this.#k('queue', jobId), this.#k('leased', jobId), pad(seq));
    return leased === 1 ? (await this.#entries(jobId, [pad(seq)]))[0] : undefined;
  }

  async unfinished(jobId: string): Promise<LeasedEntry[]> {
    const [queued, leased] = replies(
      await this.#redis.multi().zrange(this.#k('queue', jobId), 0, -1).smembers(this.#k('leased', jobId)).exec(),
    ) as [string[], string[]];
    const entries = await this.#entries(jobId, [...queued, ...leased]);
    return entries.sort((a, b) => a.seq - b.seq);
  }

  async requeueLeased(jobId: string): Promise<LeasedEntry[]> {
    const members = await this.#redis.wsmSiteRequeue(
      this.#k('leased', jobId),
      this.#k('queue', jobId),
      this.#k('scores', jobId),
    );
    const entries = await this.#entries(jobId, members);
    return entries.sort((a, b) => a.seq - b.seq);
  }

  async #entries(jobId: string, members: string[]): Promise<LeasedEntry[]> {
    if (members.length === 0) return [];
    const seqs = members.map(Number);
    const values = await this.#redis.hmget(this.#k('entries', jobId), ...seqs.map(String));
    return values.flatMap((value, i) =>
      value === null ? [] : [{ ...(JSON.parse(value) as FrontierEntry), seq: seqs[i]! }],
    );
  }

  async frontierCounts(jobId: string): Promise<Record<FrontierState, number>> {
    const [queued, leased, done] = replies(
      await this.#redis
        .multi()
        .zcard(this.#k('queue', jobId))
        .scard(this.#k('leased', jobId))
        .get(this.#k('done', jobId))
        .exec(),
    ) as [number, number, string | null];
    return { queued, leased, done: Number(done ?? 0) };
  }

  async complete(jobId: string, entrySeq: number, c: EntryCompletion): Promise<number | undefined> {
    const seq = await this.#redis.wsmSiteComplete(
      this.#k('leased', jobId),
      this.#k('urls', jobId),
      this.#k('seq', jobId),
      this.#k('counts', jobId),
      this.#k('pages', jobId),
      this.#k('result', jobId),
      this.#k('uncharged', jobId),
      this.#k('fingerprints', jobId),
      this.#k('done', jobId),
      this.#k('meta', jobId),
      pad(entrySeq),
      c.result !== undefined ? '1' : '0',
      c.result !== undefined ? JSON.stringify(c.result.page) : '',
      c.result?.credits ?? 0,
      c.result?.succeeded === true ? '1' : '0',
      c.result !== undefined ? (c.fingerprint ?? '') : '',
      c.counts?.duplicates ?? 0,
      c.counts?.robots_disallowed ?? 0,
      Date.now(),
      c.maxResults ?? '',
      ...(c.aliases ?? []),
    );
    return seq > 0 ? seq : undefined;
  }

  async markCharged(jobId: string, resultSeq: number): Promise<void> {
    await this.#redis.wsmSiteMarkCharged(
      this.#k('uncharged', jobId),
      this.#k('result', jobId),
      this.#k('counts', jobId),
      this.#k('meta', jobId),
      resultSeq,
      Date.now(),
    );
  }

  async unchargedResults(jobId: string): Promise<SiteJobResult[]> {
    const seqs = (await this.#redis.smembers(this.#k('uncharged', jobId))).map(Number).sort((a, b) => a - b);
    return this.#results(jobId, seqs, new Set(seqs));
  }

  async results(jobId: string, after: number, limit: number): Promise<SiteJobResult[]> {
    if (limit <= 0) return [];
    const total = Number((await this.#redis.hget(this.#k('counts', jobId), 'results')) ?? 0);
    const seqs: number[] = [];
    const from = Math.max(0, after);
    for (let seq = from + 1; seq <= Math.min(total, from + limit); seq++) seqs.push(seq);
    if (seqs.length === 0) return [];
    const uncharged = new Set((await this.#redis.smembers(this.#k('uncharged', jobId))).map(Number));
    return this.#results(jobId, seqs, uncharged);
  }

  async #results(jobId: string, seqs: number[], uncharged: ReadonlySet<number>): Promise<SiteJobResult[]> {
    if (seqs.length === 0) return [];
    const keys = seqs.map(String);
    const [pages, metas] = await Promise.all([
      this.#redis.hmget(this.#k('pages', jobId), ...keys),
      this.#redis.hmget(this.#k('result', jobId), ...keys),
    ]);
    return seqs.flatMap((seq, i) => {
      const page = pages[i];
      const meta = metas[i];
      if (page == null || meta == null) return [];
      const [entrySeq, credits] = meta.split(':').map(Number) as [number, number];
      return [{ seq, entrySeq, credits, page: JSON.parse(page) as unknown, charged: !uncharged.has(seq) }];
    });
  }

  async fingerprints(jobId: string, from = 0): Promise<string[]> {
    return this.#redis.lrange(this.#k('fingerprints', jobId), from, -1);
  }

  async deleteExpired(now: number): Promise<number> {
    const ids = await this.#redis.zrangebyscore(this.#expiring, '-inf', now, 'LIMIT', 0, 100);
    for (const id of ids) {
      // UNLINK: a large frontier is freed in the background, not while Redis serves others.
      replies(
        await this.#redis
          .multi()
          .unlink(...KINDS.map((kind) => this.#k(kind, id)))
          .zrem(this.#expiring, id)
          .exec(),
      );
    }
    return ids.length;
  }
}

function toJob(fixedJson: string, meta: Record<string, string>, counts: Record<string, string>): SiteJob {
  const fixed = JSON.parse(fixedJson) as Pick<SiteJob, 'id' | 'keyId' | 'request' | 'createdAt' | 'deadline'>;
  const num = (value: string | undefined): number | undefined => (value === undefined ? undefined : Number(value));
  const expiresAt = num(meta.expiresAt);
  const leaseUntil = num(meta.leaseUntil);
  return {
    ...fixed,
    status: meta.status === 'done' ? 'done' : 'running',
    ...(meta.stopReason !== undefined ? { stopReason: meta.stopReason as SiteJobStopReason } : {}),
    ...(meta.error !== undefined ? { error: JSON.parse(meta.error) as { code: string; message: string } } : {}),
    updatedAt: Number(meta.updatedAt ?? fixed.createdAt),
    ...(expiresAt !== undefined ? { expiresAt } : {}),
    ...(meta.owner !== undefined ? { owner: meta.owner } : {}),
    ...(leaseUntil !== undefined ? { leaseUntil } : {}),
    counts: Object.fromEntries(
      COUNT_NAMES.map((name) => [name, Number(counts[name] ?? 0)]),
    ) as unknown as SiteJobCounts,
  };
}
