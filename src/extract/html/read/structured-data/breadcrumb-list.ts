/** BreadcrumbList's shape: its ListItems sorted by position (a missing position is the entry's place in the list). */

import { STRUCTURED_DATA_BOUNDS } from './bounds.js';
import type { Thing } from './thing.js';
import { isThing } from './thing.js';
import type { BreadcrumbEntry, StructuredItem } from './types.js';
import type { ShapeContext } from './values.js';
import { nameOf, numberOf, thingsOf, urlOf, valuesOf } from './values.js';

const { maxArrayEntries } = STRUCTURED_DATA_BOUNDS;

export function breadcrumbListShape(thing: Thing, ctx: ShapeContext): Partial<StructuredItem> {
  const items: BreadcrumbEntry[] = [];
  thingsOf(thing, 'itemListElement', ctx).forEach((entry, at) => {
    const item = valuesOf(entry, 'item')[0];
    const name = nameOf(entry) ?? (item !== undefined && isThing(item) ? nameOf(ctx.index.resolve(item)) : undefined);
    if (name === undefined || items.length >= maxArrayEntries) return;
    const position = numberOf(entry, 'position') ?? at + 1;
    const url = urlOf(item, ctx, true);
    items.push(url === undefined ? { position, name } : { position, name, url });
  });
  // A stable sort: entries of one position stay in the order given.
  items.sort((a, b) => a.position - b.position);
  return { name: nameOf(thing), items };
}
