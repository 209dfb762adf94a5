/**
 * URL rules applied to the requested URL and again to every redirect target: WHATWG
 * parsing (which canonicalises `0x7f.1`, `2130706433`, `[::ffff:127.0.0.1]` into one
 * form), http/https only, no credentials, and the cheap literal-IP pre-check.
 */
import net from 'node:net';
import { AppError } from '../core/errors.js';
import { stripBrackets, type AddressPolicy } from './address-policy.js';
import { forbiddenAddressError, isLocalhostName, portOf, PRIVATE_HINT } from './connector.js';

/**
 * Parses and validates a target URL (or validates one parsed already, by the same rules).
 * Credentials (`user:pass@`) are STRIPPED, not sent and not echoed back: they are never
 * needed for public pages, must not leak into logs or results, and refusing would fail links
 * that merely carry them. The fragment is kept for reporting but is never sent (RFC 9110
 * 4.2.4); see `requestTarget`.
 */
export function parseTargetUrl(input: string | URL, context = 'URL'): URL {
  let url: URL;
  if (typeof input !== 'string') url = input;
  else {
    try {
      url = new URL(input);
    } catch {
      throw new AppError('invalid_url', `${context} is not a valid absolute URL: ${truncate(input)}`);
    }
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new AppError('invalid_url', `${context} must use http or https, not ${url.protocol.slice(0, -1)}`);
  }
  if (url.hostname === '') throw new AppError('invalid_url', `${context} has no host`);
  // Port 0 parses (RFC 3986 3.2.3 allows any digits) but names no service: nothing answers on it.
  if (url.port === '0') throw new AppError('invalid_url', `${context} names port 0, which nothing can listen on`);
  if (url.username === '' && url.password === '') return url;
  const bare = typeof input === 'string' ? url : new URL(url.href);
  bare.username = '';
  bare.password = '';
  return bare;
}

/** The URL as sent on the wire: without the fragment (an empty one, `#`, too). */
export function requestTarget(url: URL): URL {
  if (!url.href.includes('#')) return url;
  const copy = new URL(url.href);
  copy.hash = '';
  return copy;
}

/** host:port, the key of the per-host concurrency cap (default ports made explicit). */
export function hostKey(url: URL): string {
  const port = url.port || (url.protocol === 'https:' ? '443' : '80');
  return `${url.hostname}:${port}`;
}

/**
 * Refuses a forbidden literal-IP host, or a localhost name, before any socket is opened
 * or any name resolved (the connector re-checks the address it connects to).
 */
export function precheckLiteralHost(url: URL, policy: AddressPolicy | undefined): void {
  if (!policy) return;
  const host = stripBrackets(url.hostname);
  const target = { host, port: portOf(url.port, url.protocol) };
  if (net.isIP(host) !== 0 && policy(host, target)) throw forbiddenAddressError(host, host);
  // A localhost name passes only where loopback itself is allowed (then the connector
  // checks the addresses it resolves to, as for any name).
  if (isLocalhostName(host) && policy('127.0.0.1', target) && policy('::1', target)) {
    throw new AppError(
      'forbidden_address',
      `refused to connect: ${host} is a loopback name (RFC 6761). ${PRIVATE_HINT}`,
      { statusCode: 0 },
    );
  }
}

function truncate(text: string): string {
  return text.length > 200 ? `${text.slice(0, 200)}…` : text;
}
