/**
 * The memory store's open or closed state, shared by its ports: calls on a closed store
 * throw, as on a closed database.
 */
export class MemoryLifetime {
  #closed = false;

  close(): void {
    this.#closed = true;
  }

  /** Throws once the store is closed. */
  check(): void {
    if (this.#closed) throw new Error('the store is closed');
  }
}
