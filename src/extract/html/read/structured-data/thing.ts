/**
 * The reader's one model of a declared item, whatever its syntax: JSON-LD (json-ld.ts),
 * microdata (microdata.ts) and RDFa (rdfa.ts) are each read into Things, and one set of
 * shapes reads Things (item-of.ts). A property's values are always a list.
 */

import { STRUCTURED_DATA_BOUNDS } from './bounds.js';
import type { Notes } from './notes.js';
import { CUT_LIST_NOTE, CUT_STRING_NOTE } from './notes.js';
import type { StructuredSource } from './types.js';

const { maxStringChars, maxArrayEntries } = STRUCTURED_DATA_BOUNDS;

export type Scalar = string | number | boolean;
export type Value = Scalar | Thing;

export interface Thing {
  /** schema.org type names (or the terms of `vocab`), as declared, without duplicates. */
  types: string[];
  /** The vocabulary's IRI (or prefix) when the types are not schema.org's. */
  vocab?: string;
  id?: string;
  /** Property name (schema.org's short name) -> values, in the order declared. */
  props: Map<string, Value[]>;
  source: StructuredSource;
}

export function newThing(source: StructuredSource): Thing {
  return { types: [], props: new Map(), source };
}

export function isThing(value: Value): value is Thing {
  return typeof value === 'object';
}

/** A node that only points at another (`{"@id": "#author"}`). */
export function isReference(thing: Thing): boolean {
  return thing.id !== undefined && thing.types.length === 0 && thing.props.size === 0;
}

/** `value` at most maxStringChars long (never cut inside a surrogate pair). */
export function cutString(value: string, notes: Notes): string {
  if (value.length <= maxStringChars) return value;
  notes.add(CUT_STRING_NOTE);
  const end = /[\uD800-\uDBFF]/.test(value[maxStringChars - 1]!) ? maxStringChars - 1 : maxStringChars;
  return value.slice(0, end);
}

/** Adds `values` to the property `name`, within maxArrayEntries values a property and properties a thing. */
export function addValues(thing: Thing, name: string, values: readonly Value[], notes: Notes): void {
  if (values.length === 0 || name === '') return;
  const list = thing.props.get(name);
  if (list === undefined && thing.props.size >= maxArrayEntries) {
    notes.add(CUT_LIST_NOTE);
    return;
  }
  const into = list ?? [];
  for (const value of values) {
    if (into.length >= maxArrayEntries) {
      notes.add(CUT_LIST_NOTE);
      break;
    }
    into.push(value);
  }
  if (list === undefined) thing.props.set(name, into);
}

/** One thing from two declarations of it: the first's types, id and values first, the second's missing ones added. */
export function mergedThings(first: Thing, second: Thing): Thing {
  const props = new Map(first.props);
  for (const [name, values] of second.props)
    if (!props.has(name) && props.size < maxArrayEntries) props.set(name, values);
  const types = [...first.types, ...second.types.filter((type) => !first.types.includes(type))];
  const merged: Thing = { types, props, source: first.source };
  const vocab = first.types.length > 0 ? first.vocab : second.vocab;
  if (vocab !== undefined) merged.vocab = vocab;
  const id = first.id ?? second.id;
  if (id !== undefined) merged.id = id;
  return merged;
}
