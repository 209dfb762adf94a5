/**
 * The in-process host gate (the SQLite and memory stores): the contract, with the three
 * "instances" one gate, since they are one process.
 */
import { describe, expect, it } from 'vitest';
import { InProcessHostGate } from '../../src/store/in-process-host-gate.js';
import { MemoryStore } from '../../src/store/memory-store.js';
import { SqliteStore } from '../../src/store/sqlite-store.js';
import { hostGateContract } from './host-gate-contract.js';

hostGateContract('in-process host gate', async () => {
  const store = new MemoryStore();
  const gate = store.hostGate;
  return { gates: [gate, gate, gate], close: () => store.close() };
});

describe('in-process host gate', () => {
  it('is the gate of the memory and SQLite stores, one per store', async () => {
    const memory = new MemoryStore();
    const sqlite = SqliteStore.open(':memory:');
    try {
      expect(memory.hostGate).toBeInstanceOf(InProcessHostGate);
      expect(sqlite.hostGate).toBeInstanceOf(InProcessHostGate);
      const signal = new AbortController().signal;
      const one = await memory.hostGate.acquire('a.example:443', { limit: 1, delayMs: 0, signal });
      // Another store's gate does not count the first store's holder.
      const other = await sqlite.hostGate.acquire('a.example:443', { limit: 1, delayMs: 0, signal });
      await Promise.all([one.release(), other.release()]);
    } finally {
      await memory.close();
      await sqlite.close();
    }
  });
});
