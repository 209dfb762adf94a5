/**
 * Identifiers of responses. A ULID sorts by creation time and is unique without any
 * coordination, so ids can be generated in any process of a cluster (decisions.md).
 */
import { ulid } from 'ulid';

/** `srch_` + a ULID, e.g. `srch_01J9Z3K8M4Q2XW5V7R6T0N1B2C`. */
export function newSearchId(): string {
  return `srch_${ulid()}`;
}
