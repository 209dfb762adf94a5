/**
 * include_content through the real page extractor (guarded client, robots.txt, converters)
 * against the fixture web site: which results get `content`, which `content_error`, the
 * one shared deadline, progress, content_requested / content_delivered and every billing
 * tier of docs/interface.md 8.2.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { SearchResponse, SearchResult } from '../../src/core/schemas.js';
import { startFixtureSite, type FixtureSite } from '../helpers/fixture-site.js';
import {
  startSearchHarness,
  searchRequest,
  type HarnessOptions,
  type SearchHarness,
} from '../helpers/search-harness.js';
import { testContext } from '../helpers/request-context.js';

let site: FixtureSite;
beforeAll(async () => {
  site = await startFixtureSite();
});
afterAll(async () => {
  await site.close();
});

let h: SearchHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

/** A harness whose SearXNG answers these fixture-site paths, in this order. */
async function withResults(paths: string[], options: HarnessOptions = {}): Promise<SearchHarness> {
  h = await startSearchHarness(options);
  h.fake.setScenario('searxng', {
    body: {
      query: 'q',
      results: paths.map((p, i) => ({
        url: `${site.origin}${p}`,
        title: `Page ${i + 1}`,
        content: `Snippet ${i + 1}`,
        template: 'default.html',
      })),
    },
  });
  return h;
}

const search = (
  harness: SearchHarness,
  extra: Record<string, unknown> = {},
  onProgress?: (p: { done: number; total: number; url: string }) => void,
) =>
  harness.service.search(
    testContext(),
    searchRequest('q', { engines: ['searxng'], include_content: true, ...extra }),
    onProgress ? { onProgress } : {},
  );

/** What each result carries: 'content' or its content_error, or '-' for neither. */
function carried(response: SearchResponse): string[] {
  return response.results.map((r) => {
    expect('content' in r && 'content_error' in r, `${r.url} carries both keys`).toBe(false);
    if ('content' in r) {
      expect(typeof r.content).toBe('string');
      expect(r.content!.trim()).not.toBe('');
      return 'content';
    }
    return 'content_error' in r ? (r.content_error as string) : '-';
  });
}

const DELIVERABLE = [
  '/html',
  '/text',
  '/markdown',
  '/csv',
  '/json',
  '/ld-json',
  '/rss',
  '/atom',
  '/xml',
  '/xhtml',
  '/sitemap.xml',
];

describe('include_content', () => {
  it('attaches content or the reason it failed, within one deadline', async () => {
    const harness = await withResults(
      [
        '/html',
        '/private/page',
        '/challenge',
        '/pdf',
        '/slow-drip',
        '/status/404',
        '/status/403',
        '/doc.pdf',
        '/text',
        '/hang',
      ],
      // Long enough for a first conversion on a loaded machine; /slow-drip and /hang never end.
      { search: { contentTimeoutMs: 2_000 } },
    );
    const refusedBefore = site.hits('/private/page') + site.hits('/doc.pdf');
    const t0 = performance.now();
    const response = await search(harness, { content_results: 10 });
    const elapsed = performance.now() - t0;
    expect(carried(response)).toEqual([
      'content', // /html
      'robots_disallowed', // /private/page
      'blocked', // /challenge: an anti-bot page served with 200
      'unsupported_content_type', // /pdf (application/pdf)
      'timeout', // /slow-drip: still dripping at the deadline
      'http_error', // /status/404
      'blocked', // /status/403
      'unsupported_content_type', // /doc.pdf, refused on its extension
      'content', // /text
      'timeout', // /hang
    ]);
    expect(elapsed).toBeLessThan(2_000 + 700);
    // Refused before any request: robots.txt and the file extension.
    expect(site.hits('/private/page') + site.hits('/doc.pdf')).toBe(refusedBefore);
    expect(response.results[0]!.content).toContain('#'); // Markdown of the article
    // A failed fetch keeps the normal fields.
    expect(response.results[1]).toMatchObject({
      title: 'Page 2',
      url: `${site.origin}/private/page`,
      snippet: 'Snippet 2',
      position: 2,
    });
    expect(Object.keys(response.results[1]!)).toEqual([
      'title',
      'url',
      'snippet',
      'position',
      'engine',
      'engines',
      'content_error',
    ]);
    expect(Object.keys(response.results[0]!)).toEqual([
      'title',
      'url',
      'snippet',
      'position',
      'engine',
      'engines',
      'content',
    ]);
    expect(response.metadata).toMatchObject({
      content_requested: 10,
      content_delivered: 2,
      credits_used: 2,
      status: 'success',
    });
    // Key order of the metadata object (it is serialised byte for byte).
    expect(Object.keys(response.metadata)).toEqual([
      'number_of_results',
      'credits_used',
      'from_cache',
      'status',
      'response_time',
      'timestamp',
      'content_requested',
      'content_delivered',
    ]);
  });

  it('reports an empty page as empty_content', async () => {
    const harness = await withResults(['/empty', '/html']);
    const response = await search(harness, { content_results: 2 });
    expect(carried(response)).toEqual(['empty_content', 'content']);
  });

  it('fetches only the top content_results results; the rest carry neither key', async () => {
    const harness = await withResults(['/html?1', '/text?2', '/html?3', '/text?4']);
    const response = await search(harness, { content_results: 2 });
    expect(carried(response)).toEqual(['content', 'content', '-', '-']);
    expect(response.metadata).toMatchObject({ content_requested: 2, content_delivered: 2 });
    expect(site.hits('/html?3')).toBe(0);
    for (const r of response.results.slice(2)) expect(Object.keys(r)).not.toContain('content_error');
  });

  it('requests content for at most as many results as there are', async () => {
    const harness = await withResults(['/html?a']);
    const response = await search(harness, { content_results: 5 });
    expect(response.metadata).toMatchObject({ content_requested: 1, content_delivered: 1, credits_used: 2 });
  });

  it('counts 0 requested and 0 credits when there are no results', async () => {
    const harness = await withResults([]);
    const response = await search(harness);
    expect(response.metadata).toMatchObject({
      status: 'no_results',
      credits_used: 0,
      content_requested: 0,
      content_delivered: 0,
    });
  });

  it('a plain search carries neither key and no content counts', async () => {
    const harness = await withResults(['/html?plain', '/text?plain']);
    const response = await harness.service.search(testContext(), searchRequest('q', { engines: ['searxng'] }));
    expect(carried(response)).toEqual(['-', '-']);
    expect(JSON.stringify(response)).not.toMatch(/content_(requested|delivered|error)|"content"/);
    expect(site.hits('/text?plain')).toBe(0);
  });

  it('reports progress as each page finishes', async () => {
    const harness = await withResults(['/html?p', '/status/500?p', '/delay/150', '/text?p', '/html?not-fetched']);
    const progress: { done: number; total: number; url: string }[] = [];
    await search(harness, { content_results: 4 }, (p) => progress.push(p));
    expect(progress.map((p) => [p.done, p.total])).toEqual([
      [1, 4],
      [2, 4],
      [3, 4],
      [4, 4],
    ]);
    expect(new Set(progress.map((p) => new URL(p.url).pathname + new URL(p.url).search))).toEqual(
      new Set(['/html?p', '/status/500?p', '/delay/150', '/text?p']),
    );
    expect(progress[3]!.url).toBe(`${site.origin}/delay/150`); // the slow one finishes last
  });

  it('reports timed-out pages in the progress too, and a throwing callback does no harm', async () => {
    const harness = await withResults(['/hang?x', '/html?x'], { search: { contentTimeoutMs: 300 } });
    const progress: number[] = [];
    const response = await search(harness, { content_results: 2 }, (p) => {
      progress.push(p.done);
      throw new Error('callback bug');
    });
    expect(progress).toEqual([1, 2]);
    expect(carried(response)).toEqual(['timeout', 'content']);
  });
});

describe('billing tiers (docs/interface.md 8.2)', () => {
  const cases: [string, string[], number, number][] = [
    ['0 delivered → 1 credit (the plain rate)', ['/private/page', '/pdf', '/status/404'], 0, 1],
    ['1 delivered → 2 credits', ['/html', '/pdf'], 1, 2],
    ['5 delivered → 2 credits', DELIVERABLE.slice(0, 5), 5, 2],
    ['6 delivered → 4 credits', DELIVERABLE.slice(0, 6), 6, 4],
    ['10 delivered → 4 credits', DELIVERABLE.slice(0, 10), 10, 4],
  ];
  it.each(cases)('%s', async (_name, paths, delivered, credits) => {
    const harness = await withResults(paths);
    const response = await search(harness, { content_results: 10 });
    expect(response.metadata.content_requested).toBe(paths.length);
    expect(response.metadata.content_delivered).toBe(delivered);
    expect(carried(response).filter((c) => c === 'content')).toHaveLength(delivered);
    expect(response.metadata.credits_used).toBe(credits);
  });

  it('a plain search costs 1 credit', async () => {
    const harness = await withResults(['/html']);
    const response = await harness.service.search(testContext(), searchRequest('q', { engines: ['searxng'] }));
    expect(response.metadata.credits_used).toBe(1);
  });
});

// Type-level check: the result type allows exactly the documented optional keys.
const _shape: SearchResult = { title: '', url: '', snippet: '', position: 1, engine: 'x', engines: ['x'] };
void _shape;
