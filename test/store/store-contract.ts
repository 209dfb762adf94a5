/**
 * The contract of the store, port by port (core/ports/store-port.ts), run unchanged against
 * every adapter (memory, SQLite, Redis): each port's suite sees only its port (the ledger
 * also the keys whose balances it moves), so a service's expectations of its port are
 * what is tested.
 */
import { describe } from 'vitest';
import type { Store } from '../../src/core/ports/store-port.js';
import { cacheContract } from './cache-contract.js';
import { healthContract } from './health-contract.js';
import { keyContract } from './key-contract.js';
import { ledgerContract } from './ledger-contract.js';
import { rateWindowContract } from './rate-window-contract.js';
import { siteJobContract } from './site-job-contract.js';
import { suspensionContract } from './suspension-contract.js';
import { usagePageContract } from './usage-page-contract.js';

/** Registers every port's contract tests for stores made by `make` (a fresh, empty store each time). */
export function storeContract(name: string, make: () => Promise<Store>): void {
  describe(`${name}: the store contract`, () => {
    cacheContract(make);
    suspensionContract(make);
    keyContract(make);
    ledgerContract(make);
    usagePageContract(make);
    rateWindowContract(make);
    healthContract(make);
    siteJobContract(make);
  });
}
