/**
 * The one object a request travels with, from the face that received it to the ledger
 * that charges it (docs/architecture.md, "One request, one context"):
 *
 *   id        `req_` + a ULID (ids.ts): the `X-Request-Id` header (MCP: the tool result's
 *             `_meta.request_id`), the `request_id` of its log lines, and the request id of
 *             its credit hold and usage record in the ledger
 *   caller    who is charged (caller.ts)
 *   deadline  epoch ms (deadline-scope.ts, `now`), fixed once, by Operations, from the
 *             validated request
 *   signal    fires at the deadline (reason: AppError `timeout`) and when the client goes
 *             away, where the face can tell (reason: AppError `cancelled`)
 *   log       the face's logger with `request_id` bound
 *
 * A face opens the request (incomingRequest: id, caller, logger, the client's
 * disconnect); Operations validates it and fixes the deadline (withRequestContext); the
 * services pass the context down, and the ports (fetch, robots, render, convert) take the
 * narrow RequestDeadline: they stop at the deadline and compute no deadline of their own;
 * only the converter sees the caller too, to take keys in turn (ports/converter-port.ts).
 */
import type { Caller } from './caller.js';
import { DeadlineScope, now } from './deadline-scope.js';
import { AppError } from './errors.js';
import { newRequestId } from './ids.js';
import type { Logger } from './logger.js';

export interface RequestContext {
  readonly id: string;
  readonly caller: Caller;
  readonly deadline: number;
  readonly signal: AbortSignal;
  readonly log: Logger;
}

/** What a port may see of a request: when it must end, and the signal that ends it. */
export type RequestDeadline = Pick<RequestContext, 'deadline' | 'signal'>;

/** A request as a face received it, before it is validated (so before it has a deadline). */
export interface IncomingRequest {
  readonly id: string;
  readonly caller: Caller;
  readonly log: Logger;
  /** The client's disconnect or cancellation, where the face can tell. */
  readonly cancel?: AbortSignal | undefined;
}

/** Opens a request at a face: its id (a new one unless the face minted it already) and a logger that stamps it on every line. */
export function incomingRequest(init: {
  caller: Caller;
  logger: Logger;
  cancel?: AbortSignal | undefined;
  id?: string;
}): IncomingRequest {
  const id = init.id ?? newRequestId();
  return { id, caller: init.caller, log: init.logger.child({ request_id: id }), cancel: init.cancel };
}

/**
 * Runs `work` under the request's context: the deadline `timeoutMs` from now, computed
 * here and nowhere else, and a signal that fires at it or when the client goes away. The
 * timer is cleared when the work settles.
 */
export async function withRequestContext<T>(
  incoming: IncomingRequest,
  timeoutMs: number,
  work: (ctx: RequestContext) => Promise<T>,
): Promise<T> {
  const scope = new DeadlineScope(
    { deadline: Infinity, signal: incoming.cancel ?? new AbortController().signal },
    {
      budgetMs: timeoutMs,
      timeout: (ms) => new AppError('timeout', `The request's deadline (${ms} ms) passed.`, { retryable: true }),
      cancelled: (cause) => new AppError('cancelled', 'The request was cancelled by the caller.', { cause }),
    },
  );
  const ctx: RequestContext = Object.freeze({
    id: incoming.id,
    caller: incoming.caller,
    deadline: scope.deadline,
    signal: scope.signal,
    log: incoming.log,
  });
  try {
    return await work(ctx);
  } finally {
    scope.dispose();
  }
}

/** Milliseconds left before the deadline (zero or less once it passed). */
export function timeLeft(ctx: Pick<RequestContext, 'deadline'>): number {
  return ctx.deadline - now();
}

/**
 * A deadline of its own, `ms` from now, for work that belongs to no request (the shared
 * robots.txt fetch, a fetch without a context, tests and benches).
 */
export function deadlineIn(ms: number, signal?: AbortSignal): RequestDeadline {
  return { deadline: now() + ms, signal: signal ?? new AbortController().signal };
}
