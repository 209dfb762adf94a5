/**
 * A store that is down is not a bug: a failure of the store's server or file (Redis gone,
 * the SQLite file locked past its busy timeout, unreadable or full) reaches the faces as
 * `store_unavailable` (503 with Retry-After), not `internal_error` (500). Each adapter says
 * which of its driver's errors are such an outage; anything else passes through unchanged.
 * A store that does not answer at all (a frozen Redis keeps its connection open) is one
 * too: every call is bounded by the store timeout (WEBSEARCH_STORE_TIMEOUT_MS).
 */
import { AppError, STORE_RETRY_AFTER_S } from '../core/errors.js';
import { withTimeout } from '../core/with-timeout.js';

export { STORE_RETRY_AFTER_S };

export function storeUnavailable(kind: string, cause: unknown): AppError {
  return new AppError('store_unavailable', `The ${kind} store cannot be reached right now; retry shortly.`, {
    retryable: true,
    retryAfter: STORE_RETRY_AFTER_S,
    cause,
  });
}

export interface OutageOptions {
  /** A call not settled by then fails with `store_unavailable` (its work runs on, unread). */
  timeoutMs?: number;
}

/**
 * Methods whose whole run is not bounded (each of their Redis commands still is, by the
 * client's commandTimeout): closing falls back to a disconnect by itself; releaseOwned walks
 * every key of a Redis (SCAN), which on a large one takes longer than one call should, and
 * runs as a server starts; usage is the operator's whole listing, on no request's path;
 * the host gate's acquire waits for a host's turn, for as long as its signal lets it.
 */
const UNBOUNDED = new Set<PropertyKey>(['close', 'releaseOwned', 'usage', 'acquire']);

/**
 * The store with every method's failure (thrown, or a rejected promise) that `isOutage`
 * recognises turned into `store_unavailable`, and every promise bounded by `timeoutMs`;
 * objects a method hands back (the cache stores) are wrapped the same way. Methods run on
 * the store itself, so its private fields stay reachable.
 */
export function reportingOutages<S extends object>(
  store: S,
  kind: string,
  isOutage: (err: unknown) => boolean,
  options: OutageOptions = {},
): S {
  const convert = (err: unknown): unknown =>
    !(err instanceof AppError) && isOutage(err) ? storeUnavailable(kind, err) : err;
  const { timeoutMs } = options;
  const bounded = (property: PropertyKey, promise: Promise<unknown>): Promise<unknown> =>
    timeoutMs === undefined || UNBOUNDED.has(property)
      ? promise
      : withTimeout(promise, timeoutMs, () =>
          storeUnavailable(kind, new Error(`${String(property)}: no answer within ${timeoutMs} ms`)),
        );
  const wrap = <T extends object>(target: T): T =>
    new Proxy(target, {
      get(object, property) {
        const value: unknown = Reflect.get(object, property, object);
        // A port exposed as a property (store.siteJobs) reports outages as the store's methods do.
        if (typeof value === 'object' && value !== null) return wrap(value);
        if (typeof value !== 'function') return value;
        return (...args: unknown[]) => {
          let result: unknown;
          try {
            result = (value as (...a: unknown[]) => unknown).apply(object, args);
          } catch (err) {
            throw convert(err);
          }
          if (result instanceof Promise)
            return bounded(
              property,
              result.catch((err: unknown) => Promise.reject(convert(err))),
            );
          return typeof result === 'object' && result !== null ? wrap(result) : result;
        };
      },
    });
  return wrap(store);
}
