/**
 * Releasing undici resources on every path: a half-read body keeps its socket busy, and
 * an Agent that is never closed keeps the process alive.
 */
import type { Dispatcher } from 'undici';

/** Bytes of a redirect body read to keep the connection reusable; larger ones close it. */
const REDIRECT_BODY_DRAIN = 64 * 1024;
/** How long closeAgent() lets in-flight requests finish before destroying the sockets. */
const CLOSE_GRACE_MS = 1_000;

/** Reads (a little of) a redirect body so the connection can be reused; errors are irrelevant. */
export async function drainBody(body: Dispatcher.ResponseData['body']): Promise<void> {
  try {
    await body.dump({ limit: REDIRECT_BODY_DRAIN });
  } catch {
    destroyBody(body);
  }
}

/**
 * Destroys a response body (closing its socket). undici's BodyReadable emits an
 * AbortError when destroyed; with no listener that would be an uncaught exception.
 */
export function destroyBody(body: Dispatcher.ResponseData['body']): void {
  body.on('error', () => undefined);
  if (!body.destroyed) body.destroy();
}

/** Closes gracefully, then destroys whatever is still running after a short grace. */
export async function closeAgent(agent: Dispatcher): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const grace = new Promise<'late'>((resolve) => {
    timer = setTimeout(() => resolve('late'), CLOSE_GRACE_MS);
  });
  try {
    const closing = agent.close().then(
      () => 'closed' as const,
      () => 'closed' as const,
    );
    const outcome = await Promise.race([closing, grace]);
    if (outcome === 'late') await agent.destroy().catch(() => undefined);
  } catch {
    // Closing is best effort: a failed close must not mask the caller's own shutdown.
  } finally {
    clearTimeout(timer);
  }
}
