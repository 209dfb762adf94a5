/**
 * DNS-rebinding protection for a server bound to loopback: a web page on an attacker's
 * domain that re-resolves to 127.0.0.1 still sends its own name in `Host`, so only
 * loopback names are accepted there (the MCP transport spec asks servers to validate
 * Origin/Host for the same reason), plus the public names a reverse proxy in front passes
 * on (`WEBSEARCH_ALLOWED_HOSTS`). On every server, a request from a browser must come from
 * the server's own origin: a foreign or `null` Origin, or `Sec-Fetch-Site: cross-site`, is
 * refused (blind CSRF), while clients that send no Origin (curl, SDKs) are unaffected.
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

/**
 * The Origin a request may carry: the server's own (the `Host` it was reached at, over
 * HTTP, or HTTPS through a proxy) or one of the proxy's public hosts. Anything else is refused.
 */
function sameOrigin(origin: string, hostHeader: string | undefined, allowed: ReadonlySet<string>): boolean {
  let parsed: URL;
  try {
    parsed = new URL(origin);
  } catch {
    return false;
  }
  if (allowed.has(parsed.hostname.toLowerCase())) return true;
  return (
    (parsed.protocol === 'http:' || parsed.protocol === 'https:') &&
    hostHeader !== undefined &&
    parsed.host.toLowerCase() === hostHeader.trim().toLowerCase()
  );
}

export function hostGuard(bindHost: string, allowedHosts: readonly string[] = []): MiddlewareHandler {
  const allowed = new Set(allowedHosts.map((h) => h.toLowerCase()));
  // DNS rebinding only concerns a server bound to loopback; browsers' cross-site requests
  // (CSRF: a page the user visits posting to the local server) concern every server.
  const checkHost = isLoopbackHost(bindHost);
  const accepted = (name: string) => isLoopbackHost(name) || allowed.has(name);
  return async (c, next) => {
    const host = c.req.header('host');
    // RFC 9112 3.2: an HTTP/1.1 request without Host is a 400 (HTTP/1.0 may omit it).
    const version = (c.env as { incoming?: { httpVersion?: string } } | undefined)?.incoming?.httpVersion;
    if (host === undefined && version !== undefined && version !== '1.0') {
      return errorResponse(c, 'invalid_request', 'An HTTP/1.1 request must carry a Host header (RFC 9112 3.2).');
    }
    if (checkHost && host !== undefined && !accepted(hostNameOf(host))) {
      return errorResponse(c, 'forbidden_host', `Host "${host}" is not accepted by a server bound to loopback.`);
    }
    // Sec-Fetch-Site is set by the browser and cannot be forged by a page.
    if (c.req.header('sec-fetch-site')?.trim().toLowerCase() === 'cross-site') {
      return errorResponse(c, 'forbidden_origin', 'Cross-site requests from a web page are not accepted.');
    }
    const origin = c.req.header('origin');
    // A request carrying an Origin comes from a browser: only the server's own pages may
    // call it. `Origin: null` (a sandboxed frame, a file, a redirect) is never its own.
    if (origin !== undefined && !sameOrigin(origin, host, allowed)) {
      return errorResponse(
        c,
        'forbidden_origin',
        `Origin "${origin}" is not this server's; requests from other web pages are not accepted.`,
      );
    }
    await next();
  };
}
