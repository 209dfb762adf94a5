/**
 * Keeps one API key from taking the server by sending from many addresses (security
 * issue, item 3): the per-address share (connection-share.ts) bounds each address, not a
 * key that ten addresses share. A key's requests in flight are counted from the moment it
 * is authenticated, before its body is read (a slow body holds a connection as surely as
 * a slow page), until its response ends or its client goes away; past the bound one more
 * is refused with 429 `rate_limited`, before anything is charged. Open mode has no key:
 * the per-address share is its bound.
 */
import type { HttpBindings } from '@hono/node-server';
import type { MiddlewareHandler } from 'hono';
import { AppError } from '../../core/errors.js';
import type { AuthVariables } from './auth.js';

export interface KeyRequests {
  /** Counts one more request of `keyId`: its release (call it once), or undefined past the bound. */
  admit(keyId: string): (() => void) | undefined;
  /** Requests of `keyId` in flight now (tests, metrics). */
  inFlight(keyId: string): number;
  readonly max: number;
}

export function limitKeyRequests(max: number): KeyRequests {
  const counts = new Map<string, number>();
  return {
    max,
    admit(keyId) {
      const held = counts.get(keyId) ?? 0;
      if (held >= max) return undefined;
      counts.set(keyId, held + 1);
      let released = false;
      return () => {
        if (released) return;
        released = true;
        const left = (counts.get(keyId) ?? 1) - 1;
        // Keys that go quiet leave no entry behind.
        if (left > 0) counts.set(keyId, left);
        else counts.delete(keyId);
      };
    },
    inFlight: (keyId) => counts.get(keyId) ?? 0,
  };
}

/** Routes whose GET is an event stream held for a session's life: bounded per key by the MCP session limits instead. */
const EVENT_STREAMS = new Set(['/mcp', '/sse']);

/**
 * The middleware that applies `limits` after authentication (`c.var.caller` set): counts the
 * request of a key until node's response closes (finished, or the connection gone), or
 * answers 429 with `Connection: close`, so that the refused client's unread body does not
 * keep the connection.
 */
export function boundKeyRequests(
  limits: KeyRequests,
  onRefused?: (code: 'rate_limited') => void,
): MiddlewareHandler<{ Variables: AuthVariables }> {
  return async (c, next) => {
    const keyId = c.get('caller').key?.id;
    if (keyId === undefined || (c.req.method === 'GET' && EVENT_STREAMS.has(c.req.path))) return next();
    const release = limits.admit(keyId);
    if (release === undefined) {
      onRefused?.('rate_limited');
      c.header('Connection', 'close');
      throw new AppError(
        'rate_limited',
        `This API key has ${limits.max} requests in flight, the most one key may (WEBSEARCH_MAX_REQUESTS_PER_KEY); retry when one ends.`,
        { retryable: true, retryAfter: 1 },
      );
    }
    const res = (c.env as Partial<HttpBindings> | undefined)?.outgoing;
    if (res === undefined) {
      // Not on node's server (app.request in tests): the handler's end is the request's.
      try {
        await next();
      } finally {
        release();
      }
      return;
    }
    res.once('close', release);
    // The client may have gone while the key was looked up: 'close' is then already past.
    if (res.destroyed || res.writableFinished) release();
    await next();
  };
}
