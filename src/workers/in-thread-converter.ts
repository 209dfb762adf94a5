/**
 * The converter port over `convert` on the calling thread: unit tests, and whoever wants
 * no workers. It cannot stop a conversion once started, so the deadline and the memory
 * bound hold only for the worker pool (convert-pool.ts); the input bounds hold for both.
 */
import type { ConverterPort } from '../core/ports/converter-port.js';
import { isTimeout } from '../core/deadline-scope.js';
import { AppError } from '../core/errors.js';
import { timeLeft, type RequestDeadline } from '../core/request-context.js';
import { convert, type ConvertInput, type ConvertOutput } from '../extract/index.js';

export class InThreadConverter implements ConverterPort<ConvertInput, ConvertOutput> {
  async convert(input: ConvertInput, ctx: RequestDeadline): Promise<ConvertOutput> {
    const late = timeLeft(ctx) <= 0 || isTimeout(ctx.signal.reason);
    if (ctx.signal.aborted && !late)
      throw new AppError('cancelled', 'The request was cancelled before the page was converted.');
    if (late)
      throw new AppError('timeout', 'The deadline passed before the page could be converted.', { retryable: true });
    return convert(input);
  }

  async close(): Promise<void> {}
}
