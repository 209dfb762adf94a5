/** What the per-port store contracts share: key records to set up, a sleep, the close. */
import { randomUUID } from 'node:crypto';
import type { ApiKeyRecord } from '../../src/core/ports/key-store.js';

/** Every port's test store is closed after each test (an adapter holds a file or a connection). */
export interface Closable {
  close(): Promise<void>;
}

let seq = 0;
export function keyRecord(overrides: Partial<ApiKeyRecord> = {}): ApiKeyRecord {
  seq += 1;
  const id = `key_${String(seq).padStart(4, '0')}_${randomUUID().slice(0, 8)}`;
  return {
    id,
    name: `key ${seq}`,
    hash: randomUUID().replace(/-/g, '').repeat(2),
    prefix: `wsk_${id.slice(-6)}`,
    balance: 10,
    createdAt: new Date(Date.UTC(2026, 0, 1, 0, 0, seq)).toISOString(),
    ...overrides,
  };
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
