/**
 * The cursor of `GET /api/usage` (docs/decisions.md, "A key holder's own usage"): opaque,
 * and the calling key's own. It carries a record's place among that key's records only
 * (LedgerStore.usagePage), never a number every key shares, whose gaps would tell how many
 * requests other keys made; and a MAC keyed by the key's stored hash, so that a cursor
 * changed by hand, or given to another key, is refused (400 naming `cursor`) rather than
 * read as some other place.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { AppError } from '../../core/errors.js';
import type { ApiKeyRecord } from '../../core/ports/key-store.js';

const POSITION_BYTES = 8;
const MAC_BYTES = 16;

type CursorKey = Pick<ApiKeyRecord, 'id' | 'hash'>;

function mac(key: CursorKey, position: Buffer): Buffer {
  return createHmac('sha256', Buffer.from(key.hash, 'hex'))
    .update(`usage-cursor:${key.id}:`)
    .update(position)
    .digest()
    .subarray(0, MAC_BYTES);
}

/** The cursor that starts the page below `position` (a record's place among the key's own). */
export function encodeUsageCursor(key: CursorKey, position: number): string {
  const body = Buffer.alloc(POSITION_BYTES);
  body.writeBigUInt64BE(BigInt(position));
  return Buffer.concat([body, mac(key, body)]).toString('base64url');
}

/** The position a cursor carries, or a 400 naming `cursor` when this key was not given it. */
export function decodeUsageCursor(key: CursorKey, cursor: string): number {
  const refused = () =>
    new AppError('invalid_request', 'Invalid request: cursor: not a next_cursor this key was given.', {
      details: [{ path: 'cursor', message: 'not a next_cursor this key was given' }],
    });
  const bytes = Buffer.from(cursor, 'base64url');
  // Node's decoder skips characters it does not know: only the exact spelling it writes back passes.
  if (bytes.length !== POSITION_BYTES + MAC_BYTES || bytes.toString('base64url') !== cursor) throw refused();
  const body = bytes.subarray(0, POSITION_BYTES);
  if (!timingSafeEqual(bytes.subarray(POSITION_BYTES), mac(key, body))) throw refused();
  const position = Number(body.readBigUInt64BE());
  if (!Number.isSafeInteger(position) || position < 1) throw refused();
  return position;
}
