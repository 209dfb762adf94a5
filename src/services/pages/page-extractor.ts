/**
 * Extracts one page: the page request built once (page-request.ts), then its journey
 * (page-journey.ts: cache, address, robots, fetch with its type checks, convert, render when
 * needed, the readable-text gate, store, passages). Each gate fails this URL alone, with a
 * stable error code and the name of the step that raised it. Used by the extract operation
 * and by search for result page content.
 */
import { AppError, extractionErrorTypeOf, toAppError } from '../../core/errors.js';
import type { RequestContext } from '../../core/request-context.js';
import type { PageOutcome } from './extracted-page.js';
import type { Journey } from './journey-state.js';
import { PAGE_STEPS } from './page-journey.js';
import type { PageFailureStep } from './page-step-names.js';
import type { PageExtractorDeps } from './page-ports.js';
import { pageRequest, type ExtractOptions, type PageRequest } from './page-request.js';

export class PageExtractor {
  readonly #deps: PageExtractorDeps;

  constructor(deps: PageExtractorDeps) {
    this.#deps = deps;
  }

  /** One submitted URL through every gate, under the request's deadline (the whole of it: URLs run side by side). */
  async extract(ctx: RequestContext, rawUrl: string, options: ExtractOptions): Promise<PageOutcome> {
    return this.run(pageRequest(ctx, rawUrl, options));
  }

  /** A page request (or the reason its URL was refused) through its journey. */
  async run(request: PageRequest | AppError): Promise<PageOutcome> {
    if (request instanceof AppError) {
      this.#deps.observer?.pageStepFailed('url', extractionErrorTypeOf(request.code));
      return this.#counted(failure(request, 'url'));
    }
    return this.#counted(await this.#journey(request));
  }

  #counted(outcome: PageOutcome): PageOutcome {
    this.#deps.observer?.pageFetched(
      outcome.ok ? (outcome.fromCache ? 'cached' : 'success') : extractionErrorTypeOf(outcome.error.code),
    );
    return outcome;
  }

  async #journey(request: PageRequest): Promise<PageOutcome> {
    const journey: Journey = {
      request,
      deps: this.#deps,
      fromCache: false,
      // A screenshot is of the page now, and too big a value for the cache.
      cacheable: this.#deps.config.cache.ttlMs > 0 && request.options.screenshot !== true,
    };
    for (const step of PAGE_STEPS) {
      if (!step.when(journey)) continue;
      try {
        await step.run(journey);
      } catch (err) {
        const error = toAppError(err);
        if (error.code === 'internal_error')
          request.ctx.log.error({ err, url: request.url.href, step: step.name }, 'extraction failed unexpectedly');
        else request.ctx.log.debug({ url: request.url.href, step: step.name, code: error.code }, 'page step failed');
        this.#deps.observer?.pageStepFailed(step.name, extractionErrorTypeOf(error.code));
        return failure(error, step.name);
      }
    }
    const page = journey.page;
    if (page === undefined) throw new AppError('internal_error', 'the page journey ended without a page');
    return {
      ok: true,
      fromCache: journey.fromCache,
      ...page,
      ...(journey.passages !== undefined ? { passages: journey.passages } : {}),
    };
  }
}

function failure(error: AppError, step: PageFailureStep): PageOutcome {
  return { ok: false, statusCode: error.statusCode ?? 0, error, step };
}
