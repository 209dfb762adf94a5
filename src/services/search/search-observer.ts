/** What search reports for the operator's metrics (services/metrics.ts implements it). */
export interface SearchObserver {
  cacheLookup(kind: 'search', hit: boolean): void;
  /** An engine answered (`ok`, `empty`) or failed (its error's kind). */
  engineCall(engine: string, outcome: string): void;
  /** An engine was suspended after repeated failures (the reason: a bounded set). */
  engineSuspended(engine: string, reason: string): void;
}
