/**
 * The extraction operation (docs/interface.md 4.2, 2.4-2.6, 7.1, 8.3): 1-10 URLs, each
 * extracted on its own through every gate, concurrently (the client caps requests per
 * host); duplicates fetched and charged once; results in submission order.
 */
import { isTimeout } from '../../core/deadline-scope.js';
import { AppError, extractionErrorTypeOf } from '../../core/errors.js';
import { extractCredits } from '../../core/pricing.js';
import type { RequestContext } from '../../core/request-context.js';
import type { ExtractRequest, ExtractResponse, ExtractResult } from '../../core/schemas.js';
import { DEFAULT_PASSAGE_CHARS, DEFAULT_PASSAGES } from '../../core/schemas.js';
import { pageContent } from './paging.js';
import type { ConvertOutput, PageControls } from '../../extract/types.js';
import type { PageOutcome } from './extracted-page.js';
import type { PageExtractor } from './page-extractor.js';
import { pageRequest, type ExtractOptions } from './page-request.js';

export interface ExtractProgress {
  done: number;
  total: number;
  url: string;
  /** The URL's result, as the response will hold it (the CLI prints each page as it completes). */
  result: ExtractResult;
}

export interface ExtractCallOptions {
  /** Called as each distinct URL finishes. */
  onProgress?: (progress: ExtractProgress) => void;
}

export function elapsedSeconds(startedAt: number): number {
  return Math.round(performance.now() - startedAt) / 1000;
}

export class ExtractService {
  readonly #pages: PageExtractor;

  constructor(pages: PageExtractor) {
    this.#pages = pages;
  }

  /** Every URL under the request's one deadline (its `timeout_ms`, fixed in the context). */
  async extract(
    ctx: RequestContext,
    request: ExtractRequest,
    options: ExtractCallOptions = {},
  ): Promise<ExtractResponse> {
    const startedAt = performance.now();
    const timestamp = new Date().toISOString();
    // One page request per URL; duplicates (the same page: the URL up to its fragment) share
    // one extraction and one charge.
    const pageOptions = extractOptions(request);
    const pages = request.urls.map((raw) => pageRequest(ctx, raw, pageOptions));
    const keys = pages.map((page, i) => (page instanceof AppError ? `invalid:${request.urls[i]}` : page.key));
    const distinct = [...new Map(keys.map((key, i) => [key, i])).entries()];
    let done = 0;
    const outcomes = new Map<string, PageOutcome>();
    await Promise.all(
      distinct.map(async ([key, i]) => {
        const outcome = await this.#pages.run(pages[i]!);
        outcomes.set(key, outcome);
        done += 1;
        const raw = request.urls[i]!;
        if (options.onProgress)
          options.onProgress({ done, total: distinct.length, url: raw, result: pageResult(raw, outcome, request) });
      }),
    );

    // Cancelled by the caller: no answer, as for a search (a deadline leaves per-URL `timeout`s instead).
    if (ctx.signal.aborted && !isTimeout(ctx.signal.reason))
      throw new AppError('cancelled', 'The extraction was cancelled by the caller.');
    const results = request.urls.map((raw, i) =>
      pageResult(raw, outcomes.get(keys[i] as string) as PageOutcome, request),
    );
    const unique = [...outcomes.values()];
    // What was done, priced in core/pricing.ts: fresh extractions are paid, cache hits free.
    const extracted = unique.filter((o) => o.ok && !o.fromCache).length;
    const cachedFree = unique.filter((o) => o.ok && o.fromCache).length;
    const successful = results.filter((r) => r.success).length;
    return {
      results,
      metadata: {
        total_urls: request.urls.length,
        processed_urls: results.length,
        successful_crawls: successful,
        failed_crawls: results.length - successful,
        credits_used: extractCredits({ extracted, stealth: request.stealth }),
        cached_free: cachedFree,
        response_time: elapsedSeconds(startedAt),
        timestamp,
      },
    };
  }
}

/** The page extractor's options from the request: the page controls only when asked for. */
export function extractOptions(
  request: Pick<
    ExtractRequest,
    | 'format'
    | 'stealth'
    | 'include_links'
    | 'include_comments'
    | 'include_structured_data'
    | 'include_selectors'
    | 'exclude_selectors'
    | 'wait_for_selector'
    | 'screenshot'
    | 'max_age'
    | 'query'
    | 'max_passages'
    | 'max_passage_chars'
  >,
): ExtractOptions {
  const controls = pageControls(request);
  return {
    format: request.format,
    stealth: request.stealth,
    ...(controls !== undefined ? { controls } : {}),
    ...(request.wait_for_selector !== undefined ? { waitForSelector: request.wait_for_selector } : {}),
    ...(request.screenshot === true ? { screenshot: true } : {}),
    ...(request.max_age !== undefined ? { maxAge: request.max_age } : {}),
    ...(request.query !== undefined
      ? {
          passages: {
            query: request.query,
            max: request.max_passages ?? DEFAULT_PASSAGES,
            maxChars: request.max_passage_chars ?? DEFAULT_PASSAGE_CHARS,
          },
        }
      : {}),
  };
}

/**
 * The page controls a request asks for, or undefined when none: an extraction's and a site
 * crawl's (every control), a search's content pages (include_comments, include_structured_data).
 */
export function pageControls(
  request: Partial<
    Pick<
      ExtractRequest,
      'include_links' | 'include_comments' | 'include_structured_data' | 'include_selectors' | 'exclude_selectors'
    >
  >,
): PageControls | undefined {
  const controls: PageControls = {};
  if (request.include_links === true) controls.includeLinks = true;
  if (request.include_comments === true) controls.includeComments = true;
  if (request.include_structured_data === true) controls.includeStructuredData = true;
  if (request.include_selectors?.length) controls.includeSelectors = request.include_selectors;
  if (request.exclude_selectors?.length) controls.excludeSelectors = request.exclude_selectors;
  return Object.keys(controls).length > 0 ? controls : undefined;
}

/** A page's structured data as the answers carry it: its items typed per schema.org family, known to the answers' schema as records. */
export function structuredDataResult(
  data: NonNullable<ConvertOutput['structured_data']>,
): NonNullable<ExtractResult['structured_data']> {
  return data as unknown as NonNullable<ExtractResult['structured_data']>;
}

/** A page's outcome as a result of the answer: its content cut as the request asks (start_char, max_chars, query). */
export function pageResult(
  url: string,
  outcome: PageOutcome,
  request: Pick<ExtractRequest, 'format' | 'query' | 'start_char' | 'max_chars'>,
): ExtractResult {
  if (!outcome.ok) {
    return {
      url,
      success: false,
      markdown: '',
      status_code: outcome.statusCode,
      error: outcome.error.message,
      error_type: extractionErrorTypeOf(outcome.error.code),
    };
  }
  const { output } = outcome;
  const whole = request.format === 'html' ? (output.html ?? '') : output.markdown;
  // With a query the page answers with its passages, and with its Markdown only as far as
  // max_chars asks (docs/decisions.md, "Query-focused passages").
  const page =
    request.query !== undefined && request.max_chars === undefined
      ? { text: '', totalChars: whole.length, nextStartChar: undefined }
      : pageContent(whole, request.start_char, request.max_chars);
  const result: ExtractResult = {
    url,
    success: true,
    markdown: request.format === 'html' ? '' : page.text,
    ...(outcome.passages !== undefined ? { passages: outcome.passages } : {}),
    ...(request.format === 'html' ? { html: page.text } : {}),
    status_code: outcome.statusCode,
    rendered: outcome.rendered,
  };
  if (output.title) result.title = output.title;
  if (output.description) result.description = output.description;
  if (output.language) result.language = output.language;
  if (output.published_at) result.published_at = output.published_at;
  if (output.authors !== undefined && output.authors.length > 0) result.authors = output.authors;
  if (output.page_type) result.page_type = output.page_type;
  result.content_type = output.content_type;
  result.final_url = outcome.finalUrl;
  if (page.totalChars !== undefined) result.total_chars = page.totalChars;
  if (page.nextStartChar !== undefined) result.next_start_char = page.nextStartChar;
  result.from_cache = outcome.fromCache;
  if (outcome.cachedAt !== undefined) result.cached_at = outcome.cachedAt;
  if (output.links !== undefined) {
    result.links = output.links;
    result.links_truncated = output.links_truncated ?? false;
  }
  if (output.content_source !== undefined) result.content_source = output.content_source;
  if (outcome.screenshot !== undefined) result.screenshot = outcome.screenshot;
  if (output.structured_data !== undefined) result.structured_data = structuredDataResult(output.structured_data);
  return result;
}
