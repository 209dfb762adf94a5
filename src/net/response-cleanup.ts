/**
 * Releasing undici resources on every path: a half-read body keeps its socket busy, and
 * an Agent that is never closed keeps the process alive.
 */
import type { Readable } from 'node:stream';
import type { Dispatcher } from 'undici';
import { settlesWithin } from '../core/with-timeout.js';

/** Bytes of a redirect body read to keep the connection reusable; larger ones close it. */
const REDIRECT_BODY_DRAIN = 64 * 1024;
/** How long closeAgent() lets in-flight requests finish before destroying the sockets. */
const CLOSE_GRACE_MS = 1_000;

/** Reads (a little of) a redirect body so the connection can be reused; errors are irrelevant. */
export async function drainBody(body: Readable): Promise<void> {
  let read = 0;
  try {
    for await (const chunk of body as AsyncIterable<Buffer>) {
      read += chunk.length;
      if (read > REDIRECT_BODY_DRAIN) break;
    }
  } catch {
    // A failed redirect body changes nothing: the next hop has its own exchange.
  } finally {
    destroyBody(body);
  }
}

/** Destroys a response body (and so its exchange); a late error from it has no listener to crash. */
export function destroyBody(body: Readable): void {
  body.on('error', () => undefined);
  if (!body.destroyed) body.destroy();
}

/** Closes gracefully, then destroys whatever is still running after a short grace. */
export async function closeAgent(agent: Dispatcher): Promise<void> {
  try {
    if (!(await settlesWithin(agent.close(), CLOSE_GRACE_MS))) await agent.destroy().catch(() => undefined);
  } catch {
    // Closing is best effort: a failed close must not mask the caller's own shutdown.
  }
}
