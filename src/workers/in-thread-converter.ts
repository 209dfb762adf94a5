/**
 * The converter port over `convert` and the passage ranker on the calling thread: unit
 * tests, and the one-shot CLI commands (extract, search, map, crawl-site), where one user
 * waits for their own pages. It cannot stop a task once started, so the deadline, the
 * budget of one conversion (WEBSEARCH_CONVERT_TIMEOUT_MS), the memory bound and the turns
 * of keys hold only for the worker pool (convert-pool.ts); what bounds the work inside the
 * converters holds for both (the input bounds, the selectors' matching budget).
 */
import type { ConvertContext, ConverterPort } from '../core/ports/converter-port.js';
import { isTimeout } from '../core/deadline-scope.js';
import { AppError } from '../core/errors.js';
import { timeLeft } from '../core/request-context.js';
import { convert, type ConvertInput, type ConvertOutput, type Passage, type PassagesInput } from '../extract/index.js';
import { rankPassages } from '../extract/passages/index.js';
import type { WordVectors } from '../extract/passages/word-vectors.js';

export class InThreadConverter implements ConverterPort<ConvertInput, ConvertOutput, PassagesInput, Passage[]> {
  readonly #vectors: WordVectors | undefined;

  /** `vectors`: the operator's word vectors (WEBSEARCH_WORD_VECTORS), which the ranker reads when given. */
  constructor(vectors?: WordVectors) {
    this.#vectors = vectors;
  }

  async convert(input: ConvertInput, ctx: ConvertContext): Promise<ConvertOutput> {
    refuseLate(ctx, 'the page was converted', 'The deadline passed before the page could be converted.');
    return convert(input);
  }

  async rankPassages(input: PassagesInput, ctx: ConvertContext): Promise<Passage[]> {
    refuseLate(
      ctx,
      "the page's passages were ranked",
      "The deadline passed before the page's passages could be ranked.",
    );
    return rankPassages(input, this.#vectors);
  }

  async close(): Promise<void> {}
}

/** Refuses work whose deadline or caller is already gone (work once started runs to its end). */
function refuseLate(ctx: ConvertContext, done: string, late: string): void {
  const past = timeLeft(ctx) <= 0 || isTimeout(ctx.signal.reason);
  if (ctx.signal.aborted && !past) throw new AppError('cancelled', `The request was cancelled before ${done}.`);
  if (past) throw new AppError('timeout', late, { retryable: true });
}
