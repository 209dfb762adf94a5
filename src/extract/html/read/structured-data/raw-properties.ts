/**
 * A thing's properties as declared, for types without a shape (and other vocabularies'): a
 * single value as itself, several as a list, a nested node as JSON-LD writes one (its
 * `@type` and `@id` beside its properties), a reference as `{"@id"}`, unresolved.
 */

import type { Thing, Value } from './thing.js';
import { isThing } from './thing.js';
import type { RawObject, RawValue } from './types.js';

export function rawProperties(thing: Thing): RawObject {
  const out: [string, RawValue][] = [];
  for (const [name, values] of thing.props) {
    const raw = values.map(rawValue);
    out.push([name, raw.length === 1 ? raw[0]! : raw]);
  }
  // fromEntries: a property named `__proto__` stays a property.
  return Object.fromEntries(out) as RawObject;
}

function rawValue(value: Value): RawValue {
  if (!isThing(value)) return value;
  const head: [string, RawValue][] = [];
  if (value.types.length > 0) head.push(['@type', value.types.length === 1 ? value.types[0]! : value.types]);
  if (value.id !== undefined) head.push(['@id', value.id]);
  return { ...(Object.fromEntries(head) as RawObject), ...rawProperties(value) };
}
