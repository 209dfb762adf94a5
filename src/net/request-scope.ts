/**
 * One AbortSignal per fetch that fires on the overall deadline OR the caller's signal,
 * remembering which one fired first. The deadline covers the whole exchange — queueing
 * for a host slot, every redirect hop, a body that drips one byte at a time — which the
 * idle timeouts (undici headersTimeout/bodyTimeout) alone cannot catch.
 */
import { AppError } from '../core/errors.js';

export class RequestScope {
  readonly #controller = new AbortController();
  readonly #timer: NodeJS.Timeout;
  readonly #timeoutMs: number;
  readonly #external: AbortSignal | undefined;
  readonly #onExternalAbort = (): void => this.#abort('cancelled');
  #failure: AppError | undefined;

  constructor(timeoutMs: number, external: AbortSignal | undefined) {
    this.#timeoutMs = timeoutMs;
    this.#external = external;
    this.#timer = setTimeout(() => this.#abort('timeout'), timeoutMs);
    if (external?.aborted) this.#abort('cancelled');
    else external?.addEventListener('abort', this.#onExternalAbort, { once: true });
  }

  get signal(): AbortSignal {
    return this.#controller.signal;
  }

  /** The error to report when the scope was aborted (timeout or cancellation), else undefined. */
  get failure(): AppError | undefined {
    return this.#failure;
  }

  /** Throws the scope's failure if it already fired (cheap check between steps). */
  throwIfAborted(): void {
    if (this.#failure) throw this.#failure;
  }

  #abort(why: 'timeout' | 'cancelled'): void {
    if (this.#failure) return;
    this.#failure =
      why === 'timeout'
        ? new AppError('timeout', `no complete response within ${this.#timeoutMs} ms`, { retryable: true })
        : new AppError('cancelled', 'request cancelled by the caller', { cause: this.#external?.reason });
    // Aborting makes undici destroy the socket and the body stream (no leaked sockets).
    this.#controller.abort(this.#failure);
  }

  dispose(): void {
    clearTimeout(this.#timer);
    this.#external?.removeEventListener('abort', this.#onExternalAbort);
  }
}
