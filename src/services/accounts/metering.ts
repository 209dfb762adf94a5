/**
 * Metering of the two operations for a caller with an API key (docs/interface.md 8;
 * docs/decisions.md, "Credits and keys"): the per-key rate limit, then admission (a hold
 * of the request's largest possible cost, admitted only when the balance less the live
 * holds covers it, so no balance goes below zero), the work, and one atomic debit of exactly `credits_used` with
 * its usage record. A caller without a key (stdio, the CLI, loopback while no key exists)
 * is not metered.
 */
import type { Config } from '../../core/config.js';
import { AppError, STORE_RETRY_AFTER_S } from '../../core/errors.js';
import type { ApiKeyRecord } from '../../core/ports/key-store.js';
import type { LedgerStore, Operation, UsageRecord } from '../../core/ports/ledger-store.js';
import type { RateWindowStore } from '../../core/ports/rate-window-store.js';
import type { RequestContext } from '../../core/request-context.js';
import { now as deadlineNow } from '../../core/deadline-scope.js';
import type { Logger } from '../../core/logger.js';
import { withTimeout } from '../../core/with-timeout.js';

/** Hooks for the metrics the faces export (optional: the CLI has none). */
export interface MeteringObserver {
  creditsCharged(operation: Operation, credits: number): void;
  requestRefused(code: string): void;
}

/** What a caller learns of its charge: the debit and the key's balance after it (null: unlimited). */
export interface Charged {
  credits: number;
  balance: number | null;
}

/** Per request: what it was about (kept with its usage record), and who hears of its charge. */
export interface MeteringRunOptions {
  subject?: Pick<UsageRecord, 'urls' | 'query'>;
  /** Called once the debit is recorded, before the answer is returned (the HTTP face's `X-Credits-Remaining`). */
  onCharged?: (charged: Charged) => void;
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
 * How long a hold outlives its request's deadline when the request never settles (its
 * instance was killed): the work stops at the deadline, so this only covers the charge
 * that follows it, with room for a slow store.
 */
export const HOLD_MARGIN_MS = 60_000;

export class Metering {
  readonly #deps: MeteringDeps;
  readonly #now: () => number;
  /** Releasing the holds this instance left in an earlier life, once, before its first admission. */
  #ownHoldsReleased: Promise<void> | undefined;

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
    ctx: Pick<RequestContext, 'id' | 'caller' | 'log' | 'deadline'>,
    operation: Operation,
    maxCredits: number,
    work: () => Promise<T>,
    creditsOf: (result: T) => number,
    options: MeteringRunOptions = {},
  ): Promise<T> {
    const key = ctx.caller.key;
    if (key === undefined) return work();
    const { ledger, observer } = this.#deps;
    await this.#beforeDeadline(ctx, this.#checkRate(key));
    const requestId = ctx.id;
    await this.#beforeDeadline(ctx, this.releaseOwnHolds(ctx.log));
    const holdMs = Math.ceil(Math.max(0, ctx.deadline - deadlineNow())) + HOLD_MARGIN_MS;
    try {
      await this.#beforeDeadline(
        ctx,
        this.#reserve(key, requestId, maxCredits, holdMs, this.#deps.config.server.instanceId),
      );
    } catch (err) {
      // A hold the store did not confirm in time may still be taken once it answers: a
      // release sent after it (the same connection keeps the order) drops it then.
      if (err instanceof AppError && err.code === 'store_unavailable')
        void ledger.release(key.id, requestId).catch(() => undefined);
      throw err;
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
    let charged: Charged;
    try {
      const at = new Date(this.#now()).toISOString();
      const { balance } = await ledger.charge({ keyId: key.id, operation, credits, requestId, at, ...options.subject });
      charged = { credits, balance };
    } catch (err) {
      // Uncharged, so the hold must not keep the credits away until it expires.
      await ledger.release(key.id, requestId).catch(() => undefined);
      throw err;
    }
    if (credits > 0) observer?.creditsCharged(operation, credits);
    options.onCharged?.(charged);
    return result;
  }

  /**
   * Admission of work that is charged later, piece by piece (a site crawl's pages): the
   * rate limit, then whether the key could pay for the first piece now (`credits`), with
   * the same refusals as `run` (429, 401, 402); nothing is held or charged here.
   */
  async admit(ctx: Pick<RequestContext, 'id' | 'caller'>, credits: number): Promise<void> {
    const key = ctx.caller.key;
    if (key === undefined) return;
    await this.#checkRate(key);
    const probe = `${ctx.id}#admit`;
    await this.#reserve(key, probe, credits, HOLD_MARGIN_MS);
    await this.#deps.ledger.release(key.id, probe);
  }

  /** Holds `credits` under `holdId`, or throws the refusal (401, 402) the caller answers with. */
  async #reserve(key: ApiKeyRecord, holdId: string, credits: number, holdMs: number, owner?: string): Promise<void> {
    const admitted = await this.#deps.ledger.reserve(key.id, holdId, credits, holdMs, this.#now(), owner);
    if (admitted.ok) return;
    const code = admitted.reason === 'insufficient_credits' ? 'insufficient_credits' : 'unauthorized';
    this.#deps.observer?.requestRefused(code);
    throw admitted.reason === 'insufficient_credits'
      ? insufficientCredits(credits, admitted.balance, admitted.available)
      : new AppError(
          'unauthorized',
          admitted.reason === 'revoked' ? 'The API key was revoked.' : 'The API key is not valid.',
        );
  }

  /**
   * A key holder's own account (GET /api/usage): the balance as read when the request
   * was authenticated, the credits its requests in progress hold, and a page of its usage
   * records, newest first. Reads only: not rate-limited, not charged.
   */
  async account(key: ApiKeyRecord, page: { limit: number; before?: number }) {
    const { ledger } = this.#deps;
    const [held, records] = await Promise.all([
      ledger.heldCredits(key.id, this.#now()),
      ledger.usagePage(key.id, page),
    ]);
    return { balance: key.balance, held, ...records };
  }

  /**
   * A killed instance's holds name it (WEBSEARCH_INSTANCE_ID): none of their requests can
   * still run once it is back, so it drops them rather than let them lock the keys until
   * they expire. A server calls this as it starts, before it listens; else the first
   * metered request does. Tried again on the next request if the store failed. Holds of
   * site-crawl pages are the job's (`site:<job>`), not the instance's: they stay.
   */
  releaseOwnHolds(log: Logger): Promise<void> {
    const owner = this.#deps.config.server.instanceId;
    this.#ownHoldsReleased ??= this.#deps.ledger.releaseOwned(owner).then(
      (released) => {
        if (released > 0) log.info({ released, owner }, 'released the credit holds of an earlier run');
      },
      (err: unknown) => {
        this.#ownHoldsReleased = undefined;
        throw err;
      },
    );
    return this.#ownHoldsReleased;
  }

  /**
   * A store call made before the work, bounded by what is left of the request's deadline
   * when that is shorter than the store's own bound (WEBSEARCH_STORE_TIMEOUT_MS): a store
   * that does not answer fails the request inside its deadline, as store_unavailable.
   */
  #beforeDeadline<T>(ctx: Pick<RequestContext, 'deadline'>, call: Promise<T>): Promise<T> {
    const left = ctx.deadline - deadlineNow();
    if (left >= this.#deps.config.store.timeoutMs) return call;
    return withTimeout(
      call,
      Math.max(0, left),
      () =>
        new AppError('store_unavailable', "The store did not answer within the request's deadline; retry shortly.", {
          retryable: true,
          retryAfter: STORE_RETRY_AFTER_S,
        }),
    );
  }

  async #checkRate(key: ApiKeyRecord): Promise<void> {
    const { rateLimitRequests, rateLimitWindowMs } = this.#deps.config.auth;
    if (rateLimitRequests === 0) return;
    const now = this.#now();
    const hit = await this.#deps.rateWindows.hitRateLimit(`key:${key.id}`, rateLimitWindowMs, now);
    if (hit.count > rateLimitRequests) {
      this.#deps.observer?.requestRefused('rate_limited');
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
 * The 402: how many credits the request needs (its largest possible cost) and how many
 * the key has free. When requests in progress hold the difference, a retry may pass.
 */
function insufficientCredits(needed: number, balance: number, available: number): AppError {
  const free = Math.max(0, available);
  const need = `This request needs up to ${needed} credit${needed === 1 ? '' : 's'} (its largest possible cost)`;
  if (balance >= needed) {
    return new AppError(
      'insufficient_credits',
      `${need}; the key has ${free} available: ${balance - free} of its ${balance} are held by its requests in progress until they are charged. Retry when they finish, or top the key up.`,
      { retryable: true },
    );
  }
  return new AppError(
    'insufficient_credits',
    `${need}; the key has ${free} available (balance ${balance}). Top it up, or ask for less (fewer URLs, no stealth, no content).`,
  );
}
