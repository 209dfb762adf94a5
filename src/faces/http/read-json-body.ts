/**
 * Reads a JSON request body, the one reader of every route that takes one (`/api/*`,
 * `/mcp`, `/messages`): 415 unless the body is JSON, 413 over the size limit (counted
 * while streaming, not trusted from Content-Length alone), 400 when nested deeper than
 * any real request (checked by a linear scan before JSON.parse, whose cost grows with
 * depth), 400 with the offending paths when the JSON or the schema is wrong.
 */
import type { Context } from 'hono';
import { AppError } from '../../core/errors.js';

/**
 * Deepest nesting of arrays and objects accepted. Requests and MCP messages nest a few
 * levels (tool arguments inside params inside the message); 64 leaves room for any
 * client while a hostile 2-million-deep array is refused without being parsed.
 */
export const MAX_JSON_DEPTH = 64;

function isJsonMediaType(essence: string): boolean {
  return essence === 'application/json' || /^application\/[\w.+-]+\+json$/.test(essence);
}

async function readLimited(c: Context, limit: number): Promise<string> {
  const declared = Number(c.req.header('content-length'));
  if (Number.isFinite(declared) && declared > limit) {
    throw new AppError('payload_too_large', `The request body is ${declared} bytes; the limit is ${limit}.`);
  }
  const stream = c.req.raw.body;
  if (!stream) return '';
  const reader = stream.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    let chunk: Awaited<ReturnType<typeof reader.read>>;
    try {
      chunk = await reader.read();
    } catch (err) {
      // The connection went before the body did (the client left, or the request timeout cut it).
      throw new AppError('cancelled', 'The client closed the connection before sending its whole body.', {
        cause: err,
      });
    }
    const { done, value } = chunk;
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => undefined);
      throw new AppError('payload_too_large', `The request body exceeds the ${limit}-byte limit.`);
    }
    chunks.push(value);
  }
  return decodeUtf8(Buffer.concat(chunks));
}

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });

/**
 * JSON is UTF-8 (RFC 8259 8.1): bytes that are not would be replaced by U+FFFD, silently
 * changing a URL or query, so they are refused. A leading BOM (which some Windows tools
 * write) is dropped, as 8.1 allows.
 */
function decodeUtf8(bytes: Buffer): string {
  try {
    return utf8.decode(bytes);
  } catch {
    throw new AppError('invalid_request', 'The request body is not valid UTF-8; send JSON encoded as UTF-8.', {
      details: [{ path: '(body)', message: 'not valid UTF-8' }],
    });
  }
}

/** Deepest nesting of `[` / `{` outside strings, stopping as soon as it passes `max`. */
export function jsonDepthExceeds(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    if (inString) {
      if (ch === 0x5c)
        i += 1; // backslash: skip the escaped character
      else if (ch === 0x22) inString = false;
    } else if (ch === 0x22) inString = true;
    else if (ch === 0x5b || ch === 0x7b) {
      depth += 1;
      if (depth > max) return true;
    } else if (ch === 0x5d || ch === 0x7d) depth -= 1;
  }
  return false;
}

function assertDepth(text: string): void {
  if (jsonDepthExceeds(text, MAX_JSON_DEPTH)) {
    throw new AppError(
      'invalid_request',
      `The request body nests arrays or objects deeper than ${MAX_JSON_DEPTH} levels.`,
      {
        details: [{ path: '(body)', message: `nesting deeper than ${MAX_JSON_DEPTH}` }],
      },
    );
  }
}

function parseJson(text: string): unknown {
  assertDepth(text);
  try {
    return JSON.parse(text);
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    throw new AppError('invalid_request', 'The request body is not valid JSON.', {
      details: [{ path: '(body)', message }],
    });
  }
}

export interface ReadJsonOptions {
  /**
   * Accept a JSON object labelled as a form, as `curl -d '{...}'` sends it, when no browser
   * sent it (no Origin, no Sec-Fetch-Site): a page may post forms anywhere without a
   * preflight, so from a browser only a JSON label is taken.
   */
  curlForms?: boolean;
}

export async function readJsonBody(c: Context, limit: number, options: ReadJsonOptions = {}): Promise<unknown> {
  const got = c.req.header('content-type');
  const essence = got?.split(';')[0]?.trim().toLowerCase() ?? '';
  const declaredJson = isJsonMediaType(essence);
  const curlForm =
    options.curlForms === true &&
    essence === 'application/x-www-form-urlencoded' &&
    c.req.header('origin') === undefined &&
    c.req.header('sec-fetch-site') === undefined;
  const unsupported = () =>
    new AppError(
      'unsupported_media_type',
      got
        ? `Send the body as JSON with "Content-Type: application/json" (got "${got}").`
        : 'Send a JSON body with "Content-Type: application/json".',
    );
  if (!declaredJson && !curlForm) throw unsupported();
  // A compressed body would reach JSON.parse as bytes; RFC 9110 15.5.16: 415 for a coding not supported.
  const coding = c.req.header('content-encoding')?.trim().toLowerCase();
  if (coding !== undefined && coding !== '' && coding !== 'identity') {
    throw new AppError(
      'unsupported_media_type',
      `Send the body uncompressed: Content-Encoding "${coding.slice(0, 40)}" is not accepted.`,
    );
  }
  const text = await readLimited(c, limit);
  if (curlForm) {
    assertDepth(text);
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      throw unsupported();
    }
    if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) return parsed;
    throw unsupported();
  }
  if (text.trim() === '') {
    throw new AppError('invalid_request', 'The request body is empty; send a JSON object.', {
      details: [{ path: '(body)', message: 'empty body' }],
    });
  }
  return parseJson(text);
}
