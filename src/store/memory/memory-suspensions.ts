import type { StoredSuspension, SuspensionStore } from '../../core/ports/suspension-store.js';
import type { MemoryLifetime } from './memory-lifetime.js';

export class MemorySuspensions implements SuspensionStore {
  readonly #suspensions = new Map<string, StoredSuspension>();
  readonly #lifetime: MemoryLifetime;

  constructor(lifetime: MemoryLifetime) {
    this.#lifetime = lifetime;
  }

  async getSuspension(engine: string, now: number): Promise<StoredSuspension | undefined> {
    this.#lifetime.check();
    const s = this.#suspensions.get(engine);
    if (s === undefined || now >= s.until) return undefined;
    return { ...s };
  }

  async putSuspension(engine: string, suspension: StoredSuspension, now: number): Promise<void> {
    this.#lifetime.check();
    const current = await this.getSuspension(engine, now);
    if (current && current.until >= suspension.until) return;
    this.#suspensions.set(engine, { ...suspension });
  }

  async clearSuspensions(): Promise<void> {
    this.#suspensions.clear();
  }
}
