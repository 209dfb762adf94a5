import { describe, expect, it } from 'vitest';
import { crawlCredits, searchCredits } from '../../src/core/pricing.js';

describe('crawl credits (docs/interface.md 8.3)', () => {
  it.each([
    [0, false, 0],
    [1, false, 1],
    [7, false, 7],
    [1, true, 5],
    [3, true, 15],
    [0, true, 0],
  ])('%i fresh successes, stealth %s -> %i', (fetched, stealth, credits) => {
    expect(crawlCredits(fetched, stealth)).toBe(credits);
  });
});

describe('search credits (docs/interface.md 8.2)', () => {
  it.each([
    [{ fromCache: false, numberOfResults: 10 }, 1],
    [{ fromCache: true, numberOfResults: 10 }, 0],
    [{ fromCache: false, numberOfResults: 0 }, 0],
    [{ fromCache: false, numberOfResults: 10, contentDelivered: 0 }, 1],
    [{ fromCache: false, numberOfResults: 10, contentDelivered: 1 }, 2],
    [{ fromCache: false, numberOfResults: 10, contentDelivered: 5 }, 2],
    [{ fromCache: false, numberOfResults: 10, contentDelivered: 6 }, 4],
    [{ fromCache: false, numberOfResults: 10, contentDelivered: 10 }, 4],
    [{ fromCache: true, numberOfResults: 10, contentDelivered: 10 }, 0],
    [{ fromCache: false, numberOfResults: 0, contentDelivered: 0 }, 0],
  ])('%j -> %i', (input, credits) => {
    expect(searchCredits(input)).toBe(credits);
  });
});
