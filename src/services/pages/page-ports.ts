/**
 * What the page journey needs from outside, as ports: robots.txt, the HTTP client, the page
 * cache, the converters and the browser (each adapter is chosen by the composition root).
 */
import type { CacheStore } from '../../core/ports/cache-port.js';
import type { Config } from '../../core/config.js';
import type { ConverterPort } from '../../core/ports/converter-port.js';
import type { AppError } from '../../core/errors.js';
import type { Logger } from '../../core/logger.js';
import type { Renderer } from '../../core/ports/render-port.js';
import type { RequestDeadline } from '../../core/request-context.js';
import type { ConvertInput, ConvertOutput, PassFailure } from '../../extract/types.js';
import type { Passage, PassagesInput } from '../../extract/passages/index.js';
import type { Resolver } from '../../net/connector.js';
import type { HttpClient } from '../../net/fetch-types.js';
import type { ExtractedPage } from './extracted-page.js';
import type { PageFailureStep } from './page-step-names.js';

export interface RobotsPolicy {
  /** Rejects with `timeout` at the caller's deadline, `cancelled` when it gives up. */
  check(
    url: URL,
    ctx: RequestDeadline,
  ): Promise<{ allowed: boolean; source: string; status?: number; error?: AppError }>;
}

export interface PageExtractorDeps {
  config: Config;
  client: HttpClient;
  robots: RobotsPolicy;
  cache: CacheStore<ExtractedPage>;
  /**
   * Runs the converters and the passage ranker (a worker pool in servers, taken key by
   * key): under what is left of the request's deadline.
   */
  converter: ConverterPort<ConvertInput, ConvertOutput, PassagesInput, Passage[]>;
  logger: Logger;
  observer?: PageObserver;
  /** The headless browser, when one exists and WEBSEARCH_RENDER is not `never`. */
  renderer?: Renderer;
  /**
   * Resolves a cached page's hosts for this server's address policy (default: the OS
   * resolver, the fetcher's own); tests give the one their fetcher uses.
   */
  resolver?: Resolver;
}

/** What the journey reports for the operator's metrics (services/metrics.ts implements it). */
export interface PageObserver {
  cacheLookup(kind: 'page', hit: boolean): void;
  /** A page answered (`success`, `cached`) or failed (its error type). */
  pageFetched(outcome: string): void;
  /** A pass of the HTML pipeline failed on a page converted. */
  passFailed(pass: PassFailure['pass']): void;
  /** A URL failed at a step of its journey. */
  pageStepFailed(step: PageFailureStep, errorType: string): void;
}
