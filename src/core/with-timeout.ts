/**
 * A promise that rejects when `promise` has not settled within `ms` (the timer is cleared
 * either way), with `late()` when given. The promise itself is not cancelled: it runs on,
 * its answer unread.
 */
export function withTimeout<T>(promise: Promise<T>, ms: number, late?: () => Error): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<never>(
    (_resolve, reject) => (timer = setTimeout(() => reject(late?.() ?? new Error(`no answer within ${ms} ms`)), ms)),
  );
  return Promise.race([promise, timedOut]).finally(() => clearTimeout(timer));
}

/**
 * Whether `promise` settles (fulfilled or rejected) within `ms`: the shape of a graceful close
 * that is forced when late. Never rejects; the timer is cleared either way.
 */
export async function settlesWithin(promise: Promise<unknown>, ms: number): Promise<boolean> {
  return withTimeout(
    promise.then(
      () => true,
      () => true,
    ),
    ms,
  ).catch(() => false);
}
