/**
 * A `Store` made of one object per port, all over one backend's shared database: each
 * backend's store (sqlite-store.ts, redis-store.ts, memory-store.ts) extends it with its
 * kind, its opening, `ping` and `close`, so the delegation is written once.
 */
import type { CacheNamespace, CacheStore, CacheStores } from '../core/ports/cache-port.js';
import type { HostGate } from '../core/ports/host-gate.js';
import type { KeyStore } from '../core/ports/key-store.js';
import type { LedgerStore } from '../core/ports/ledger-store.js';
import type { RateWindowStore } from '../core/ports/rate-window-store.js';
import type { SiteJobStore } from '../core/ports/site-job-store.js';
import type { HealthStore, Store } from '../core/ports/store-port.js';
import type { SuspensionStore } from '../core/ports/suspension-store.js';

/** A backend's port implementations. */
export interface StorePorts {
  cache: CacheStores;
  suspensions: SuspensionStore;
  keys: KeyStore;
  ledger: LedgerStore;
  rateWindows: RateWindowStore;
  siteJobs: SiteJobStore;
  hostGate: HostGate;
}

export abstract class ComposedStore implements Store {
  abstract readonly kind: HealthStore['kind'];
  readonly #ports: StorePorts;

  protected constructor(ports: StorePorts) {
    this.#ports = ports;
  }

  /** Site crawl jobs: a port of many methods, kept apart rather than spread over the store. */
  get siteJobs(): SiteJobStore {
    return this.#ports.siteJobs;
  }

  /** Per-host politeness: a port of its own, as `siteJobs` (its `acquire` would be ambiguous here). */
  get hostGate(): HostGate {
    return this.#ports.hostGate;
  }

  abstract ping(): Promise<void>;
  abstract close(): Promise<void>;

  cache<V>(namespace: CacheNamespace): CacheStore<V> {
    return this.#ports.cache.cache<V>(namespace);
  }

  getSuspension(...args: Parameters<SuspensionStore['getSuspension']>): ReturnType<SuspensionStore['getSuspension']> {
    return this.#ports.suspensions.getSuspension(...args);
  }

  putSuspension(...args: Parameters<SuspensionStore['putSuspension']>): ReturnType<SuspensionStore['putSuspension']> {
    return this.#ports.suspensions.putSuspension(...args);
  }

  clearSuspensions(): ReturnType<SuspensionStore['clearSuspensions']> {
    return this.#ports.suspensions.clearSuspensions();
  }

  createKey(...args: Parameters<KeyStore['createKey']>): ReturnType<KeyStore['createKey']> {
    return this.#ports.keys.createKey(...args);
  }

  keyByHash(...args: Parameters<KeyStore['keyByHash']>): ReturnType<KeyStore['keyByHash']> {
    return this.#ports.keys.keyByHash(...args);
  }

  keyById(...args: Parameters<KeyStore['keyById']>): ReturnType<KeyStore['keyById']> {
    return this.#ports.keys.keyById(...args);
  }

  listKeys(): ReturnType<KeyStore['listKeys']> {
    return this.#ports.keys.listKeys();
  }

  keyCount(): ReturnType<KeyStore['keyCount']> {
    return this.#ports.keys.keyCount();
  }

  revokeKey(...args: Parameters<KeyStore['revokeKey']>): ReturnType<KeyStore['revokeKey']> {
    return this.#ports.keys.revokeKey(...args);
  }

  topUp(...args: Parameters<KeyStore['topUp']>): ReturnType<KeyStore['topUp']> {
    return this.#ports.keys.topUp(...args);
  }

  reserve(...args: Parameters<LedgerStore['reserve']>): ReturnType<LedgerStore['reserve']> {
    return this.#ports.ledger.reserve(...args);
  }

  releaseOwned(...args: Parameters<LedgerStore['releaseOwned']>): ReturnType<LedgerStore['releaseOwned']> {
    return this.#ports.ledger.releaseOwned(...args);
  }

  charge(...args: Parameters<LedgerStore['charge']>): ReturnType<LedgerStore['charge']> {
    return this.#ports.ledger.charge(...args);
  }

  release(...args: Parameters<LedgerStore['release']>): ReturnType<LedgerStore['release']> {
    return this.#ports.ledger.release(...args);
  }

  usage(...args: Parameters<LedgerStore['usage']>): ReturnType<LedgerStore['usage']> {
    return this.#ports.ledger.usage(...args);
  }

  usagePage(...args: Parameters<LedgerStore['usagePage']>): ReturnType<LedgerStore['usagePage']> {
    return this.#ports.ledger.usagePage(...args);
  }

  heldCredits(...args: Parameters<LedgerStore['heldCredits']>): ReturnType<LedgerStore['heldCredits']> {
    return this.#ports.ledger.heldCredits(...args);
  }

  hitRateLimit(...args: Parameters<RateWindowStore['hitRateLimit']>): ReturnType<RateWindowStore['hitRateLimit']> {
    return this.#ports.rateWindows.hitRateLimit(...args);
  }
}
