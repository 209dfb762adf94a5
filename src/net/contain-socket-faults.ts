/**
 * Defence in depth for the HTTP client: an exception thrown by undici's own socket event
 * handlers (its HTTP/1 parser asserting on a state a hostile or odd peer produced) would
 * escape to the process and end it, taking every other request with it. On a socket we
 * opened, such an exception instead destroys that socket with an error the request sees,
 * so it becomes that one URL's `network` error (mapFetchError: HTTP_CLIENT_FAULT).
 */
import type { Socket } from 'node:net';

export const HTTP_CLIENT_FAULT = 'HTTP_CLIENT_FAULT';

export function containSocketFaults<T extends Socket>(socket: T): T {
  const emit = socket.emit as (this: T, event: string | symbol, ...args: unknown[]) => boolean;
  socket.emit = function containedEmit(this: T, event: string | symbol, ...args: unknown[]): boolean {
    try {
      return emit.call(this, event, ...args);
    } catch (error) {
      this.destroy(Object.assign(new Error(describeFault(error)), { code: HTTP_CLIENT_FAULT, cause: error }));
      return true;
    }
  } as T['emit'];
  return socket;
}

/** "ERR_ASSERTION: assert(!this.paused)": the code and the last line of the message, which names the check. */
function describeFault(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const lines = error.message.split('\n').map((line) => line.trim());
  const last = lines.filter((line) => line !== '').pop() ?? error.name;
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' ? `${code}: ${last}` : last;
}
