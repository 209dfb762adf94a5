/**
 * The extraction operation (docs/interface.md 4.2, 2.4-2.6, 7.1, 8.3): 1-10 URLs, each
 * extracted on its own through every gate, concurrently (the client caps requests per
 * host); duplicates fetched and charged once; results in submission order.
 */
import { extractionErrorTypeOf } from '../core/errors.js';
import { extractCredits } from '../core/pricing.js';
import type { RequestContext } from '../core/request-context.js';
import type { CrawlRequest, CrawlResponse, CrawlResult } from '../core/schemas.js';
import { pageContent } from './paging.js';
import type { PageExtractor, PageOutcome } from './page-extractor.js';
import { pageKey, parseTargetUrl } from './page-extractor.js';

export interface ExtractProgress {
  done: number;
  total: number;
  url: string;
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
  async extract(ctx: RequestContext, request: CrawlRequest, options: ExtractCallOptions = {}): Promise<CrawlResponse> {
    const startedAt = performance.now();
    const timestamp = new Date().toISOString();
    // Duplicates (same URL up to the fragment) share one extraction.
    const keys = request.urls.map((raw) => {
      const parsed = parseTargetUrl(raw);
      return parsed instanceof URL ? pageKey(parsed) : `invalid:${raw}`;
    });
    const distinct = [...new Map(keys.map((key, i) => [key, request.urls[i] as string])).entries()];
    let done = 0;
    const outcomes = new Map<string, PageOutcome>();
    await Promise.all(
      distinct.map(async ([key, raw]) => {
        const outcome = await this.#pages.extract(ctx, raw, { format: request.format, stealth: request.stealth });
        outcomes.set(key, outcome);
        done += 1;
        options.onProgress?.({ done, total: distinct.length, url: raw });
      }),
    );

    const results = request.urls.map((raw, i) =>
      toResult(raw, outcomes.get(keys[i] as string) as PageOutcome, request),
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

function toResult(url: string, outcome: PageOutcome, request: CrawlRequest): CrawlResult {
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
  const page = pageContent(whole, request.start_char, request.max_chars);
  const result: CrawlResult = {
    url,
    success: true,
    markdown: request.format === 'html' ? '' : page.text,
    ...(request.format === 'html' ? { html: page.text } : {}),
    status_code: outcome.statusCode,
    rendered: outcome.rendered,
  };
  if (output.title) result.title = output.title;
  if (output.description) result.description = output.description;
  if (output.language) result.language = output.language;
  if (output.published_at) result.published_at = output.published_at;
  if (output.page_type) result.page_type = output.page_type;
  result.content_type = output.content_type;
  result.final_url = outcome.finalUrl;
  if (page.totalChars !== undefined) result.total_chars = page.totalChars;
  if (page.nextStartChar !== undefined) result.next_start_char = page.nextStartChar;
  return result;
}
