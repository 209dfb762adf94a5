/**
 * Credit charges, exactly as docs/interface.md 8.2 (search) and 8.3 (extract). Pure functions.
 */

export const CRAWL_CREDITS_PER_URL = 1;
export const CRAWL_CREDITS_PER_URL_STEALTH = 5;
/** The most one search can cost (6 to 10 pages delivered). */
export const MAX_SEARCH_CREDITS = 4;

/**
 * docs/interface.md 8.3: 1 credit per successfully extracted URL (5 with stealth), 0 for
 * a URL served from cache, 0 for a failure. `fetched` counts successful URLs that were
 * not cache hits; duplicates in one request were fetched once and count once.
 */
export function crawlCredits(fetched: number, stealth: boolean): number {
  return fetched * (stealth ? CRAWL_CREDITS_PER_URL_STEALTH : CRAWL_CREDITS_PER_URL);
}

export interface SearchChargeInput {
  fromCache: boolean;
  numberOfResults: number;
  /** Undefined when content was not requested. */
  contentDelivered?: number | undefined;
}

/**
 * docs/interface.md 8.2: cached 0; no results 0; plain search 1; with content 2 for 1-5
 * delivered, 4 for 6-10 delivered, and the plain rate (1) when every content fetch failed.
 */
export function searchCredits({ fromCache, numberOfResults, contentDelivered }: SearchChargeInput): number {
  if (fromCache || numberOfResults === 0) return 0;
  if (contentDelivered === undefined || contentDelivered === 0) return 1;
  return contentDelivered <= 5 ? 2 : MAX_SEARCH_CREDITS;
}
