/**
 * A top-level Thing as a StructuredItem: its most specific known type, and the shape of that
 * type's family (schema-types.ts), or its raw properties when the type has none or belongs
 * to another vocabulary. Fields in the shape's order after the head, absent when unknown.
 */

import { articleShape, webPageShape } from './article.js';
import { breadcrumbListShape } from './breadcrumb-list.js';
import { eventShape } from './event.js';
import { faqPageShape } from './faq-page.js';
import { howToShape } from './how-to.js';
import { organizationShape, personShape } from './parties.js';
import { productShape } from './product.js';
import { rawProperties } from './raw-properties.js';
import { recipeShape } from './recipe.js';
import type { Family } from './schema-types.js';
import { familyOf, mainType } from './schema-types.js';
import type { Thing } from './thing.js';
import type { StructuredItem } from './types.js';
import type { ShapeContext } from './values.js';

const SHAPES: Readonly<Record<Family, (thing: Thing, ctx: ShapeContext) => Partial<StructuredItem>>> = {
  article: articleShape,
  product: productShape,
  recipe: recipeShape,
  event: eventShape,
  faq: faqPageShape,
  howto: howToShape,
  breadcrumbs: breadcrumbListShape,
  organization: organizationShape,
  person: personShape,
  webpage: webPageShape,
};

/** The fields that open every item, in this order; `properties` closes it. */
const HEAD: readonly (keyof StructuredItem)[] = ['type', 'types', 'vocab', 'sources', 'id'];

/** The item a top-level thing declares; undefined for a node without a type (only referred to). */
export function itemOf(thing: Thing, ctx: ShapeContext): StructuredItem | undefined {
  if (thing.types.length === 0) return undefined;
  const type = mainType(thing.types);
  const family = thing.vocab === undefined ? familyOf(type) : undefined;
  const fields = family === undefined ? { properties: rawProperties(thing) } : SHAPES[family](thing, ctx);
  return inOrder({
    ...fields,
    type,
    types: thing.types.length > 1 ? thing.types : undefined,
    vocab: thing.vocab,
    sources: [thing.source],
    id: thing.id,
  });
}

/**
 * `item` with its HEAD fields first, then its shape's in the shape's order, `properties`
 * last; none undefined, empty or holding undefined.
 */
export function inOrder(item: StructuredItem): StructuredItem {
  const source = item as unknown as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  const fields = [...HEAD, ...Object.keys(item).filter((field) => !HEAD.includes(field as keyof StructuredItem))];
  for (const field of fields.filter((name) => name !== 'properties').concat('properties')) {
    const value = compact(source[field]);
    if (value !== undefined) out[field] = value;
  }
  return out as unknown as StructuredItem;
}

/** A value without undefined fields; undefined for an empty list or object. */
function compact(value: unknown): unknown {
  if (Array.isArray(value)) {
    const list = value.map(compact).filter((entry) => entry !== undefined);
    return list.length > 0 ? list : undefined;
  }
  if (value === null || typeof value !== 'object') return value;
  const entries = Object.entries(value).flatMap(([key, field]) => {
    const kept = compact(field);
    return kept === undefined ? [] : [[key, kept] as const];
  });
  return entries.length > 0 ? Object.fromEntries(entries) : undefined;
}
