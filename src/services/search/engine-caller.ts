/**
 * Runs ONE engine for a query: suspension check, politeness queue, request, parse — all
 * under the engine's time budget. Never throws: every failure becomes an EngineFailure
 * (code + message) so one broken engine never sinks the search.
 */
import { DeadlineScope } from '../../core/deadline-scope.js';
import { AppError, toAppError } from '../../core/errors.js';
import { timeLeft, type RequestContext } from '../../core/request-context.js';
import { getEngine, getFallbackEngine } from '../../engines/registry.js';
import type { EngineId, EngineResult, SearchEngine, SearchParams } from '../../engines/types.js';
import type { HttpClient } from '../../net/fetch-types.js';
import type { EngineHealth } from './engine-health.js';
import type { SearchObserver } from './search-observer.js';
import type { EngineSettings } from './engine-settings.js';
import type { EngineThrottle } from './engine-throttle.js';

/** Engine answers are small (DuckDuckGo's HTML page is ~30 KiB); more means something is wrong. */
export const ENGINE_MAX_BYTES = 5 * 1024 * 1024;
/** Below this much budget left, a fallback request could not finish: not worth sending. */
const MIN_FALLBACK_BUDGET_MS = 50;

export interface EngineFailure {
  engine: EngineId;
  /** The AppError code: timeout, blocked, rate_limited, http, malformed_response, network, … */
  error: string;
  message: string;
}

export type EngineOutcome =
  { engine: EngineId; ok: true; results: EngineResult[] } | { engine: EngineId; ok: false; failure: EngineFailure };

export interface EngineCallerDeps {
  client: HttpClient;
  settings: EngineSettings;
  health: EngineHealth;
  throttle: EngineThrottle;
  /** Time budget of one engine call, queueing and the DuckDuckGo fallback included. */
  timeoutMs: number;
  observer?: Pick<SearchObserver, 'engineCall' | 'engineSuspended'>;
}

const utf8 = new TextDecoder('utf-8');

export class EngineCaller {
  readonly #deps: EngineCallerDeps;

  constructor(deps: EngineCallerDeps) {
    this.#deps = deps;
  }

  async call(ctx: RequestContext, id: EngineId, params: SearchParams): Promise<EngineOutcome> {
    const suspension = await this.#deps.health.check(id).catch((err: unknown) => {
      ctx.log.warn({ err, engine: id }, 'reading engine suspensions failed');
      return undefined;
    });
    if (suspension) {
      this.#deps.observer?.engineCall(id, 'suspended');
      return {
        engine: id,
        ok: false,
        failure: { engine: id, error: suspension.reason, message: this.#deps.health.describe(id, suspension) },
      };
    }

    // The engine's own budget, never past the request's deadline.
    const budget = new DeadlineScope(ctx, {
      budgetMs: this.#deps.timeoutMs,
      timeout: (ms) => new AppError('timeout', `${id} did not answer within ${ms} ms`, { retryable: true }),
    });

    try {
      let results: EngineResult[];
      try {
        results = await this.#once(getEngine(id), params, budget);
      } catch (error) {
        const fallback = getFallbackEngine(id);
        const err = toAppError(error);
        // The lite page is another layout, not another IP: it helps when the HTML page
        // changed or the server hiccuped, never against a block or a rate limit.
        const worthFallback =
          err.code === 'malformed_response' || (err.code === 'http' && (err.statusCode ?? 0) >= 500);
        if (!fallback || !worthFallback || budget.signal.aborted || timeLeft(budget) < MIN_FALLBACK_BUDGET_MS) {
          throw err;
        }
        ctx.log.debug({ engine: id, code: err.code }, 'trying the fallback endpoint');
        results = await this.#once(fallback, params, budget);
      }
      this.#deps.observer?.engineCall(id, 'ok');
      return { engine: id, ok: true, results };
    } catch (error) {
      // A fired budget or cancellation explains whatever error it caused downstream.
      const err = budget.failure ?? toAppError(error);
      if (err.code === 'internal_error') ctx.log.error({ err: error, engine: id }, 'engine call failed unexpectedly');
      const suspended = await this.#deps.health.recordFailure(id, err).catch((storeErr: unknown) => {
        ctx.log.warn({ err: storeErr, engine: id }, 'recording an engine suspension failed');
        return undefined;
      });
      this.#deps.observer?.engineCall(id, err.code);
      if (suspended) {
        this.#deps.observer?.engineSuspended(id, suspended.reason);
        ctx.log.warn(
          { engine: id, reason: suspended.reason, until: new Date(suspended.until).toISOString() },
          'search engine suspended',
        );
      }
      return { engine: id, ok: false, failure: { engine: id, error: err.code, message: err.message } };
    } finally {
      budget.dispose();
    }
  }

  /** One request/parse round trip through the engine's politeness lane. */
  async #once(engine: SearchEngine, params: SearchParams, budget: DeadlineScope): Promise<EngineResult[]> {
    const request = engine.buildRequest(params, this.#deps.settings.contexts[engine.id]);
    const release = await this.#deps.throttle.acquire(engine.id, budget.signal);
    let response;
    try {
      response = await this.#deps.client.fetch(request.url, {
        method: request.method,
        headers: request.headers,
        ...(request.body === undefined ? {} : { body: request.body }),
        ctx: budget,
        maxBytes: ENGINE_MAX_BYTES,
        // Engine base URLs come from the operator's own config (e.g. a SearXNG on the LAN),
        // never from a request; page fetches never set this.
        allowPrivate: true,
      });
    } finally {
      release();
    }
    return engine.parseResponse(
      { url: response.finalUrl, status: response.status, headers: response.headers, body: utf8.decode(response.body) },
      params,
    );
  }
}
