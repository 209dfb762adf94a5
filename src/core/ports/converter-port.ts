/**
 * The port through which services convert a fetched body and rank a page's passages: the
 * extraction pipeline's `convert` and the passage ranker, run wherever the composition
 * root decides (a worker pool in servers, the calling thread in unit tests and one-shot
 * CLI runs). Generic so that core names no type of extract/.
 */
import type { Caller } from '../caller.js';
import type { RequestDeadline } from '../request-context.js';

/**
 * What a converter sees of a request: when it must end, the signal that ends it, and who
 * asked (the pool takes keys in turn: docs/decisions.md, "Limits and politeness"). A
 * request's context is one as it stands; work of no request passes a deadline alone and
 * takes the keyless callers' turn.
 */
export type ConvertContext = RequestDeadline & { readonly caller?: Caller | undefined };

export interface ConverterPort<Input, Output, RankInput, RankOutput> {
  /**
   * Converts one body under the request's deadline: past it the conversion is abandoned
   * (`timeout`); on the request's cancellation, `cancelled`. Rejects with an AppError: the
   * converter's own (`blocked`, `unsupported_content_type`, `too_large` for selectors
   * past their matching budget), or `timeout` (the deadline, or the pool's budget of one
   * conversion, WEBSEARCH_CONVERT_TIMEOUT_MS), `cancelled`, `busy` (no room to queue it,
   * or its worker stopped) and `too_large` (past the memory bound of a conversion).
   */
  convert(input: Input, ctx: ConvertContext): Promise<Output>;
  /** Ranks a page's passages for a query: where conversions run, under the same turns, bounds and errors. */
  rankPassages(input: RankInput, ctx: ConvertContext): Promise<RankOutput>;
  close(): Promise<void>;
}
