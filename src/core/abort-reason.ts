import { AppError } from './errors.js';

/**
 * What a wait rejects with when its signal aborts: the signal's reason when it is an Error
 * (a deadline scope's AppError), else AppError 'cancelled', so callers always catch an Error.
 */
export function abortReason(signal: AbortSignal): unknown {
  return signal.reason instanceof Error ? signal.reason : new AppError('cancelled', 'request cancelled');
}
