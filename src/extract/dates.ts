/**
 * Dates in metadata and feed items, written the way agents compare them best: ISO 8601.
 * A value already in ISO 8601 is kept as served (its offset is information); RFC 822 dates
 * of RSS and other parseable forms become UTC ISO strings; anything else is not a date.
 */

const ISO_8601 = /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/i;

export function toIsoDate(value: string): string | undefined {
  const trimmed = value.trim();
  const time = Date.parse(trimmed);
  if (Number.isNaN(time)) return undefined;
  if (ISO_8601.test(trimmed)) return trimmed;
  return new Date(time).toISOString().replace(/\.000Z$/, 'Z');
}
