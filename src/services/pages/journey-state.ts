/** The state a page's journey carries from step to step (the steps: page-journey.ts). */
import type { AppError } from '../../core/errors.js';
import type { ConvertOutput } from '../../extract/types.js';
import type { Passage } from '../../extract/passages/index.js';
import type { FetchedResponse } from '../../net/fetch-types.js';
import type { ExtractedPage } from './extracted-page.js';
import type { PageExtractorDeps } from './page-ports.js';
import type { PageRequest } from './page-request.js';
import type { PageStepName } from './page-step-names.js';

/** Everything the steps learn about the page, in the order they learn it. */
export interface Journey {
  readonly request: PageRequest;
  readonly deps: PageExtractorDeps;
  /** A cache entry may be read and written (a cache, and no screenshot: that is of the page now). */
  readonly cacheable: boolean;
  /**
   * When robots.txt allowed the URL (epoch ms; unset when robots.txt checks are off): kept
   * with the cached page, whose hits check robots.txt again once it is older than a
   * robots.txt copy may live (page-rechecks.ts).
   */
  robotsCheckedAt?: number;
  /** The static fetch's response. */
  response?: FetchedResponse;
  /** The static response converted. */
  converted?: ConvertOutput;
  /** The converter's verdict that scripts write the static page's content (the render decision). */
  scriptDependent?: boolean;
  /** A bot wall met on the static fetch, which a stealth request retries in the browser. */
  blocked?: AppError;
  /** The page the answer is made of (from the cache, the static fetch or the browser). */
  page?: ExtractedPage;
  fromCache: boolean;
  passages?: Passage[];
}

export interface PageStep {
  readonly name: PageStepName;
  /** Whether the step has anything to do for this journey. */
  when(journey: Journey): boolean;
  run(journey: Journey): Promise<void>;
}
