/**
 * Fusion through the service: engines that disagree (hand-written answers in each
 * engine's own wire format), checked against reciprocal-rank-fusion scores worked out by
 * hand; de-duplication across engines; domain filters enforced on the fused list.
 */
import { afterEach, describe, expect, it } from 'vitest';
import {
  startSearchHarness,
  searchRequest,
  type HarnessOptions,
  type SearchHarness,
} from '../helpers/search-harness.js';
import { testContext } from '../helpers/request-context.js';

let h: SearchHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});
async function harness(options: HarnessOptions = {}): Promise<SearchHarness> {
  h = await startSearchHarness(options);
  return h;
}

interface Item {
  url: string;
  title?: string;
  snippet?: string;
  date?: string;
}
const title = (url: string) => `Title of ${url}`;

/** A Brave Search API answer listing `items` in order. */
const braveBody = (items: Item[]) => ({
  type: 'search',
  web: {
    type: 'search',
    results: items.map((i) => ({
      title: i.title ?? title(i.url),
      url: i.url,
      description: i.snippet ?? '',
      ...(i.date ? { page_age: i.date } : {}),
    })),
  },
});
/** A SearXNG JSON answer. */
const searxBody = (items: Item[]) => ({
  query: 'q',
  number_of_results: items.length,
  results: items.map((i) => ({
    url: i.url,
    title: i.title ?? title(i.url),
    content: i.snippet ?? '',
    template: 'default.html',
    engine: 'x',
    publishedDate: i.date ?? null,
  })),
});
/** A Google Custom Search JSON answer. */
const googleBody = (items: Item[]) => ({
  kind: 'customsearch#search',
  items: items.map((i) => ({ title: i.title ?? title(i.url), link: i.url, snippet: i.snippet ?? '' })),
});

const A = 'https://a.example/one';
const B = 'https://b.example/two';
const C = 'https://c.example/three';
const D = 'https://d.example/four';

describe('fusion through the service', () => {
  it('orders disagreeing engines by weighted RRF (hand-computed scores)', async () => {
    const { service, fake } = await harness({ search: { weights: 'brave=1.2,searxng=1,google=0.5' } });
    fake.setScenario('brave', { body: braveBody([{ url: A }, { url: B }, { url: C }]) });
    fake.setScenario('searxng', { body: searxBody([{ url: B }, { url: D }, { url: A }]) });
    fake.setScenario('google', { body: googleBody([{ url: D }, { url: B }]) });
    // score = Σ w / (60 + rank):
    //   B = 1.2/62 + 1/61 + 0.5/62 = 0.019355 + 0.016393 + 0.008065 = 0.043813
    //   A = 1.2/61 + 1/63          = 0.019672 + 0.015873            = 0.035545
    //   D = 1/62 + 0.5/61          = 0.016129 + 0.008197            = 0.024326
    //   C = 1.2/63                 = 0.019048
    const response = await service.search(
      testContext(),
      searchRequest('q', { engines: ['google', 'brave', 'searxng'] }),
    );
    expect(response.results.map((r) => [r.url, r.position, r.engine, r.engines])).toEqual([
      // B's best rank is 1 (SearXNG); then rank 2 at Brave (weight 1.2) before Google (0.5).
      [B, 1, 'searxng', ['searxng', 'brave', 'google']],
      [A, 2, 'brave', ['brave', 'searxng']],
      // D: rank 1 at Google beats rank 2 at SearXNG for "the engine that ranked it best".
      [D, 3, 'google', ['google', 'searxng']],
      [C, 4, 'brave', ['brave']],
    ]);
    expect(response.engines).toEqual(['brave', 'searxng', 'google']);
  });

  it('lets weights decide between otherwise equal lists', async () => {
    const { service, fake } = await harness({ search: { weights: 'searxng=2' } });
    fake.setScenario('brave', { body: braveBody([{ url: A }, { url: B }]) });
    fake.setScenario('searxng', { body: searxBody([{ url: B }, { url: A }]) });
    // A = 1/61 + 2/62 = 0.048650; B = 1/62 + 2/61 = 0.048916 → B first.
    const response = await service.search(testContext(), searchRequest('q', { engines: ['brave', 'searxng'] }));
    expect(response.results.map((r) => r.url)).toEqual([B, A]);
  });

  it('merges the same page found by several engines into one result', async () => {
    const { service, fake } = await harness();
    fake.setScenario('brave', {
      body: braveBody([
        {
          url: 'http://a.example/guide/?utm_source=brave',
          title: 'Guide',
          snippet: 'A short one.',
          date: '2025-03-04T05:06:07',
        },
        { url: B },
      ]),
    });
    fake.setScenario('searxng', {
      body: searxBody([
        { url: 'https://A.example/guide#top', title: 'The complete guide', snippet: 'Short.' },
        { url: B },
      ]),
    });
    const response = await service.search(testContext(), searchRequest('q', { engines: ['brave', 'searxng'] }));
    expect(response.results).toHaveLength(2);
    const [first] = response.results;
    expect(first).toEqual({
      title: 'The complete guide', // the longest title
      url: 'https://a.example/guide#top', // https preferred
      snippet: 'A short one.', // the longest snippet
      position: 1,
      engine: 'brave',
      engines: ['brave', 'searxng'],
      published_at: '2025-03-04T05:06:07Z',
    });
    expect(Object.keys(first!)).toEqual(['title', 'url', 'snippet', 'position', 'engine', 'engines', 'published_at']);
    expect(Object.keys(response.results[1]!)).toEqual(['title', 'url', 'snippet', 'position', 'engine', 'engines']);
  });

  it('enforces include_domains and exclude_domains on the fused list, and asks the engines for more', async () => {
    const { service, fake } = await harness();
    // Engines that ignore the site: operators and answer off-domain results anyway.
    fake.setScenario('brave', {
      body: braveBody([
        { url: 'https://evil.example/x' },
        { url: 'https://docs.a.example/1' },
        { url: 'https://a.example/2' },
        { url: 'https://nota.example/3' },
      ]),
    });
    fake.setScenario('searxng', {
      body: searxBody([
        { url: 'https://skip.a.example/4' },
        { url: 'https://b.example/5' },
        { url: 'https://a.example/6' },
      ]),
    });
    const response = await service.search(
      testContext(),
      searchRequest('q', {
        engines: ['brave', 'searxng'],
        max_results: 5,
        include_domains: ['a.example', 'b.example'],
        exclude_domains: ['skip.a.example'],
      }),
    );
    const hosts = response.results.map((r) => new URL(r.url).host);
    expect(hosts.sort()).toEqual(['a.example', 'a.example', 'b.example', 'docs.a.example']);
    expect(response.results.map((r) => r.position)).toEqual([1, 2, 3, 4]);
    const brave = new URL(fake.requests('brave')[0]!.path, fake.baseUrl).searchParams;
    expect(brave.get('q')).toBe('q (site:a.example OR site:b.example) -site:skip.a.example');
    expect(brave.get('count')).toBe('15'); // max_results + headroom for the filter
  });

  it('cuts the fused list to max_results', async () => {
    const { service, fake } = await harness();
    fake.setScenario('brave', { body: braveBody([1, 2, 3, 4, 5].map((n) => ({ url: `https://a.example/${n}` }))) });
    fake.setScenario('searxng', { body: searxBody([6, 7, 8].map((n) => ({ url: `https://a.example/${n}` }))) });
    const response = await service.search(
      testContext(),
      searchRequest('q', { engines: ['brave', 'searxng'], max_results: 3 }),
    );
    expect(response.results.map((r) => r.url)).toEqual([
      'https://a.example/1',
      'https://a.example/6',
      'https://a.example/2',
    ]);
    expect(new URL(fake.requests('brave')[0]!.path, fake.baseUrl).searchParams.get('count')).toBe('3');
  });
});
