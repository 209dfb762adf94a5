/** What a site crawl reports as it works (the server's metrics). */
export interface SiteCrawlObserver {
  /**
   * A crawl page this instance worked on ended: delivered (a result, failed pages
   * included), duplicate (recognised as a page already crawled), past_limit (the job's
   * limit was reached meanwhile), given_back (the run stopped: the page goes to another).
   */
  sitePageDone(outcome: SitePageOutcome): void;
}

export type SitePageOutcome = 'delivered' | 'duplicate' | 'past_limit' | 'given_back';
