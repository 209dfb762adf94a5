/**
 * Identifiers of responses. A ULID sorts by creation time and is unique without any
 * coordination, so ids can be generated in any process of a cluster (docs/decisions.md,
 * "Gaps in part 2 (fields)").
 */
import { ulid } from 'ulid';

/** `srch_` + a ULID, e.g. `srch_01J9Z3K8M4Q2XW5V7R6T0N1B2C`. */
export function newSearchId(): string {
  return `srch_${ulid()}`;
}

/** `key_` + a ULID: the public id of an API key (never the secret). */
export function newKeyId(): string {
  return `key_${ulid()}`;
}

/**
 * `req_` + a ULID: a request's id (request-context.ts), sent as `X-Request-Id` (MCP:
 * `_meta.request_id`), bound to its log lines, and the id its hold and usage record are
 * filed under in the ledger.
 */
export function newRequestId(): string {
  return `req_${ulid()}`;
}
