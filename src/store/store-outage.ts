/**
 * A store that is down is not a bug: a failure of the store's server or file (Redis gone,
 * the SQLite file locked past its busy timeout, unreadable or full) reaches the faces as
 * `store_unavailable` (503 with Retry-After), not `internal_error` (500). Each adapter says
 * which of its driver's errors are such an outage; anything else passes through unchanged.
 */
import { AppError } from '../core/errors.js';

/** Seconds a client is told to wait: about as long as a Redis reconnect or a lock takes. */
export const STORE_RETRY_AFTER_S = 5;

export function storeUnavailable(kind: string, cause: unknown): AppError {
  return new AppError('store_unavailable', `The ${kind} store cannot be reached right now; retry shortly.`, {
    retryable: true,
    retryAfter: STORE_RETRY_AFTER_S,
    cause,
  });
}

/**
 * The store with every method's failure (thrown, or a rejected promise) that `isOutage`
 * recognises turned into `store_unavailable`; objects a method hands back (the cache
 * stores) are wrapped the same way. Methods run on the store itself, so its private
 * fields stay reachable.
 */
export function reportingOutages<S extends object>(store: S, kind: string, isOutage: (err: unknown) => boolean): S {
  const convert = (err: unknown): unknown =>
    !(err instanceof AppError) && isOutage(err) ? storeUnavailable(kind, err) : err;
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
          if (result instanceof Promise) return result.catch((err: unknown) => Promise.reject(convert(err)));
          return typeof result === 'object' && result !== null ? wrap(result) : result;
        };
      },
    });
  return wrap(store);
}
