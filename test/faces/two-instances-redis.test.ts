/**
 * Two real server processes sharing one real Redis, as an operator runs them behind a
 * load balancer: concurrent charges on one key through both add up exactly (credits_used
 * = balance change = usage records), a page or a search cached by one is free on the
 * other, a rate limit holds across both, and a key spent through both gets 402 on both.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { FakeEngines } from '../helpers/fake-engines.js';
import { spawnedServerEnv, startFakeEngines } from '../helpers/fake-engines.js';
import { startFixtureSite } from '../helpers/fixture-site.js';
import { redisSuite } from '../helpers/redis-server.js';
import { runCli, spawnServe } from '../helpers/spawn-cli.js';

type Site = Awaited<ReturnType<typeof startFixtureSite>>;

interface Instance {
  url: string;
  stop(): Promise<void>;
}

redisSuite('two instances on one Redis', (redis) => {
  let site: Site;
  let fake: FakeEngines;
  let env: Record<string, string>;
  const instances: Instance[] = [];

  async function start(): Promise<Instance> {
    const server = await spawnServe([], env);
    return { url: server.url, stop: async () => void (await server.stop()) };
  }

  async function cli(args: string[]): Promise<string> {
    const out = await runCli(args, env);
    if (out.code !== 0) throw new Error(`${args.join(' ')}: exit ${out.code}: ${out.stderr}`);
    return out.stdout;
  }

  async function createKey(name: string, credits?: number): Promise<{ id: string; key: string }> {
    return JSON.parse(
      await cli([
        'keys',
        'create',
        '--name',
        name,
        '--json',
        ...(credits === undefined ? [] : ['--credits', String(credits)]),
      ]),
    );
  }

  async function balanceOf(id: string): Promise<number | null> {
    const keys = JSON.parse(await cli(['keys', 'list', '--json'])) as { id: string; balance: number | null }[];
    return keys.find((k) => k.id === id)?.balance ?? null;
  }

  async function post(instance: Instance, path: string, key: string, body: unknown) {
    const res = await fetch(`${instance.url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
      body: JSON.stringify(body),
    });
    return { status: res.status, retryAfter: res.headers.get('retry-after'), json: (await res.json()) as any };
  }

  beforeAll(async () => {
    [site, fake] = await Promise.all([startFixtureSite(), startFakeEngines()]);
    env = {
      ...spawnedServerEnv(fake),
      WEBSEARCH_STORE: 'redis',
      REDIS_URL: redis().url,
      WEBSEARCH_REDIS_PREFIX: `two-instances-${process.pid}:`,
      // Caches on: sharing them is part of what is tested.
      WEBSEARCH_CACHE_TTL_MS: '600000',
      WEBSEARCH_SEARCH_CACHE_TTL_MS: '600000',
      WEBSEARCH_ENGINES: 'searxng',
      WEBSEARCH_RATE_LIMIT_REQUESTS: '12',
      WEBSEARCH_RATE_LIMIT_WINDOW_MS: '60000',
    };
    instances.push(...(await Promise.all([start(), start()])));
  });
  afterAll(async () => {
    await Promise.all(instances.map((i) => i.stop()));
    await Promise.all([site?.close(), fake?.close()]);
  });

  it('adds up concurrent charges on one key made through both instances', async () => {
    const { id, key } = await createKey('shared', 100);
    const calls = Array.from({ length: 10 }, (_, i) =>
      post(instances[i % 2] as Instance, '/api/crawl', key, {
        urls: [`${site.origin}/text?shared-${i}`, `${site.origin}/html?shared-${i}`],
      }),
    );
    const answers = await Promise.all(calls);
    for (const a of answers) expect(a.status).toBe(200);
    const charged = answers.reduce((sum, a) => sum + (a.json.metadata.credits_used as number), 0);
    expect(charged).toBe(20);
    expect(await balanceOf(id)).toBe(100 - charged);
    const usage = JSON.parse(await cli(['keys', 'usage', '--key', id, '--json'])) as { credits: number }[];
    expect(usage).toHaveLength(10);
    expect(usage.reduce((sum, u) => sum + u.credits, 0)).toBe(charged);
  });

  it('serves a page and a search cached by one instance for free on the other', async () => {
    const { key } = await createKey('cache', 50);
    const [a, b] = instances as [Instance, Instance];
    const page = { urls: [`${site.origin}/html?cached-across`] };
    expect((await post(a, '/api/crawl', key, page)).json.metadata).toMatchObject({ credits_used: 1, cached_free: 0 });
    const hit = await post(b, '/api/crawl', key, page);
    expect(hit.json.metadata).toMatchObject({ credits_used: 0, cached_free: 1 });

    const search = { q: 'shared cache across instances' };
    expect((await post(a, '/api/search', key, search)).json.metadata).toMatchObject({
      from_cache: false,
      credits_used: 1,
    });
    expect((await post(b, '/api/search', key, search)).json.metadata).toMatchObject({
      from_cache: true,
      credits_used: 0,
    });
  });

  it('holds a rate limit across both instances', async () => {
    const { key } = await createKey('busy');
    const statuses: number[] = [];
    const answers: { status: number; retryAfter: string | null }[] = [];
    for (let i = 0; i < 16; i++) {
      const a = await post(instances[i % 2] as Instance, '/api/crawl', key, { urls: ['not a url'] });
      statuses.push(a.status);
      answers.push(a);
    }
    expect(statuses.filter((s) => s === 200)).toHaveLength(12);
    expect(statuses.filter((s) => s === 429)).toHaveLength(4);
    expect(Number(answers.find((a) => a.status === 429)?.retryAfter)).toBeGreaterThan(0);
  });

  it('spends a key to 402 through both instances', async () => {
    const { id, key } = await createKey('spend', 3);
    let i = 0;
    const refusedBy = new Set<number>();
    while (refusedBy.size < 2 && i < 20) {
      const which = i % 2;
      const a = await post(instances[which] as Instance, '/api/crawl', key, {
        urls: [`${site.origin}/text?spend-${i}`],
      });
      if (a.status === 402) {
        expect(a.json.error.code).toBe('insufficient_credits');
        refusedBy.add(which);
      } else expect(a.status).toBe(200);
      i += 1;
    }
    expect(refusedBy.size).toBe(2);
    expect(await balanceOf(id)).toBe(0);
  });
});
