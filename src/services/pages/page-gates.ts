/**
 * The page's checks that need no collaborator: the head of the final response (status,
 * Content-Type allowlist, declared size; docs/interface.md 4.2), a rendered page's moved
 * address, and the messages of the refusals (robots.txt, no readable text, no browser).
 */
import { isIP } from 'node:net';
import { AppError, contentErrorOf } from '../../core/errors.js';
import { classifyContentType, parseContentType } from '../../extract/index.js';
import { stripBrackets, type AddressPolicy } from '../../net/address-policy.js';
import { portOf, resolveGuarded, systemResolver } from '../../net/connector.js';
import type { ResponseHead } from '../../net/fetch-types.js';
import { precheckLiteralHost } from '../../net/request-url.js';
import type { ExtractOptions } from './page-request.js';

/** Where the operator turns robots.txt checks off, named in every robots_disallowed message. */
const ROBOTS_HINT = "the operator's WEBSEARCH_ROBOTS setting governs robots.txt checks";

export interface RobotsVerdictLike {
  allowed: boolean;
  source: string;
  status?: number;
  error?: AppError;
}

/**
 * Whose robots.txt refused, when not the submitted URL's: a redirect target's (refused before
 * it was requested), or that of the URL a rendered page moved to (loaded by the browser, not
 * returned).
 */
export type RobotsSubject = { redirectedTo: string } | { movedTo: string };

/**
 * The error of a URL robots.txt keeps us from. A robots.txt that cannot be fetched because the
 * host is forbidden, cannot be resolved or refuses connections says more about the host than
 * about robots: the page itself would fail the same way, so that failure is reported itself.
 */
export function robotsRefusal(verdict: RobotsVerdictLike, productToken: string, subject?: RobotsSubject): AppError {
  const cause = verdict.error?.code;
  if (verdict.error && (cause === 'forbidden_address' || cause === 'network' || cause === 'cancelled'))
    return verdict.error;
  const [lead, whose, path] =
    subject === undefined
      ? ['Not fetched', 'its robots.txt', 'this path']
      : 'redirectedTo' in subject
        ? ['Not fetched', `it redirects to ${subject.redirectedTo}, whose robots.txt`, 'that path']
        : ['Not returned', `the page moved to ${subject.movedTo}, whose robots.txt`, 'that path'];
  const why =
    verdict.source === 'unreachable'
      ? `${whose} could not be fetched (${unreachableReason(verdict)}), and RFC 9309 (2.3.1.4) says to treat that as disallowing everything; it is asked again shortly (${ROBOTS_HINT})`
      : `${whose} disallows ${path} for ${productToken} (${ROBOTS_HINT})`;
  return new AppError('robots_disallowed', `${lead}: ${why}.`, { statusCode: 0 });
}

/** A bot wall: what a search reports as `blocked` (a challenge page, or 401/403/429/451). */
export function isBotWall(err: unknown): boolean {
  return err instanceof AppError && contentErrorOf(err.code, err.statusCode) === 'blocked';
}

export function emptyContent(status: number, rendered: boolean, options: ExtractOptions): AppError {
  const named = (selectors: readonly string[]) => selectors.map((s) => JSON.stringify(s)).join(', ');
  const { includeSelectors: include = [], excludeSelectors: exclude = [] } = options.controls ?? {};
  const seen = rendered ? ' (rendered)' : '';
  const why =
    include.length > 0
      ? `No element matching include_selectors ${named(include)} holds readable text on the page${seen}`
      : exclude.length > 0
        ? `The page has no readable text once the elements matching exclude_selectors ${named(exclude)} are removed${seen}`
        : `The page has no readable text (${rendered ? 'even after its scripts ran in the headless browser' : 'empty, or written by scripts this server did not run'})`;
  return new AppError('empty_content', `${why}; nothing was charged.`, { statusCode: status });
}

/** wait_for_selector or screenshot without a browser: what to change for them to work. */
export function renderUnavailable(options: string[], renderingOff: boolean): AppError {
  const how = renderingOff
    ? 'rendering is off on this server (WEBSEARCH_RENDER=never; set it to auto)'
    : 'this server has no headless browser (install Chromium, or point CHROMIUM_PATH at one, and restart)';
  const verb = options.length > 1 ? 'need' : 'needs';
  return new AppError('render_unavailable', `${options.join(' and ')} ${verb} the headless browser, but ${how}.`, {
    statusCode: 0,
  });
}

/**
 * The address policy on the URL a rendered page ended on, when its origin is not the one the
 * fetcher checked: a literal or loopback-named host, then every address its name resolves to.
 */
export async function checkMovedAddress(
  finalUrl: string,
  checkedUrl: string,
  policy: AddressPolicy | undefined,
): Promise<void> {
  let final: URL;
  try {
    final = new URL(finalUrl);
  } catch {
    return;
  }
  if (!policy || !/^https?:$/.test(final.protocol) || final.origin === new URL(checkedUrl).origin) return;
  const moved = (error: AppError): AppError =>
    new AppError('forbidden_address', `The page moved to ${final.href}: ${error.message}`, { statusCode: 0 });
  try {
    precheckLiteralHost(final, policy);
    const host = stripBrackets(final.hostname);
    if (isIP(host) === 0) await resolveGuarded(systemResolver, policy, host, portOf(final.port, final.protocol));
  } catch (error) {
    if (error instanceof AppError && error.code === 'forbidden_address') throw moved(error);
    // A name that no longer resolves: the browser reached it through the guard, which
    // resolved it under the same policy; the status gate decides.
  }
}

function isSuccess(status: number): boolean {
  return status >= 200 && status < 300;
}

/** The gates that need only the status line and headers of the final hop. */
export function checkHead(head: ResponseHead, maxBytes: number): void {
  if (!isSuccess(head.status)) {
    const text = head.statusText ? `${head.status} ${head.statusText}` : String(head.status);
    throw new AppError('http', `The page answered HTTP ${text}.`, {
      statusCode: head.status,
      retryable: head.status >= 500 || head.status === 429,
    });
  }
  const contentType = head.headers['content-type'];
  // An unparseable or wildcard header counts as absent: the converter sniffs the body.
  if (
    contentType !== undefined &&
    parseContentType(contentType) !== null &&
    classifyContentType(contentType) === null
  ) {
    throw new AppError(
      'unsupported_content_type',
      `Content type "${contentType.split(';')[0]?.trim()}" is not supported: only HTML, XHTML, plain text, Markdown, CSV, JSON and XML (RSS, Atom, sitemaps) can be extracted.`,
      { statusCode: head.status },
    );
  }
  const declared = Number(head.headers['content-length']);
  const encoded = head.headers['content-encoding'] !== undefined && head.headers['content-encoding'] !== 'identity';
  if (!encoded && Number.isFinite(declared) && declared > maxBytes) {
    throw new AppError('too_large', `The page declares ${declared} bytes, over the ${maxBytes}-byte limit.`, {
      statusCode: head.status,
    });
  }
}

/** Why robots.txt could not be fetched, in a few words: a status, a timeout or a network failure. */
function unreachableReason(verdict: { status?: number; error?: AppError }): string {
  if (verdict.status !== undefined) return `HTTP ${verdict.status}`;
  if (verdict.error?.code === 'timeout') return 'it did not answer in time';
  return verdict.error ? `${verdict.error.code}: ${verdict.error.message}` : 'no answer';
}
