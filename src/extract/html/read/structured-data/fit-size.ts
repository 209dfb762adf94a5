/**
 * The result within maxSerializedBytes as JSON: the raw properties of the last items go
 * first (the least read, the largest), then the last items, then the meta records. Sizes
 * are measured once an item, not the whole result again for each step.
 */

import { STRUCTURED_DATA_BOUNDS } from './bounds.js';
import type { Notes } from './notes.js';
import type { StructuredData, StructuredItem } from './types.js';

const { maxSerializedBytes } = STRUCTURED_DATA_BOUNDS;

/** Room kept for the notes this step adds. */
const NOTE_ROOM = 1024;

function bytes(value: unknown): number {
  return Buffer.byteLength(JSON.stringify(value) ?? '', 'utf8');
}

/** `data` with its notes; cut to the bound (and marked truncated) when it is larger. */
export function fitSize(data: StructuredData, notes: Notes): StructuredData {
  const withNotes = (): StructuredData => (notes.all.length > 0 ? { ...data, notes: [...notes.all] } : data);
  let total = bytes(withNotes());
  if (total <= maxSerializedBytes) return withNotes();
  const limit = maxSerializedBytes - NOTE_ROOM;
  const items: StructuredItem[] = [...data.items];
  const sizes = items.map(bytes);
  let stripped = 0;
  for (let at = items.length - 1; at >= 0 && total > limit; at -= 1) {
    if (items[at]!.properties === undefined) continue;
    const { properties: _dropped, ...rest } = items[at]!;
    items[at] = rest;
    const size = bytes(rest);
    total -= sizes[at]! - size;
    sizes[at] = size;
    stripped += 1;
  }
  let dropped = 0;
  while (items.length > 0 && total > limit) {
    total -= sizes.pop()! + 1;
    items.pop();
    dropped += 1;
  }
  const out: StructuredData = { ...data, items, truncated: true };
  if (total > limit) {
    delete out.open_graph;
    delete out.twitter_card;
    notes.add(`open_graph and twitter_card left out to keep the result within ${maxSerializedBytes} bytes`, true);
  }
  if (stripped > 0)
    notes.add(
      `raw properties of ${stripped} items left out to keep the result within ${maxSerializedBytes} bytes`,
      true,
    );
  if (dropped > 0) notes.add(`${dropped} items left out to keep the result within ${maxSerializedBytes} bytes`, true);
  return notes.all.length > 0 ? { ...out, notes: [...notes.all] } : out;
}
