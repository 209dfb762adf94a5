/**
 * The converter port over `convert` on the calling thread: unit tests, and whoever wants
 * no workers. It cannot stop a conversion once started, so the deadline and the memory
 * bound hold only for the worker pool (convert-pool.ts); the input bounds hold for both.
 */
import type { ConverterPort, ConvertCallOptions } from '../core/converter-port.js';
import { AppError } from '../core/errors.js';
import { convert, type ConvertInput, type ConvertOutput } from '../extract/index.js';

export class InThreadConverter implements ConverterPort<ConvertInput, ConvertOutput> {
  async convert(input: ConvertInput, options: ConvertCallOptions): Promise<ConvertOutput> {
    if (options.signal?.aborted) throw new AppError('cancelled', 'The request was cancelled before the page was converted.');
    if (options.timeoutMs <= 0) throw new AppError('timeout', 'The deadline passed before the page could be converted.', { retryable: true });
    return convert(input);
  }

  async close(): Promise<void> {}
}
