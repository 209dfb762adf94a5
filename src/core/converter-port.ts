/**
 * The port through which services convert a fetched body: the extraction pipeline's
 * `convert`, run wherever the composition root decides (a worker pool in servers, the
 * calling thread in unit tests). Generic so that core names no type of extract/.
 */

export interface ConvertCallOptions {
  /** What is left of the URL's deadline: past it the conversion is abandoned (`timeout`). */
  timeoutMs: number;
  /** The caller's cancellation (`cancelled`). */
  signal?: AbortSignal | undefined;
}

export interface ConverterPort<Input, Output> {
  /**
   * Converts one body. Rejects with an AppError: the converter's own (`blocked`,
   * `unsupported_content_type`), or `timeout`, `cancelled`, `busy` (no room to queue it,
   * or its worker stopped) and `too_large` (past the memory bound of a conversion).
   */
  convert(input: Input, options: ConvertCallOptions): Promise<Output>;
  close(): Promise<void>;
}
