/**
 * Reads a JSON request body: 415 unless the body is JSON, 413 over the size
 * limit (counted while streaming, not trusted from Content-Length alone), 400 with the
 * offending paths when the JSON or the schema is wrong.
 */
import type { Context } from 'hono';
import { AppError } from '../../core/errors.js';

function isJsonMediaType(header: string | undefined): boolean {
  const essence = header?.split(';')[0]?.trim().toLowerCase() ?? '';
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
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => undefined);
      throw new AppError('payload_too_large', `The request body exceeds the ${limit}-byte limit.`);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

export async function readJsonBody(c: Context, limit: number): Promise<unknown> {
  const declaredJson = isJsonMediaType(c.req.header('content-type'));
  const text = await readLimited(c, limit);
  if (!declaredJson) {
    // `curl -d '{...}'` labels a JSON body as a form; a body that is a JSON object is
    // accepted whatever its label (browsers' cross-site posts are stopped by the Origin
    // check of the host guard, or by authentication). Anything else is not JSON: 415.
    const parsed = tryParse(text);
    if (parsed !== undefined && typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) return parsed;
    const got = c.req.header('content-type');
    throw new AppError(
      'unsupported_media_type',
      got ? `Send the body as JSON with "Content-Type: application/json" (got "${got}").` : 'Send a JSON body with "Content-Type: application/json".',
    );
  }
  if (text.trim() === '') {
    throw new AppError('invalid_request', 'The request body is empty; send a JSON object.', { details: [{ path: '(body)', message: 'empty body' }] });
  }
  try {
    return JSON.parse(text);
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    throw new AppError('invalid_request', 'The request body is not valid JSON.', { details: [{ path: '(body)', message }] });
  }
}

function tryParse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
