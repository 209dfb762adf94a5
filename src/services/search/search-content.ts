/**
 * Page content for the top search results (include_content). Every page is extracted
 * concurrently under ONE deadline: an agent waits for the whole answer, so a single slow
 * page must not stretch it, and pages still pending when the deadline fires are reported
 * as `timeout` (and their downloads aborted) instead of being waited for.
 */
import { DeadlineScope } from '../../core/deadline-scope.js';
import { AppError, contentErrorOf, toAppError, type ContentErrorValue } from '../../core/errors.js';
import type { RequestContext } from '../../core/request-context.js';
import type { SearchResult } from '../../core/schemas.js';
import type { Passage } from '../../extract/passages/index.js';
import type { PageControls } from '../../extract/types.js';
import { structuredDataResult } from '../pages/extract-service.js';
import type { PageOutcome } from '../pages/extracted-page.js';
import type { PageExtractor } from '../pages/page-extractor.js';
import type { ExtractOptions } from '../pages/page-request.js';

export interface SearchProgress {
  /** Pages finished so far (delivered or failed). */
  done: number;
  total: number;
  /** The page that just finished. */
  url: string;
}

export interface ContentOptions {
  /** How many of the top results get content (content_results). */
  count: number;
  /** The budget of all pages together, from now (never past the request's deadline). */
  timeoutMs: number;
  onProgress?: (progress: SearchProgress) => void;
  /** content_mode "passages": each page's passages for the query instead of its Markdown. */
  passages?: ExtractOptions['passages'];
  /** The page controls asked for (include_comments, include_structured_data), as an extraction takes them. */
  controls?: PageControls;
}

export interface ContentOutcome {
  /** The results, the first `requested` ones carrying exactly one of content / passages / content_error. */
  results: SearchResult[];
  requested: number;
  delivered: number;
}

type StructuredDataField = { structured_data?: NonNullable<SearchResult['structured_data']> };
type ContentField =
  (({ content: string } | { passages: Passage[] }) & StructuredDataField) | { content_error: ContentErrorValue };

function fieldOf(outcome: PageOutcome): ContentField {
  // A page without readable text already failed as empty_content in the extractor.
  if (outcome.ok) {
    const data = outcome.output.structured_data;
    // After the content, as in an extraction's result (include_structured_data, HTML pages).
    const described: StructuredDataField = data !== undefined ? { structured_data: structuredDataResult(data) } : {};
    return outcome.passages !== undefined
      ? { passages: outcome.passages, ...described }
      : { content: outcome.output.markdown, ...described };
  }
  // Our own deadline aborts the extraction, which may surface as `cancelled`.
  if (outcome.error.code === 'cancelled') return { content_error: 'timeout' };
  return { content_error: contentErrorOf(outcome.error.code, outcome.statusCode) };
}

export async function fetchContent(
  ctx: RequestContext,
  pages: Pick<PageExtractor, 'extract'>,
  results: SearchResult[],
  options: ContentOptions,
): Promise<ContentOutcome> {
  const targets = results.slice(0, Math.max(0, options.count));
  const total = targets.length;
  if (total === 0) return { results, requested: 0, delivered: 0 };

  const fields: (ContentField | undefined)[] = new Array<ContentField | undefined>(total).fill(undefined);
  // The one deadline of every page: closing it aborts the downloads still running.
  const phase = new DeadlineScope(ctx, {
    budgetMs: options.timeoutMs,
    timeout: (ms) => new AppError('timeout', `page content not complete within ${ms} ms`, { retryable: true }),
  });
  const pageCtx: RequestContext = { ...ctx, deadline: phase.deadline, signal: phase.signal };
  let closed = false;
  let done = 0;

  const report = (index: number): void => {
    done++;
    try {
      options.onProgress?.({ done, total, url: (targets[index] as SearchResult).url });
    } catch (err) {
      ctx.log.warn({ err }, 'search progress callback failed');
    }
  };

  let stop: () => void = () => undefined;
  const stopped = new Promise<void>((resolve) => (stop = resolve));
  // At the deadline or on the caller's cancellation. Registered before any page's own
  // listener, so the answers are frozen before aborted downloads could overwrite them.
  const close = (): void => {
    closed = true;
    stop();
  };
  if (phase.signal.aborted) close();
  else phase.signal.addEventListener('abort', close, { once: true });

  const work = targets.map(async (result, index) => {
    let field: ContentField;
    try {
      // The passages are ranked in the page's journey, as for an extraction (one ranker, once).
      // The page controls as an extraction's: part of the page's cache key (pageCacheKey).
      const outcome = await pages.extract(pageCtx, result.url, {
        format: 'markdown',
        ...(options.controls ? { controls: options.controls } : {}),
        ...(options.passages ? { passages: options.passages } : {}),
      });
      field = fieldOf(outcome);
    } catch (err) {
      // PageExtractor reports failures as outcomes; a throw is a bug or a foreign adapter.
      const error = toAppError(err);
      if (error.code === 'internal_error') ctx.log.error({ err, url: result.url }, 'page content failed unexpectedly');
      field = { content_error: error.code === 'cancelled' ? 'timeout' : contentErrorOf(error.code, error.statusCode) };
    }
    if (closed) return;
    fields[index] = field;
    report(index);
  });

  try {
    await Promise.race([Promise.all(work), stopped]);
  } finally {
    phase.signal.removeEventListener('abort', close);
    phase.dispose();
  }
  if (!closed) closed = true;
  else {
    // Pages still pending at the deadline: report them as finished, with `timeout`.
    fields.forEach((field, index) => {
      if (field !== undefined) return;
      fields[index] = { content_error: 'timeout' };
      report(index);
    });
  }

  let delivered = 0;
  const withContent = results.map((result, index) => {
    const field = fields[index];
    if (index >= total || field === undefined) return result;
    if (!('content_error' in field)) delivered++;
    // Appended last: the result keeps its field order with content | passages (then structured_data) | content_error at the end.
    return { ...result, ...field };
  });
  return { results: withContent, requested: total, delivered };
}
