/**
 * Authentication of the HTTP routes that do work (docs/interface.md 5;
 * docs/decisions.md, "Credits and keys"): an API key as `Authorization: Bearer <key>` or
 * `x-api-key: <key>`, on both endpoints and on the MCP transports. Open mode, where no
 * key is needed, holds only while no key exists and only on a server bound to loopback (a
 * single user's machine); it ends as soon as a key is created, without a restart.
 */
import { timingSafeEqual } from 'node:crypto';
import type { MiddlewareHandler } from 'hono';
import { AppError } from '../../core/errors.js';
import type { ApiKeys } from '../../services/accounts/api-keys.js';
import type { Caller } from '../../core/caller.js';
import { LOCAL_CALLER } from '../../core/caller.js';

export interface AuthVariables {
  caller: Caller;
}

/** The key a request presents, or undefined; a malformed Authorization header is an error. */
export function presentedKey(headers: { get(name: string): string | null | undefined }): string | undefined {
  const authorization = headers.get('authorization')?.trim();
  if (authorization) {
    // RFC 6750 2.1: the scheme is case-insensitive, one space, then the token.
    const match = /^bearer\s+(\S+)$/i.exec(authorization);
    if (!match) throw new AppError('unauthorized', 'The Authorization header must be "Bearer <API key>".');
    return match[1];
  }
  const apiKey = headers.get('x-api-key')?.trim();
  return apiKey ? apiKey : undefined;
}

export interface Authenticator {
  /** The caller of a request, or `unauthorized`. */
  callerOf(headers: { get(name: string): string | null | undefined }): Promise<Caller>;
}

export function createAuthenticator(
  keys: Pick<ApiKeys, 'authenticate' | 'count'>,
  openModeAllowed: boolean,
): Authenticator {
  return {
    async callerOf(headers) {
      const secret = presentedKey(headers);
      if (secret !== undefined) return { key: await keys.authenticate(secret) };
      if (openModeAllowed && (await keys.count()) === 0) return LOCAL_CALLER;
      const send = 'send "Authorization: Bearer <key>" or "x-api-key: <key>"';
      // A local server whose keys were all revoked stays closed: say why, and the way back.
      if (openModeAllowed)
        throw new AppError(
          'unauthorized',
          `An API key is required: ${send}. A key was created in this server's store, and open mode (no key) holds only for a store where no key ever existed, revoked keys included: create a key with "websearch-mcp keys create", or start on a fresh store (--store-path / WEBSEARCH_STORE_PATH).`,
        );
      throw new AppError('unauthorized', `An API key is required: ${send}.`);
    },
  };
}

/** Sets `c.var.caller`, or answers 401 with `WWW-Authenticate: Bearer` (RFC 6750 3). */
export function requireCaller(
  auth: Authenticator,
  onRefused?: (code: 'unauthorized') => void,
): MiddlewareHandler<{ Variables: AuthVariables }> {
  return async (c, next) => {
    let caller: Caller;
    try {
      caller = await auth.callerOf(c.req.raw.headers);
    } catch (err) {
      // A store that does not answer is not a refused credential (it is store_unavailable).
      if (err instanceof AppError && err.code === 'unauthorized') onRefused?.('unauthorized');
      throw err;
    }
    c.set('caller', caller);
    await next();
  };
}

function sameSecret(a: string, b: string): boolean {
  const [x, y] = [Buffer.from(a), Buffer.from(b)];
  return x.length === y.length && timingSafeEqual(x, y);
}

/**
 * Who may read `/metrics` (docs/decisions.md, "Metrics for operators only"): its counts are
 * the whole server's, every team's, so an API key does not open it; only the operator's
 * metrics token (`WEBSEARCH_METRICS_TOKEN`) does. Without that setting, only open mode's
 * single user (a loopback server with no key ever created) may read it.
 */
export function metricsGate(keys: Pick<ApiKeys, 'count'>, metricsToken: string | undefined, openModeAllowed: boolean) {
  return async (headers: { get(name: string): string | null | undefined }): Promise<boolean> => {
    if (metricsToken !== undefined) {
      let secret: string | undefined;
      try {
        secret = presentedKey(headers);
      } catch {
        return false;
      }
      return secret !== undefined && sameSecret(secret, metricsToken);
    }
    return openModeAllowed && (await keys.count()) === 0;
  };
}
