/**
 * The store in one process's memory: the reference semantics of the store ports, for unit
 * tests and library use where nothing should touch the disk. Values are kept as JSON
 * text, as the durable adapters keep them, so a reader never shares an object with a
 * writer. Nothing survives the process. One object per port (memory/); the keys and the
 * ledger share one map of keys, as the durable stores share one database.
 */
import type { ApiKeyRecord } from '../core/ports/key-store.js';
import { ComposedStore } from './composed-store.js';
import { InProcessHostGate } from './in-process-host-gate.js';
import type { MemoryCacheOptions } from './memory/memory-cache.js';
import { MemoryCache } from './memory/memory-cache.js';
import { MemoryKeys } from './memory/memory-keys.js';
import { MemoryLedger } from './memory/memory-ledger.js';
import { MemoryLifetime } from './memory/memory-lifetime.js';
import { MemoryRateWindows } from './memory/memory-rate-windows.js';
import { MemorySiteJobs } from './memory/memory-site-jobs.js';
import { MemorySuspensions } from './memory/memory-suspensions.js';

export type MemoryStoreOptions = MemoryCacheOptions;

export class MemoryStore extends ComposedStore {
  readonly kind = 'memory' as const;
  readonly #cache: MemoryCache;
  readonly #lifetime: MemoryLifetime;

  constructor(options: MemoryStoreOptions = {}) {
    const lifetime = new MemoryLifetime();
    const cache = new MemoryCache(options, lifetime);
    const keys = new Map<string, ApiKeyRecord>();
    super({
      cache,
      suspensions: new MemorySuspensions(lifetime),
      keys: new MemoryKeys(keys, lifetime),
      ledger: new MemoryLedger(keys, lifetime),
      rateWindows: new MemoryRateWindows(lifetime),
      siteJobs: new MemorySiteJobs(lifetime),
      hostGate: new InProcessHostGate(),
    });
    this.#cache = cache;
    this.#lifetime = lifetime;
  }

  async ping(): Promise<void> {
    this.#lifetime.check();
  }

  async close(): Promise<void> {
    this.#lifetime.close();
    this.#cache.clear();
  }
}
