/**
 * What requests cost, exactly as docs/interface.md 8.2 (search) and 8.3 (extract): the
 * largest possible cost of a request, held at admission, and the cost of what was
 * delivered, charged after it. Both are priced here from the same rates, so a hold always
 * covers its charge; the services only report what they did. Pure functions.
 */
import { AppError } from './errors.js';
import { RATES } from './prices.js';
import type { ExtractRequest, SearchRequest } from './schemas.js';

/**
 * The largest balance a key may hold: past 2^53 - 1 a JSON number (and a JavaScript one)
 * no longer counts single credits, so a top-up that would pass it is refused.
 */
export const MAX_BALANCE = Number.MAX_SAFE_INTEGER;

/** The refusal of a top-up past MAX_BALANCE, the same from every store. */
export function balanceTooLarge(keyId: string, balance: number, credits: number): AppError {
  const message = `a top-up of ${credits} would take key ${keyId} (balance ${balance}) past ${MAX_BALANCE} credits, the most a balance can hold exactly`;
  return new AppError('invalid_request', `${message}.`, { details: [{ path: 'credits', message }] });
}

/** What an extraction did, as far as its price goes. */
export interface ExtractUsage {
  /**
   * Distinct URLs extracted successfully and not served from cache: duplicates in one
   * request were fetched once and count once; cache hits and failures are free.
   */
  extracted: number;
  stealth: boolean;
}

/** What a search did, as far as its price goes. */
export interface SearchUsage {
  fromCache: boolean;
  numberOfResults: number;
  /** Pages whose content was delivered; undefined when content was not requested. */
  contentDelivered?: number | undefined;
}

/** docs/interface.md 8.3: 1 credit per URL extracted (5 with stealth), 0 from cache, 0 for a failure. */
export function extractCredits({ extracted, stealth }: ExtractUsage): number {
  return extracted * (stealth ? RATES.extractPerUrlStealth : RATES.extractPerUrl);
}

/**
 * docs/interface.md 8.2: cached 0; no results 0; plain search 1; with content 2 for 1-5
 * delivered, 4 for 6-10 delivered, and the plain rate (1) when every content fetch failed.
 */
export function searchCredits({ fromCache, numberOfResults, contentDelivered }: SearchUsage): number {
  if (fromCache || numberOfResults === 0) return 0;
  if (contentDelivered === undefined || contentDelivered === 0) return RATES.search;
  return contentDelivered <= RATES.searchContentLowerTierPages ? RATES.searchContentLower : RATES.searchContentHigher;
}

/**
 * Admission: the most an extraction can cost, every distinct URL extracted fresh. URLs are told
 * apart as written (the extract service also merges ones differing only in a fragment), so the
 * bound is never below the charge.
 */
export function maxExtractCredits(request: Pick<ExtractRequest, 'urls' | 'stealth'>): number {
  return extractCredits({ extracted: new Set(request.urls).size, stealth: request.stealth });
}

/** Admission: the most a search can cost, the plain rate, or the higher content tier with content. */
export function maxSearchCredits(request: Pick<SearchRequest, 'include_content'>): number {
  return request.include_content ? RATES.searchContentHigher : RATES.search;
}

/** A site map: one credit a call, however many URLs it lists. */
export function mapCredits(): number {
  return RATES.map;
}

/** One page of a site crawl, held before it is fetched and charged when it is delivered fresh: an extraction's price. */
export function sitePageCredits(stealth: boolean): number {
  return extractCredits({ extracted: 1, stealth });
}
