// Types of generated-site.mjs for the tests and the benchmark.

export interface GeneratedSiteOptions {
  /** Sitemap URLs in all (default 10,000; at least the docs, posts and fixed pages plus 80). */
  pages?: number;
  /** Of which documentation pages, in 20 chapters (default 2,000; at least 60). */
  docsPages?: number;
  /** Of which blog posts, in the feeds (default 60; at least 8). */
  blogPosts?: number;
  /** The address both servers listen on (default '127.0.0.1'). */
  host?: string;
  /** robots.txt's Crawl-delay, when set. */
  crawlDelaySeconds?: number;
  /** robots.txt answered with this status instead (e.g. 503, 404). */
  robotsStatus?: number;
  /** Milliseconds added before every response of the site (default 0). */
  latencyMs?: number;
  /** Everything served follows from it (default 1). */
  seed?: number;
}

export interface GeneratedSiteStats {
  /** Requests to the site (every path, robots.txt and sitemaps included). */
  requests: number;
  /** Requests per request target as received: path plus query string (`/support/?sessionid=...`). */
  byPath: Map<string, number>;
  /** The most requests in flight at once on the site (from the request to the response's end). */
  maxConcurrent: number;
  currentConcurrent: number;
  /** Requests under the disallowed prefix: a polite crawler makes none. */
  disallowedHits: number;
  /** Requests to the off-site server. */
  offsiteHits: number;
  /** Responses with status 404 (the footers' broken links, unknown paths). */
  notFound: number;
}

export interface GeneratedSite {
  /** `http://127.0.0.1:PORT`, no trailing slash. */
  origin: string;
  /** A second server (another port) that the site's off-site links point to; counts its hits. */
  offsiteOrigin: string;
  /**
   * Every URL of the sitemaps, absolute, plain (no tracking parameter, no fragment), each
   * once, in sitemap order: `pages` URLs.
   */
  sitemapUrls: string[];
  /**
   * The `<loc>` values of the sitemap index's children as written, in order: some with
   * `?utm_source=sitemap` (or `&utm_medium=xml`) or `#overview` in place of the plain URL,
   * some listed twice (again at the end, plain or with `?utm_campaign=spring`).
   */
  rawSitemapLocs: string[];
  /** The sitemap documents reached from robots.txt: the index, then its gzipped children and grandchildren. */
  sitemapFiles: string[];
  /** `/private/`: robots.txt disallows it for all agents; the footers link to a page under it. */
  disallowedPrefix: string;
  /** The documentation pages (`/docs/<chapter>/<slug>`), chapter by chapter. */
  docsUrls: string[];
  /** The blog posts (`/blog/<yyyy>/<slug>`), newest first. */
  blogUrls: string[];
  /** 50 queries, each with the page written for it (a sitemap URL). */
  queries: { query: string; target: string }[];
  /**
   * One topic and its 10 pages, reachable by links only through the hub (linked from every
   * page's header nav and a few doc pages): 6 listed on the hub (depth 2 from the home page),
   * 4 only linked from those (depth 3).
   */
  crawlTargets: { query: string; hub: string; targets: string[] };
  /** A snapshot of the counters. */
  stats(): GeneratedSiteStats;
  /** Zeroes the counters (requests in flight stay counted as in flight). */
  resetStats(): void;
  close(): Promise<void>;
}

/** Starts the generated site and its off-site companion on free ports. */
export function startGeneratedSite(options?: GeneratedSiteOptions): Promise<GeneratedSite>;

export interface DocsSitePage {
  url: string;
  title: string;
  /** The page's `<link rel="canonical">`: itself, or the v2 page for a v1 page with v2's text. */
  canonical: string;
}

export interface DocsSite {
  origin: string;
  /** The URLs of /sitemap.xml (not gzipped): every page whose canonical is itself. */
  sitemapUrls: string[];
  /** `/search`: robots.txt disallows the search page. */
  disallowedPrefix: string;
  /** Every page, v2 then v1 (the search page aside). */
  pages: DocsSitePage[];
  /** The same counters as the generated site's (offsiteHits stays 0). */
  stats(): GeneratedSiteStats;
  resetStats(): void;
  close(): Promise<void>;
}

/** Starts the "Larkspur" documentation site (about 40 pages under /v1/ and /v2/) on a free port. */
export function startDocsSite(options?: { host?: string; latencyMs?: number }): Promise<DocsSite>;
