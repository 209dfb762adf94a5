/**
 * A promise that rejects when `promise` has not settled within `ms` (the timer is cleared
 * either way). The promise itself is not cancelled: it runs on, its answer unread.
 */
export function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>(
    (_resolve, reject) => (timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms)),
  );
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}
