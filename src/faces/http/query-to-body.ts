/**
 * A query string turned into the object a JSON body would be, by the schema the body is
 * validated with (`GET /api/search`, `GET /r/<url>`; docs/decisions.md, "Gaps in part 4
 * (endpoints)"): booleans and numbers are coerced, lists take repeated parameters and
 * comma-separated values. The types come from the schema itself, so an option added to
 * it works here at once. A value that cannot be coerced, or a name the schema does not
 * know, is passed on as the string it is, so the schema reports it by path.
 */
import { z } from 'zod';

type Kind = 'boolean' | 'number' | 'integer' | 'list' | 'text';

const kindsBySchema = new WeakMap<z.ZodType, Map<string, Kind>>();

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
    };
    kinds = new Map(Object.entries(json.properties ?? {}).map(([name, p]) => [name, kindOf(p)]));
    kindsBySchema.set(schema, kinds);
  }
  return kinds;
}

function coerceBoolean(value: string): boolean | string {
  const v = value.trim().toLowerCase();
  if (v === 'true' || v === '1' || v === '') return true;
  if (v === 'false' || v === '0') return false;
  return value;
}

function coerceNumber(value: string, integer: boolean): number | string {
  return (integer ? /^\s*-?\d+\s*$/ : /^\s*-?\d+(\.\d+)?\s*$/).test(value) ? Number(value) : value;
}

export function queryToBody(params: URLSearchParams, schema: z.ZodType): Record<string, unknown> {
  const kinds = propertyKinds(schema);
  const body: Record<string, unknown> = {};
  for (const key of new Set(params.keys())) {
    const values = params.getAll(key);
    const last = values[values.length - 1] as string;
    const kind = kinds.get(key) ?? 'text';
    if (kind === 'list') {
      body[key] = values
        .flatMap((v) => v.split(','))
        .map((v) => v.trim())
        .filter((v) => v !== '');
    } else if (kind === 'boolean') {
      body[key] = coerceBoolean(last);
    } else if (kind === 'integer' || kind === 'number') {
      body[key] = coerceNumber(last, kind === 'integer');
    } else {
      body[key] = last;
    }
  }
  return body;
}
