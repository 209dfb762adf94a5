import { describe, expect, it } from 'vitest';
import { extractCredits, maxExtractCredits, maxSearchCredits, searchCredits } from '../../src/core/pricing.js';
import { EXTRACT_PRICE_TEXT, RATES, SEARCH_PRICE_TEXT, STEALTH_PRICE_TEXT } from '../../src/core/prices.js';

describe('crawl credits (docs/interface.md 8.3)', () => {
  it.each([
    [0, false, 0],
    [1, false, 1],
    [7, false, 7],
    [1, true, 5],
    [3, true, 15],
    [0, true, 0],
  ])('%i fresh successes, stealth %s -> %i', (extracted, stealth, credits) => {
    expect(extractCredits({ extracted, stealth })).toBe(credits);
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

describe('the largest possible cost (admission)', () => {
  it('bounds what a request can cost', () => {
    expect(maxExtractCredits({ urls: ['a', 'b', 'a'], stealth: false })).toBe(2);
    expect(maxExtractCredits({ urls: ['a', 'b'], stealth: true })).toBe(10);
    expect(maxSearchCredits({ include_content: false })).toBe(1);
    expect(maxSearchCredits({ include_content: true })).toBe(4);
  });

  it('is never below the charge of anything the request can deliver', () => {
    for (const stealth of [false, true]) {
      const urls = ['https://a.example/', 'https://b.example/', 'https://a.example/', 'https://a.example/#part'];
      const max = maxExtractCredits({ urls, stealth });
      // At most the distinct URLs are extracted fresh (fragments merge them further).
      for (let extracted = 0; extracted <= 3; extracted++)
        expect(extractCredits({ extracted, stealth })).toBeLessThanOrEqual(max);
    }
    for (const include_content of [false, true]) {
      const max = maxSearchCredits({ include_content });
      for (let delivered = 0; delivered <= 10; delivered++) {
        for (const fromCache of [false, true]) {
          const usage = { fromCache, numberOfResults: 10, ...(include_content ? { contentDelivered: delivered } : {}) };
          expect(searchCredits(usage)).toBeLessThanOrEqual(max);
        }
      }
    }
  });
});

describe('the prices said to callers (core/prices.ts: written from the rates that charge)', () => {
  it('tell what the charges are', () => {
    expect(EXTRACT_PRICE_TEXT).toBe(
      'Cost: 1 credit per successfully extracted URL (5 with stealth); failures and pages served from cache are free.',
    );
    expect(STEALTH_PRICE_TEXT).toBe('5 credits per successful URL instead of 1.');
    expect(SEARCH_PRICE_TEXT).toBe(
      'Cost: 1 credit; with include_content 2 credits when 1-5 pages were delivered, 4 when 6-10, 1 when none; 0 for no results or a cached answer.',
    );
    // The texts and the charges read the same rates.
    expect(extractCredits({ extracted: 1, stealth: false })).toBe(RATES.extractPerUrl);
    expect(extractCredits({ extracted: 1, stealth: true })).toBe(RATES.extractPerUrlStealth);
  });
});
