/**
 * Every bound of the structured-data reader, in one place: what a page declares is read
 * whole only up to these, so that a catalogue or a hostile block costs no more than an
 * ordinary page, and the result stays small enough to hand an agent.
 */

import { MAX_JSON_LD_CHARS } from '../json-ld-blocks.js';

export const STRUCTURED_DATA_BOUNDS = {
  /** Items in the result; past it `truncated` and a note. */
  maxItems: 100,
  /**
   * Top-level declarations read into items (duplicates merge, so more are read than kept):
   * a catalogue's first thousand tell enough, and each costs a shape.
   */
  maxDeclarations: 1_000,
  /** Items nested in items (an Offer in a Product is 1); deeper values are left out. */
  maxDepth: 8,
  /** Characters of one JSON-LD block; a longer block is skipped with a note (json-ld-blocks.ts). */
  maxJsonLdChars: MAX_JSON_LD_CHARS,
  /** Characters of one string value. */
  maxStringChars: 5_000,
  /** Entries of one list (a property's values, an item's properties, a shape's list). */
  maxArrayEntries: 100,
  /** The whole result as JSON, in UTF-8 bytes: raw properties go first, then items. */
  maxSerializedBytes: 256 * 1024,
  /** Elements the microdata reader visits in all: `itemref`s can make many items share one large subtree. */
  maxMicrodataVisits: 200_000,
  /** Names authorsOf returns. */
  maxAuthors: 20,
  /** Notes kept (the first ones). */
  maxNotes: 20,
} as const;
