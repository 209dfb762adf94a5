/**
 * The two operations as the faces call them: for a caller, metered (rate limit, credit
 * hold, debit of exactly `credits_used`) around the crawl and search services. Both
 * amounts come from core/pricing.ts: the hold from the request, the debit from the
 * services' priced answer.
 */
import { maxCrawlCredits, maxSearchCredits } from '../core/pricing.js';
import type { CrawlRequest, CrawlResponse, SearchRequest, SearchResponse } from '../core/schemas.js';
import type { CrawlCallOptions, CrawlService } from './crawl-service.js';
import type { Caller, Metering } from './metering.js';
import type { SearchOptions, SearchService } from './search-service.js';

export class Operations {
  constructor(
    private readonly metering: Metering,
    private readonly crawlService: Pick<CrawlService, 'crawl'>,
    private readonly searchService: Pick<SearchService, 'search'>,
  ) {}

  crawl(caller: Caller, request: CrawlRequest, options: CrawlCallOptions = {}): Promise<CrawlResponse> {
    return this.metering.run(caller, 'crawl', maxCrawlCredits(request), () => this.crawlService.crawl(request, options), (r) => r.metadata.credits_used);
  }

  search(caller: Caller, request: SearchRequest, options: SearchOptions = {}): Promise<SearchResponse> {
    return this.metering.run(caller, 'search', maxSearchCredits(request), () => this.searchService.search(request, options), (r) => r.metadata.credits_used);
  }
}
