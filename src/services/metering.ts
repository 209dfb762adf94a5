/**
 * Metering of the two operations for a caller with an API key (docs/interface.md 8;
 * docs/decisions.md, "Credits and keys"): the per-key rate limit, then admission (a hold
 * of the request's largest possible cost, so concurrent requests cannot overdraw a key by
 * more than one request), the work, and one atomic debit of exactly `credits_used` with
 * its usage record. A caller without a key (stdio, the CLI, loopback while no key exists)
 * is not metered.
 */
import type { Config } from '../core/config.js';
import { AppError } from '../core/errors.js';
import type { ApiKeyRecord } from '../core/key-store.js';
import type { LedgerStore, Operation } from '../core/ledger-store.js';
import type { RateWindowStore } from '../core/rate-window-store.js';
import type { RequestContext } from '../core/request-context.js';

/** Hooks for the metrics the faces export (optional: the CLI has none). */
export interface MeteringObserver {
  creditsCharged(operation: Operation, credits: number): void;
  requestRefused(code: string): void;
}

export interface MeteringDeps {
  /** Holds, debits and usage records. */
  ledger: LedgerStore;
  /** The per-key rate-limit windows. */
  rateWindows: RateWindowStore;
  config: Config;
  observer?: MeteringObserver;
  now?: () => number;
}

/**
 * How long a hold lives when its request never settles (a crashed instance): longer than
 * any request can run (the longest configurable per-URL deadline is 5 minutes).
 */
const HOLD_MS = 10 * 60_000;

export class Metering {
  readonly #deps: MeteringDeps;
  readonly #now: () => number;

  constructor(deps: MeteringDeps) {
    this.#deps = deps;
    this.#now = deps.now ?? Date.now;
  }

  /**
   * Runs `work` for the context's caller: refuses with `rate_limited` (429), `unauthorized`
   * (401) or `insufficient_credits` (402) before any work, holding `maxCredits` meanwhile,
   * and debits `creditsOf(result)` after it (both priced by core/pricing.ts, not here).
   * The hold and the usage record are filed under the context's id, the one the client
   * sees (`X-Request-Id`, MCP `_meta.request_id`). A failed request is never charged.
   */
  async run<T>(
    ctx: Pick<RequestContext, 'id' | 'caller' | 'log'>,
    operation: Operation,
    maxCredits: number,
    work: () => Promise<T>,
    creditsOf: (result: T) => number,
  ): Promise<T> {
    const key = ctx.caller.key;
    if (key === undefined) return work();
    const { ledger, observer } = this.#deps;
    try {
      await this.#checkRate(key);
    } catch (err) {
      observer?.requestRefused('rate_limited');
      throw err;
    }
    const requestId = ctx.id;
    const admitted = await ledger.reserve(key.id, requestId, maxCredits, HOLD_MS, this.#now());
    if (!admitted.ok) {
      const code = admitted.reason === 'insufficient_credits' ? 'insufficient_credits' : 'unauthorized';
      observer?.requestRefused(code);
      throw code === 'insufficient_credits'
        ? insufficientCredits(admitted.balance ?? 0)
        : new AppError(
            'unauthorized',
            admitted.reason === 'revoked' ? 'The API key was revoked.' : 'The API key is not valid.',
          );
    }
    let result: T;
    try {
      result = await work();
    } catch (err) {
      await ledger
        .release(key.id, requestId)
        .catch((releaseErr: unknown) =>
          ctx.log.warn({ err: releaseErr, keyId: key.id }, 'releasing a credit hold failed'),
        );
      throw err;
    }
    const credits = creditsOf(result);
    // The answer is returned only once its debit is recorded, so credits_used always
    // equals what was debited; a failed debit fails the request (uncharged).
    try {
      await ledger.charge({ keyId: key.id, operation, credits, requestId, at: new Date(this.#now()).toISOString() });
    } catch (err) {
      // Uncharged, so the hold must not keep the credits away until it expires.
      await ledger.release(key.id, requestId).catch(() => undefined);
      throw err;
    }
    if (credits > 0) observer?.creditsCharged(operation, credits);
    return result;
  }

  async #checkRate(key: ApiKeyRecord): Promise<void> {
    const { rateLimitRequests, rateLimitWindowMs } = this.#deps.config.auth;
    if (rateLimitRequests === 0) return;
    const now = this.#now();
    const hit = await this.#deps.rateWindows.hitRateLimit(`key:${key.id}`, rateLimitWindowMs, now);
    if (hit.count > rateLimitRequests) {
      const retryAfter = Math.max(1, Math.ceil((hit.resetAt - now) / 1000));
      throw new AppError(
        'rate_limited',
        `Rate limit reached: ${rateLimitRequests} requests per ${rateLimitWindowMs / 1000} s for this key; retry in ${retryAfter} s.`,
        {
          retryAfter,
          retryable: true,
        },
      );
    }
  }
}

/**
 * The 402. A positive balance can still be refused while requests in flight hold it (each
 * holds its largest possible cost, so that concurrent requests overdraw by at most one):
 * that refusal says so, and that a retry may pass.
 */
function insufficientCredits(balance: number): AppError {
  if (balance > 0) {
    return new AppError(
      'insufficient_credits',
      `The key's remaining ${balance} credits are held by its requests in progress (each holds its largest possible cost until it is charged); retry when they finish, or top the key up.`,
      { retryable: true },
    );
  }
  return new AppError(
    'insufficient_credits',
    `The key's credits are spent (balance ${balance}); top it up to continue.`,
  );
}
