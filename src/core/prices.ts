/**
 * The rates, said once (docs/interface.md 8.2 search, 8.3 extract): pricing.ts computes holds
 * and charges from them, and every text that tells a caller the price (tool descriptions,
 * schema descriptions) is written from them here.
 */
export const RATES = {
  extractPerUrl: 1,
  extractPerUrlStealth: 5,
  search: 1,
  /** With content: up to this many pages delivered cost the lower rate, more the higher. */
  searchContentLowerTierPages: 5,
  searchContentLower: 2,
  searchContentHigher: 4,
  /** A site map, whatever its size (docs/decisions.md, "Site maps and crawls"). */
  map: 1,
} as const;

const credits = (n: number): string => `${n} credit${n === 1 ? '' : 's'}`;

/** The extract price in a sentence, for tool descriptions. */
export const EXTRACT_PRICE_TEXT = `Cost: ${credits(RATES.extractPerUrl)} per successfully extracted URL (${RATES.extractPerUrlStealth} with stealth); failures and pages served from cache are free.`;

/** The stealth surcharge, for the field's description. */
export const STEALTH_PRICE_TEXT = `${credits(RATES.extractPerUrlStealth)} per successful URL instead of ${RATES.extractPerUrl}.`;

/** The search price in a sentence, for tool descriptions. */
export const SEARCH_PRICE_TEXT = `Cost: ${credits(RATES.search)}; with include_content ${credits(RATES.searchContentLower)} when 1-${RATES.searchContentLowerTierPages} pages were delivered, ${RATES.searchContentHigher} when ${RATES.searchContentLowerTierPages + 1}-10, ${RATES.search} when none; 0 for no results or a cached answer.`;

/** The map price in a sentence, for tool descriptions. */
export const MAP_PRICE_TEXT = `Cost: ${credits(RATES.map)} per call, however many URLs it lists.`;

/** A site crawl's price in a sentence: each page as an extraction. */
export const SITE_CRAWL_PRICE_TEXT = `Cost: each page as extract_urls, ${credits(RATES.extractPerUrl)} per page delivered (${RATES.extractPerUrlStealth} with stealth), failures, duplicates and cached pages free; the crawl stops (stop_reason "credits") when the key runs out.`;
