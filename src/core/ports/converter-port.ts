/**
 * The port through which services convert a fetched body: the extraction pipeline's
 * `convert`, run wherever the composition root decides (a worker pool in servers, the
 * calling thread in unit tests). Generic so that core names no type of extract/.
 */
import type { RequestDeadline } from '../request-context.js';

export interface ConverterPort<Input, Output> {
  /**
   * Converts one body under the request's deadline: past it the conversion is abandoned
   * (`timeout`); on the request's cancellation, `cancelled`. Rejects with an AppError: the
   * converter's own (`blocked`, `unsupported_content_type`), or `timeout`, `cancelled`,
   * `busy` (no room to queue it, or its worker stopped) and `too_large` (past the memory
   * bound of a conversion).
   */
  convert(input: Input, ctx: RequestDeadline): Promise<Output>;
  close(): Promise<void>;
}
