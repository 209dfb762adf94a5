/**
 * DNS-rebinding protection for a server bound to loopback: a web page on an attacker's
 * domain that re-resolves to 127.0.0.1 still sends its own name in `Host`, so only
 * loopback names are accepted there (the MCP transport spec asks servers to validate
 * Origin/Host for the same reason), plus the public names a reverse proxy in front passes
 * on (`WEBSEARCH_ALLOWED_HOSTS`). A browser Origin other than these is refused.
 */
import type { MiddlewareHandler } from 'hono';
import { errorResponse } from './error-response.js';

const LOOPBACK_NAMES = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);

export function isLoopbackHost(host: string): boolean {
  return LOOPBACK_NAMES.has(host.toLowerCase()) || /^127(\.\d{1,3}){3}$/.test(host);
}

/** Host name of a `Host` header value (drops the port; keeps IPv6 brackets). */
function hostNameOf(hostHeader: string): string {
  const match = /^(\[[^\]]+\]|[^:]+)(:\d+)?$/.exec(hostHeader.trim());
  return (match?.[1] ?? hostHeader).toLowerCase();
}

export function hostGuard(bindHost: string, allowedHosts: readonly string[] = []): MiddlewareHandler {
  if (!isLoopbackHost(bindHost)) return async (_c, next) => next();
  const allowed = new Set(allowedHosts.map((h) => h.toLowerCase()));
  const accepted = (name: string) => isLoopbackHost(name) || allowed.has(name);
  return async (c, next) => {
    const host = c.req.header('host');
    if (host !== undefined && !accepted(hostNameOf(host))) {
      return errorResponse(c, 'forbidden_host', `Host "${host}" is not accepted by a server bound to loopback.`);
    }
    const origin = c.req.header('origin');
    if (origin !== undefined && origin !== 'null') {
      let originHost = '';
      try {
        originHost = new URL(origin).hostname;
      } catch {
        // An unparsable Origin is treated as foreign.
      }
      if (!accepted(originHost.toLowerCase())) {
        return errorResponse(c, 'forbidden_origin', `Origin "${origin}" is not accepted by a server bound to loopback.`);
      }
    }
    await next();
  };
}
