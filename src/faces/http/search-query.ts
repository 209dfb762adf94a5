/**
 * `GET /api/search`: the query string turned into the same object a JSON body would be
 * (docs/decisions.md, "Gaps in part 4 (endpoints)": query-string booleans and integers
 * are coerced), so one schema validates both forms. Lists accept repeated parameters and
 * comma-separated values. A value that cannot be coerced is passed on as the string it
 * is, so the schema reports it by path.
 */
const BOOLEANS = new Set(['include_content']);
const INTEGERS = new Set(['content_results', 'max_results']);
const LISTS = new Set(['engines', 'include_domains', 'exclude_domains']);

function coerceBoolean(value: string): boolean | string {
  const v = value.trim().toLowerCase();
  if (v === 'true' || v === '1' || v === '') return true;
  if (v === 'false' || v === '0') return false;
  return value;
}

function coerceInteger(value: string): number | string {
  return /^\s*-?\d+\s*$/.test(value) ? Number(value) : value;
}

export function searchQueryToBody(params: URLSearchParams): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const key of new Set(params.keys())) {
    const values = params.getAll(key);
    const last = values[values.length - 1] as string;
    if (LISTS.has(key)) {
      body[key] = values
        .flatMap((v) => v.split(','))
        .map((v) => v.trim())
        .filter((v) => v !== '');
    } else if (BOOLEANS.has(key)) {
      body[key] = coerceBoolean(last);
    } else if (INTEGERS.has(key)) {
      body[key] = coerceInteger(last);
    } else {
      body[key] = last;
    }
  }
  return body;
}
