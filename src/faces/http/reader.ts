/**
 * `GET /r/<url>`: the reader in one line (docs/decisions.md, "The reader: GET /r/<url>").
 * `curl 127.0.0.1:8787/r/https://example.com/a` answers the page as `text/markdown`: its
 * title, its source URL, then the Markdown, as `websearch-mcp extract` prints it; with
 * `Accept: application/json`, the crawl response of `POST /api/crawl` itself. It is that
 * endpoint under another form: the same Operations.extract, so the same validation,
 * per-URL rules, credits and auth.
 *
 * Everything after `/r/` is the URL, its own query string included. To give options too,
 * percent-encode the URL (`/r/https%3A%2F%2Fexample.com%2Fa?format=html&max_chars=500`):
 * then the query string holds the options, every one `/api/crawl` takes, read by the
 * schema (query-to-body.ts). A failed URL answers the status of its error type (table
 * below) and one line of text, `<error_type>: <message>`. The text shows all it was asked
 * for: a slice's length and where it goes on (also as headers), the links under the
 * content; a screenshot, which text cannot show, needs JSON.
 */
import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { AppError, type ExtractionErrorType } from '../../core/errors.js';
import type { ExtractResponse, ExtractResult } from '../../core/schemas.js';
import type { z } from 'zod';
import { queryToBody } from './query-to-body.js';
import { linksText, readerText } from '../reader-text.js';
import { sliceNote } from '../slice-note.js';

export const READER_PREFIX = '/r/';

/**
 * The status a failed URL answers, by its error type: the target's fault is a gateway's
 * (502, 504: RFC 9110 15.6.3, 15.6.5), a refusal of ours is 403, a page that is there but
 * cannot be read is 422, a server that cannot take it now is 503, and a URL that is no URL is 400.
 */
export const READER_STATUS: Record<ExtractionErrorType, ContentfulStatusCode> = {
  invalid_url: 400,
  forbidden_address: 403,
  robots_disallowed: 403,
  unsupported_content_type: 422,
  too_large: 422,
  empty_content: 422,
  http: 502,
  network: 502,
  blocked: 502,
  render_failed: 502,
  timeout: 504,
  // The server cannot take it now (a full queue, no browser to render with).
  busy: 503,
  render_unavailable: 503,
};

/** Whether a client asked for JSON rather than text. */
export function wantsJson(c: Context): boolean {
  return /\bapplication\/json\b/i.test(c.req.header('accept') ?? '');
}

/**
 * The crawl request of a reader request target (path and query string as received): the
 * URL after `/r/`, verbatim with its query string, or percent-encoded with the options in
 * the query string. `json`: the client takes JSON (Accept), the only form a screenshot
 * can come back in.
 */
export function readerRequest(requestUrl: string, extractSchema: z.ZodType, json: boolean): Record<string, unknown> {
  const target = new URL(requestUrl);
  const rest = target.pathname.slice(READER_PREFIX.length);
  if (rest === '') {
    throw new AppError('invalid_request', 'Give the URL after /r/, e.g. /r/https://example.com/.', {
      details: [{ path: 'urls', message: 'the URL is the path after /r/' }],
    });
  }
  if (!/^https?%3A/i.test(rest)) return { urls: [rest + target.search] };
  let url: string;
  try {
    url = decodeURIComponent(rest);
  } catch {
    throw new AppError('invalid_request', 'The percent-encoded URL after /r/ does not decode.', {
      details: [{ path: 'urls', message: 'malformed percent-encoding' }],
    });
  }
  const options = queryToBody(target.searchParams, extractSchema);
  if ('urls' in options) {
    throw new AppError('invalid_request', 'The URL is the path after /r/, not a urls parameter.', {
      details: [{ path: 'urls', message: 'give the URL after /r/' }],
    });
  }
  // Refused before anything is fetched or charged: text/markdown has no place for a PNG.
  if (options.screenshot === true && !json) {
    throw new AppError('invalid_request', 'screenshot needs Accept: application/json: text cannot show a PNG.', {
      details: [
        { path: 'screenshot', message: 'needs Accept: application/json (the PNG comes back base64 in the result)' },
      ],
    });
  }
  return { ...options, urls: [url] };
}

/** Headers of every reader answer: the page is hostile input, never to be sniffed or run under this origin. */
export const READER_HEADERS = {
  'X-Content-Type-Options': 'nosniff',
  'Content-Security-Policy': "default-src 'none'; sandbox",
} as const;

/** A slice's headers (max_chars / start_char): the whole page's length, and where the next slice starts when there is one. */
export const TOTAL_CHARS_HEADER = 'X-Total-Chars';
export const NEXT_START_CHAR_HEADER = 'X-Next-Start-Char';

/**
 * This reader request with `start_char` set: the next slice. Server-relative, the host and
 * scheme a client used being its own; only the percent-encoded form takes max_chars, so
 * the query string is the options'.
 */
function readOnTarget(requestUrl: string, startChar: number): string {
  const target = new URL(requestUrl);
  target.searchParams.set('start_char', String(startChar));
  return `${target.pathname}${target.search}`;
}

/** The crawl response of one URL as the reader answers it. */
export function readerResponse(c: Context, response: ExtractResponse): Response {
  for (const [name, value] of Object.entries(READER_HEADERS)) c.header(name, value);
  const result = response.results[0] as ExtractResult;
  const status: ContentfulStatusCode =
    result.success || result.error_type === undefined ? 200 : READER_STATUS[result.error_type];
  if (result.total_chars !== undefined) c.header(TOTAL_CHARS_HEADER, String(result.total_chars));
  if (result.next_start_char !== undefined) c.header(NEXT_START_CHAR_HEADER, String(result.next_start_char));
  if (wantsJson(c)) return c.json(response, status);
  if (!result.success) {
    return c.text(`${result.error_type ?? 'error'}: ${oneLine(result.error ?? 'the URL failed')}\n`, status);
  }
  // A URI set in text goes between < and > (RFC 3986, Appendix C): no "." after it is taken for part of it.
  const note = sliceNote(result, (next) => `GET <${readOnTarget(c.req.url, next)}>`);
  const parts = [readerText(result)];
  if (note !== undefined) parts.push(`${note}\n`);
  if (result.links !== undefined) parts.push(`${linksText(result.links, result.links_truncated === true)}\n`);
  // HTML stays text: a page served as text/html under this origin could script it.
  const type = result.html !== undefined ? 'text/plain; charset=utf-8' : 'text/markdown; charset=utf-8';
  return c.body(parts.join('\n'), 200, { 'content-type': type });
}

/** A request-level error answer (JSON error body) rewritten as one line of text, status and headers kept. */
export async function errorAsText(res: Response): Promise<Response> {
  let line = `error: ${res.statusText || res.status}`;
  try {
    const body = (await res.clone().json()) as { error?: { code?: string; message?: string } };
    if (body.error?.code) line = `${body.error.code}: ${oneLine(body.error.message ?? '')}`;
  } catch {
    // Not the JSON error body: the status says it all.
  }
  const headers = new Headers(res.headers);
  headers.set('content-type', 'text/plain; charset=utf-8');
  headers.delete('content-length');
  return new Response(`${line}\n`, { status: res.status, headers });
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}
