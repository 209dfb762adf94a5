/**
 * The suspension port: engine suspensions, shared so that an engine that showed one
 * instance a CAPTCHA rests on all.
 */

export interface StoredSuspension {
  reason: 'blocked' | 'rate_limited';
  /** Epoch ms at which the engine may be asked again. */
  until: number;
  cause: string;
}

export interface SuspensionStore {
  getSuspension(engine: string, now: number): Promise<StoredSuspension | undefined>;
  /** Keeps the longer of the stored and the given suspension; expires by itself at `until`. */
  putSuspension(engine: string, suspension: StoredSuspension, now: number): Promise<void>;
  clearSuspensions(): Promise<void>;
}
