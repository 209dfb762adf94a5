/**
 * Redirect rules (RFC 9110 15.4), applied by hand because every hop must go through the
 * same URL and address checks as the first request.
 */
import { AppError } from '../core/errors.js';
import { parseTargetUrl } from './request-url.js';

export type Method = 'GET' | 'POST' | 'HEAD';

/** 300 (multiple choices) and 304 (not modified) are not followed; 305/306 are obsolete. */
export const REDIRECT_STATUSES: ReadonlySet<number> = new Set([301, 302, 303, 307, 308]);

/** Headers that carry credentials; never forwarded to another origin (RFC 9110 15.4). */
const CREDENTIAL_HEADERS = ['authorization', 'cookie', 'proxy-authorization'];
/** Headers that describe a request body; dropped when the method turns into GET. */
const BODY_HEADERS = [
  'content-type',
  'content-length',
  'content-encoding',
  'content-language',
  'content-location',
  'transfer-encoding',
];

/**
 * Resolves Location against the current URL. Undefined when it is missing or not a URL at
 * all: the 3xx response is then returned as is. A parsable target with another scheme
 * (ftp:, file:, javascript:) is an error: following it is never allowed.
 */
export function redirectTarget(location: string | undefined, current: URL, status: number): URL | undefined {
  if (location === undefined || location.trim() === '') return undefined;
  let resolved: URL;
  try {
    resolved = new URL(location.trim(), current);
  } catch {
    return undefined;
  }
  // RFC 9110 10.2.2: a Location without fragment inherits the original one.
  if (resolved.hash === '' && current.hash !== '') resolved.hash = current.hash;
  try {
    return parseTargetUrl(resolved.href, 'redirect target');
  } catch (error) {
    if (error instanceof AppError) {
      throw new AppError(error.code, `${error.message} (redirected by a ${status} from ${current.href})`, {
        statusCode: status,
      });
    }
    throw error;
  }
}

/**
 * 303 turns anything but HEAD into GET; 301/302 turn POST into GET (what every client
 * does, RFC 9110 15.4.2/15.4.3 notes); 307/308 keep method and body.
 */
export function redirectMethod(status: number, method: Method): Method {
  if (status === 303 && method !== 'HEAD') return 'GET';
  if ((status === 301 || status === 302) && method === 'POST') return 'GET';
  return method;
}

export function sameOrigin(a: URL, b: URL): boolean {
  return a.origin === b.origin;
}

/** Headers for the next hop: credentials dropped cross-origin, body headers dropped with the body. */
export function redirectHeaders(
  headers: Record<string, string>,
  from: URL,
  to: URL,
  bodyDropped: boolean,
): Record<string, string> {
  const next: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (!sameOrigin(from, to) && CREDENTIAL_HEADERS.includes(name)) continue;
    if (bodyDropped && BODY_HEADERS.includes(name)) continue;
    next[name] = value;
  }
  return next;
}

export function tooManyRedirects(message: string, status: number): AppError {
  return new AppError('too_many_redirects', message, { statusCode: status });
}
