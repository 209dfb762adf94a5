/**
 * Bounds on MCP sessions over HTTP (Streamable HTTP sessions and legacy `/sse` streams
 * together): each costs ~100 KB and, for `/sse`, a connection, so a client could otherwise
 * open them until the heap or the descriptors run out. A session is admitted only under
 * both caps (one key's share, then the whole server's) and is closed once no request has
 * touched it for the idle time; a request in progress (a long tool call) keeps it alive.
 */
import { AppError } from '../../core/errors.js';
import type { Caller } from '../../core/caller.js';

export interface SessionLimitSettings {
  maxSessions: number;
  maxSessionsPerKey: number;
  idleMs: number;
}

export interface SessionLease {
  /** A request on the session began; the returned function ends it (and restarts the idle clock). */
  begin(): () => void;
  /** The session ended: frees its place under the caps. Idempotent. */
  release(): void;
}

export interface SessionLimits {
  /** Admits a new session of `caller`, or throws `too_many_sessions` / `server_busy`; `expire` closes it when idle. */
  admit(caller: Caller, expire: () => void): SessionLease;
  count(): number;
}

/** The open-mode user has no key: all its sessions share one name. */
const LOCAL = '(local)';

export function createSessionLimits(settings: SessionLimitSettings): SessionLimits {
  const perKey = new Map<string, number>();
  let total = 0;
  const idleSeconds = Math.ceil(settings.idleMs / 1000);

  function admit(caller: Caller, expire: () => void): SessionLease {
    const key = caller.key?.id ?? LOCAL;
    const held = perKey.get(key) ?? 0;
    if (held >= settings.maxSessionsPerKey) {
      throw new AppError(
        'too_many_sessions',
        `This API key already holds ${held} MCP sessions, its limit: end one (DELETE /mcp with its Mcp-Session-Id, or close an /sse stream), or wait until an idle one closes after ${idleSeconds} s.`,
        { retryable: true },
      );
    }
    if (total >= settings.maxSessions) {
      throw new AppError('server_busy', `The server holds ${total} MCP sessions, its limit; try again later.`, {
        retryable: true,
        retryAfter: Math.min(idleSeconds, 60),
      });
    }
    perKey.set(key, held + 1);
    total += 1;

    let released = false;
    let busy = 0;
    const onIdle = () => {
      // A request still running re-arms the clock when it ends.
      if (busy === 0 && !released) expire();
    };
    const timer = setTimeout(onIdle, settings.idleMs);
    timer.unref();

    return {
      begin() {
        busy += 1;
        let ended = false;
        return () => {
          if (ended) return;
          ended = true;
          busy -= 1;
          if (busy === 0 && !released) timer.refresh();
        };
      },
      release() {
        if (released) return;
        released = true;
        clearTimeout(timer);
        total -= 1;
        const left = (perKey.get(key) ?? 1) - 1;
        if (left > 0) perKey.set(key, left);
        else perKey.delete(key);
      },
    };
  }

  return { admit, count: () => total };
}
