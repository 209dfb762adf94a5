/**
 * A query string turned into the object a JSON body would be, by the schema the body is
 * validated with (`GET /api/search`, `GET /r/<url>`; docs/decisions.md, "Gaps in part 4
 * (endpoints)"): booleans and numbers are coerced, lists take repeated parameters and
 * comma-separated values; any other parameter given twice with different values is refused
 * (400, by path) rather than one value taken. The types come from the schema itself, so an option added to
 * it works here at once. A value that cannot be coerced, or a name the schema does not
 * know, is passed on as the string it is, so the schema reports it by path with every
 * other issue (a 400 naming it, whatever the name). The body has no prototype: on a plain
 * object `__proto__=x` would set the prototype (and vanish) where `constructor=x` stayed.
 */
import { z } from 'zod';
import { AppError, type ErrorDetail } from '../../core/errors.js';

type Kind = 'boolean' | 'number' | 'integer' | 'list' | 'text';

const kindsBySchema = new WeakMap<z.ZodType, Map<string, Kind>>();
/** Schemas that refuse unknown fields themselves (`.strict()`), reporting them with their other issues. */
const closed = new WeakSet<z.ZodType>();

function kindOf(property: Record<string, unknown>): Kind {
  const type = property.type ?? (property.anyOf as Record<string, unknown>[] | undefined)?.[0]?.type;
  if (type === 'boolean') return 'boolean';
  if (type === 'integer') return 'integer';
  if (type === 'number') return 'number';
  if (type === 'array') return 'list';
  return 'text';
}

/** The kind of each top-level property of an object schema, as its JSON Schema (the one the OpenAPI document shows) says. */
export function propertyKinds(schema: z.ZodType): Map<string, Kind> {
  let kinds = kindsBySchema.get(schema);
  if (!kinds) {
    const json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as {
      properties?: Record<string, Record<string, unknown>>;
      additionalProperties?: unknown;
    };
    kinds = new Map(Object.entries(json.properties ?? {}).map(([name, p]) => [name, kindOf(p)]));
    kindsBySchema.set(schema, kinds);
    if (json.additionalProperties === false) closed.add(schema);
  }
  return kinds;
}

function coerceBoolean(value: string): boolean | string {
  const v = value.trim().toLowerCase();
  if (v === 'true' || v === '1' || v === '') return true;
  if (v === 'false' || v === '0') return false;
  return value;
}

/** A decimal number as JSON writes one (no hex, no `Infinity`, no empty string, which Number() would take). */
const DECIMAL = /^\s*-?\d+(\.\d+)?([eE][+-]?\d+)?\s*$/;

/**
 * Any decimal becomes a number, for an integer setting too: `max_results=1.5` then gets the
 * schema's "expected int" at its path rather than "received string".
 */
function coerceNumber(value: string): number | string {
  return DECIMAL.test(value) ? Number(value) : value;
}

export function queryToBody(params: URLSearchParams, schema: z.ZodType): Record<string, unknown> {
  const kinds = propertyKinds(schema);
  const body = Object.create(null) as Record<string, unknown>;
  const repeated: ErrorDetail[] = [];
  const unknown: ErrorDetail[] = [];
  for (const key of new Set(params.keys())) {
    const values = params.getAll(key);
    const last = values[values.length - 1] as string;
    // A Map: no name reaches a prototype's properties (`constructor`, `toString`).
    const kind = kinds.get(key);
    if (kind === undefined && !closed.has(schema)) {
      // A schema that lets unknown fields pass must not take them from a query string either.
      unknown.push({ path: key, message: `unknown field "${key}"` });
    } else if (kind === undefined) {
      body[key] = last;
    } else if (kind !== 'list' && new Set(values).size > 1) {
      // Taking one of two different values would silently drop the other (`?q=a&q=b`).
      repeated.push({ path: key, message: `given ${values.length} times; only list parameters may repeat` });
    } else if (kind === 'list') {
      body[key] = values
        .flatMap(splitTopLevel)
        .map((v) => v.trim())
        .filter((v) => v !== '');
    } else if (kind === 'boolean') {
      body[key] = coerceBoolean(last);
    } else if (kind === 'integer' || kind === 'number') {
      body[key] = coerceNumber(last);
    } else {
      body[key] = last;
    }
  }
  if (unknown.length > 0) {
    const summary = unknown.map((d) => `${d.path}: ${d.message}`).join('; ');
    throw new AppError('invalid_request', `Invalid request: ${summary}`, { details: unknown });
  }
  if (repeated.length > 0) {
    throw new AppError(
      'invalid_request',
      `Give each of ${repeated.map((d) => d.path).join(', ')} once: only list parameters may repeat.`,
      { details: repeated },
    );
  }
  return body;
}

/**
 * A list value's items: split at the commas outside brackets and quotes, so that a CSS
 * selector such as `p:is(.a, .b)` or `[title="a,b"]` stays one item.
 */
export function splitTopLevel(value: string): string[] {
  const items: string[] = [];
  let depth = 0;
  let quote: string | null = null;
  let start = 0;
  for (let i = 0; i < value.length; i++) {
    const ch = value[i] as string;
    if (ch === '\\') i++;
    else if (quote !== null) {
      if (ch === quote) quote = null;
    } else if (ch === '"' || ch === "'") quote = ch;
    else if (ch === '(' || ch === '[') depth++;
    else if ((ch === ')' || ch === ']') && depth > 0) depth--;
    else if (ch === ',' && depth === 0) {
      items.push(value.slice(start, i));
      start = i + 1;
    }
  }
  items.push(value.slice(start));
  return items;
}
