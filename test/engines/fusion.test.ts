import { describe, expect, it } from 'vitest';
import { fuseResults } from '../../src/engines/fusion.js';
import type { EngineResultList } from '../../src/engines/fusion.js';
import type { EngineResult } from '../../src/engines/types.js';

function r(url: string, title = '', snippet = '', published_at?: string): EngineResult {
  return published_at ? { title, url, snippet, published_at } : { title, url, snippet };
}

const A = 'https://a.example/';
const B = 'https://b.example/';
const C = 'https://c.example/';
const D = 'https://d.example/';

describe('fuseResults: weighted reciprocal rank fusion', () => {
  const lists: EngineResultList[] = [
    { engine: 'duckduckgo', weight: 1, results: [r(A, 'A'), r(B, 'B'), r(C, 'C')] },
    { engine: 'wikipedia', weight: 0.5, results: [r(C, 'C'), r(A, 'A')] },
    { engine: 'brave', weight: 1, results: [r(B, 'B'), r(D, 'D')] },
  ];
  const fused = fuseResults(lists, { maxResults: 10 });

  it('scores each URL as the sum of w/(60+rank) over the engines that returned it', () => {
    const score = Object.fromEntries(fused.map((f) => [f.url, f.score]));
    // A: duckduckgo rank 1, wikipedia rank 2
    expect(score[A]).toBeCloseTo(1 / (60 + 1) + 0.5 / (60 + 2), 15); // 0.024457958…
    // B: duckduckgo rank 2, brave rank 1
    expect(score[B]).toBeCloseTo(1 / (60 + 2) + 1 / (60 + 1), 15); // 0.032522474…
    // C: duckduckgo rank 3, wikipedia rank 1
    expect(score[C]).toBeCloseTo(1 / (60 + 3) + 0.5 / (60 + 1), 15); // 0.024069737…
    // D: brave rank 2
    expect(score[D]).toBeCloseTo(1 / (60 + 2), 15); // 0.016129032…
  });

  it('sorts by score and numbers positions 1..n', () => {
    // 0.03252 (B) > 0.02446 (A) > 0.02407 (C) > 0.01613 (D)
    expect(fused.map((f) => [f.position, f.url])).toEqual([
      [1, B],
      [2, A],
      [3, C],
      [4, D],
    ]);
  });

  it('names the engine that ranked a result best, and all engines best first', () => {
    const by = Object.fromEntries(fused.map((f) => [f.url, f]));
    // B: brave rank 1 beats duckduckgo rank 2
    expect(by[B]?.engine).toBe('brave');
    expect(by[B]?.engines).toEqual(['brave', 'duckduckgo']);
    // C: wikipedia rank 1 beats duckduckgo rank 3, even with the lower weight
    expect(by[C]?.engine).toBe('wikipedia');
    expect(by[C]?.engines).toEqual(['wikipedia', 'duckduckgo']);
    expect(by[A]?.engines).toEqual(['duckduckgo', 'wikipedia']);
    expect(by[D]?.engines).toEqual(['brave']);
  });

  it('uses k from the options', () => {
    const [top] = fuseResults([{ engine: 'brave', weight: 2, results: [r(A)] }], { k: 10, maxResults: 5 });
    expect(top?.score).toBeCloseTo(2 / (10 + 1), 15);
  });
});

describe('fuseResults: ranks, duplicates and dropped URLs', () => {
  it('keeps the first rank of a duplicate within one list and does not renumber', () => {
    const fused = fuseResults(
      [
        {
          engine: 'duckduckgo',
          weight: 1,
          results: [r('https://a.example/page/'), r('https://a.example/page?utm_source=x'), r(B)],
        },
      ],
      { maxResults: 10 },
    );
    expect(fused).toHaveLength(2);
    expect(fused[0]?.url).toBe('https://a.example/page/');
    expect(fused[0]?.score).toBeCloseTo(1 / (60 + 1), 15); // counted once, rank 1
    expect(fused[1]?.score).toBeCloseTo(1 / (60 + 3), 15); // B keeps its rank 3
  });

  it('drops non-http results without renumbering the others', () => {
    const fused = fuseResults(
      [
        {
          engine: 'mojeek',
          weight: 1,
          results: [r('javascript:void(0)'), r('ftp://files.example/x'), r(A), r('not a url')],
        },
      ],
      { maxResults: 10 },
    );
    expect(fused.map((f) => f.url)).toEqual([A]);
    expect(fused[0]?.score).toBeCloseTo(1 / (60 + 3), 15);
  });

  it('merges URLs that differ only by scheme, tracking params, fragment, host case or trailing slash', () => {
    const fused = fuseResults(
      [
        { engine: 'duckduckgo', weight: 1, results: [r('http://Example.com/doc/?b=2&a=1#x')] },
        { engine: 'brave', weight: 1, results: [r(D), r('https://example.com/doc?a=1&b=2&utm_campaign=y')] },
      ],
      { maxResults: 10 },
    );
    expect(fused).toHaveLength(2);
    const doc = fused.find((f) => f.engines.length === 2);
    expect(doc?.score).toBeCloseTo(1 / 61 + 1 / 62, 15);
  });

  it('treats a non-positive or non-finite weight as 0', () => {
    const fused = fuseResults(
      [
        { engine: 'google', weight: -1, results: [r(A)] },
        { engine: 'searxng', weight: Number.NaN, results: [r(B)] },
        { engine: 'brave', weight: 1, results: [r(C)] },
      ],
      { maxResults: 10 },
    );
    expect(fused.map((f) => [f.url, f.score])).toEqual([
      [C, 1 / 61],
      [A, 0],
      [B, 0],
    ]);
  });
});

describe('fuseResults: tie-breaking', () => {
  it('equal scores → the better best rank first', () => {
    // k = 0 keeps the arithmetic exact: X = 1/(0+2) = 0.5, Y = 0.5/(0+1) = 0.5.
    const fused = fuseResults(
      [
        { engine: 'duckduckgo', weight: 1, results: [r(D), r('https://x.example/')] },
        { engine: 'wikipedia', weight: 0.5, results: [r('https://y.example/')] },
      ],
      { k: 0, maxResults: 10 },
    );
    expect(fused.map((f) => [f.url, f.score])).toEqual([
      [D, 1],
      ['https://y.example/', 0.5],
      ['https://x.example/', 0.5],
    ]);
  });

  it('equal scores and equal best rank → engine (list) order', () => {
    const lists = (first: EngineResultList, second: EngineResultList) =>
      fuseResults([first, second], { maxResults: 10 }).map((f) => f.url);
    const ddg: EngineResultList = { engine: 'duckduckgo', weight: 1, results: [r(A)] };
    const brave: EngineResultList = { engine: 'brave', weight: 1, results: [r(B)] };
    expect(lists(ddg, brave)).toEqual([A, B]);
    expect(lists(brave, ddg)).toEqual([B, A]);
  });

  it('best engine: lowest rank, then higher weight, then list order', () => {
    const sameRank = fuseResults(
      [
        { engine: 'duckduckgo', weight: 0.5, results: [r(A)] },
        { engine: 'brave', weight: 1, results: [r(A)] },
      ],
      { maxResults: 10 },
    );
    expect(sameRank[0]?.engine).toBe('brave');
    expect(sameRank[0]?.engines).toEqual(['brave', 'duckduckgo']);
    expect(sameRank[0]?.score).toBeCloseTo(0.5 / 61 + 1 / 61, 15);

    const sameWeight = fuseResults(
      [
        { engine: 'mojeek', weight: 1, results: [r(A)] },
        { engine: 'searxng', weight: 1, results: [r(A)] },
      ],
      { maxResults: 10 },
    );
    expect(sameWeight[0]?.engines).toEqual(['mojeek', 'searxng']);
  });
});

describe('fuseResults: merged fields', () => {
  it('prefers the https URL when both schemes were seen', () => {
    const fused = fuseResults(
      [
        { engine: 'duckduckgo', weight: 1, results: [r('http://site.example/a')] },
        { engine: 'brave', weight: 1, results: [r(B), r(C), r('https://site.example/a#frag')] },
      ],
      { maxResults: 10 },
    );
    const merged = fused.find((f) => f.engines.length === 2);
    expect(merged?.url).toBe('https://site.example/a#frag');
    expect(merged?.engine).toBe('duckduckgo');
  });

  it('keeps the URL of the best-ranked occurrence otherwise', () => {
    const fused = fuseResults(
      [
        { engine: 'duckduckgo', weight: 1, results: [r(B), r('http://site.example/a/')] },
        { engine: 'brave', weight: 1, results: [r('http://site.example/a?utm_source=brave')] },
      ],
      { maxResults: 10 },
    );
    expect(fused.find((f) => f.engines.length === 2)?.url).toBe('http://site.example/a?utm_source=brave');
  });

  it('takes the longest non-empty title and snippet, trimmed and collapsed', () => {
    const [top] = fuseResults(
      [
        { engine: 'duckduckgo', weight: 1, results: [r(A, 'Short', '  a   much   longer\n snippet  ')] },
        { engine: 'brave', weight: 1, results: [r(A, '  A longer   title ', 'short')] },
        { engine: 'google', weight: 1, results: [r(A, '', '')] },
      ],
      { maxResults: 10 },
    );
    expect(top?.title).toBe('A longer title');
    expect(top?.snippet).toBe('a much longer snippet');
  });

  it('takes the first published_at in best-first order, and omits it when none', () => {
    const fused = fuseResults(
      [
        { engine: 'duckduckgo', weight: 1, results: [r(B), r(A, 't', 's')] },
        { engine: 'brave', weight: 1, results: [r(A, 't', 's', '2024-01-01T00:00:00.000Z')] },
        { engine: 'google', weight: 1, results: [r(C), r(D), r(A, 't', 's', '2020-05-05T00:00:00.000Z')] },
      ],
      { maxResults: 10 },
    );
    expect(fused.find((f) => f.url === A)?.published_at).toBe('2024-01-01T00:00:00.000Z');
    expect(fused.find((f) => f.url === B)).not.toHaveProperty('published_at');
  });
});

describe('fuseResults: domain filters and limits', () => {
  const lists: EngineResultList[] = [
    {
      engine: 'duckduckgo',
      weight: 1,
      results: [
        r('https://docs.example.com/a'),
        r('https://notexample.com/b'),
        r('https://example.com/c'),
        r('https://spam.example.com/d'),
        r('https://other.org/e'),
        r('https://xn--bcher-kva.de/f'),
      ],
    },
  ];

  it('include keeps the domain and its subdomains only', () => {
    expect(fuseResults(lists, { maxResults: 10, includeDomains: ['example.com'] }).map((f) => f.url)).toEqual([
      'https://docs.example.com/a',
      'https://example.com/c',
      'https://spam.example.com/d',
    ]);
  });

  it('exclude drops the domain and its subdomains, and wins over include', () => {
    expect(
      fuseResults(lists, { maxResults: 10, excludeDomains: ['spam.example.com', 'other.org'] }).map((f) => f.url),
    ).toEqual([
      'https://docs.example.com/a',
      'https://notexample.com/b',
      'https://example.com/c',
      'https://xn--bcher-kva.de/f',
    ]);
    expect(
      fuseResults(lists, { maxResults: 10, includeDomains: ['example.com'], excludeDomains: ['spam.example.com'] }).map(
        (f) => f.url,
      ),
    ).toEqual(['https://docs.example.com/a', 'https://example.com/c']);
  });

  it('filters are IDNA-aware', () => {
    expect(fuseResults(lists, { maxResults: 10, includeDomains: ['BÜCHER.de'] }).map((f) => f.url)).toEqual([
      'https://xn--bcher-kva.de/f',
    ]);
  });

  it('cuts to maxResults after filtering and renumbers positions', () => {
    const fused = fuseResults(lists, { maxResults: 2, includeDomains: ['example.com'] });
    expect(fused.map((f) => [f.position, f.url])).toEqual([
      [1, 'https://docs.example.com/a'],
      [2, 'https://example.com/c'],
    ]);
    expect(fuseResults(lists, { maxResults: 0 })).toEqual([]);
    expect(fuseResults([], { maxResults: 5 })).toEqual([]);
  });

  it('returns plain objects with exactly the documented fields', () => {
    const [top] = fuseResults([{ engine: 'brave', weight: 1, results: [r(A, 'T', 'S', '2024-02-02T00:00:00.000Z')] }], {
      maxResults: 1,
    });
    expect(top).toEqual({
      title: 'T',
      url: A,
      snippet: 'S',
      position: 1,
      engine: 'brave',
      engines: ['brave'],
      published_at: '2024-02-02T00:00:00.000Z',
      score: 1 / 61,
    });
  });
});
