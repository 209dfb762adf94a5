/** What the page journey answers: a page (cached or fresh) or that URL's error, and the step that raised it. */
import type { AppError } from '../../core/errors.js';
import type { Passage } from '../../extract/passages/index.js';
import type { ConvertOutput } from '../../extract/types.js';
import type { PageFailureStep } from './page-step-names.js';

export interface ExtractedPage {
  statusCode: number;
  finalUrl: string;
  output: ConvertOutput;
  /** Whether `output` comes from the page rendered in the headless browser. */
  rendered: boolean;
  /**
   * When the page was fetched (ISO 8601 UTC). Absent in entries cached before it was kept:
   * their age is unknown, so any `max_age` fetches them again.
   */
  cachedAt?: string;
  /**
   * When robots.txt last allowed the page's URLs (ISO 8601 UTC), for a cache hit to know
   * whether to ask again. Absent in older entries, and where robots.txt checks were off:
   * a hit then asks robots.txt again.
   */
  robotsCheckedAt?: string;
  /**
   * A digest of the address policy the page was fetched under (WEBSEARCH_ALLOW_PRIVATE_ADDRESSES):
   * a hit on a server of another policy resolves the page's hosts and checks them under its own.
   */
  fetchedUnder?: string;
  /** The rendered page as a base64 PNG (`screenshot`; never cached). */
  screenshot?: string;
}

export type PageOutcome =
  | ({ ok: true; fromCache: boolean; passages?: Passage[] } & ExtractedPage)
  | { ok: false; statusCode: number; error: AppError; step?: PageFailureStep };
