/**
 * The store: everything that must survive a restart or be shared between instances, as
 * one port per purpose, so that each service depends only on what it uses:
 *
 *   CacheStores      (cache-port.ts)        page, search and robots.txt caches
 *   SuspensionStore  (suspension-store.ts)  engine suspensions        <- engine-health
 *   KeyStore         (key-store.ts)         API keys and balances     <- api-keys
 *   LedgerStore      (ledger-store.ts)      holds, charges, usage     <- metering, api-keys
 *   RateWindowStore  (rate-window-store.ts) rate-limit windows        <- metering
 *   SiteJobStore     (site-job-store.ts)    site crawl jobs            <- site-crawl-service (as `siteJobs`)
 *   HostGate         (host-gate.ts)         per-host politeness, fleet-wide (as `hostGate`)
 *   HealthStore      (here)                 kind and reachability     <- /healthz
 *
 * Every adapter (store/sqlite-store.ts, store/redis-store.ts, store/memory-store.ts for
 * unit tests) implements all of them as one `Store`, which the composition root opens,
 * hands out port by port, and closes. Values are JSON: adapters serialise with
 * JSON.stringify and must hand back an equal value (deep-equal), never a shared reference.
 */
import type { CacheStores } from './cache-port.js';
import type { HostGate } from './host-gate.js';
import type { KeyStore } from './key-store.js';
import type { LedgerStore } from './ledger-store.js';
import type { RateWindowStore } from './rate-window-store.js';
import type { SiteJobStore } from './site-job-store.js';
import type { SuspensionStore } from './suspension-store.js';

export interface HealthStore {
  readonly kind: 'memory' | 'sqlite' | 'redis';
  /** Throws when the store cannot be reached (health checks). */
  ping(): Promise<void>;
}

export interface Store extends CacheStores, SuspensionStore, KeyStore, LedgerStore, RateWindowStore, HealthStore {
  /** Site crawl jobs: a port of its own (many methods whose names would be ambiguous on the store). */
  readonly siteJobs: SiteJobStore;
  /** Slots and spacing per host, held across every instance sharing the store. */
  readonly hostGate: HostGate;
  /** Only whoever opened the store closes it (the composition root, a CLI command). */
  close(): Promise<void>;
}
