/**
 * Who is calling: a key, or nobody (unmetered local use: stdio, the command line, the
 * library, a loopback server while no key exists). Part of every request's context
 * (request-context.ts); metering charges the key, the MCP transports tie sessions to it.
 */
import type { ApiKeyRecord } from './ports/key-store.js';

export interface Caller {
  key?: ApiKeyRecord;
}

export const LOCAL_CALLER: Caller = Object.freeze({});
