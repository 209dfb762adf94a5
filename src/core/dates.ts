/**
 * Dates of pages, feed items and search results, all written one way: ISO 8601, read
 * without the server's time zone (a value that names no zone is UTC, a date alone stays
 * a date).
 *   ISO 8601 ("2024-03-05", "2024-03-05T10:00:00+01:00", "2024-03-05 10:00"): kept, in
 *     RFC 3339 notation (T, seconds, ±HH:MM, Z when no zone); its offset is information.
 *   RFC 2822 and written dates ("Tue, 05 Mar 2024 09:30:00 GMT", "June 5, 2025 10:00 AM",
 *     "5 June 2025", "2025/04/01", "02/28/2023 05:17"): the date, or the instant in UTC.
 * Not dates: impossible ones (2025-02-31, month 13, hour 25, offset +25:00), dates
 * without a year ("June 5": no year is guessed), numeric dates that read both ways
 * (05/06/2025), years outside 1900-2200 (placeholders such as 0001-01-01), anything else.
 */

const ISO_8601 =
  /^(\d{4})(?:-(\d{2})(?:-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?\s*(Z|UTC|GMT|[+-]\d{2}(?::?\d{2})?)?)?)?)?$/i;

const MONTHS = [
  'january',
  'february',
  'march',
  'april',
  'may',
  'june',
  'july',
  'august',
  'september',
  'october',
  'november',
  'december',
];
const WEEKDAY =
  /^(?:mon|tue|tues|wed|thu|thur|thurs|fri|sat|sun|monday|tuesday|wednesday|thursday|friday|saturday|sunday)\.?$/i;
/** The zone names RFC 2822 defines (and JavaScript's Date.prototype.toString writes). */
const ZONE_MINUTES: ReadonlyMap<string, number> = new Map([
  ['z', 0],
  ['ut', 0],
  ['utc', 0],
  ['gmt', 0],
  ['est', -300],
  ['edt', -240],
  ['cst', -360],
  ['cdt', -300],
  ['mst', -420],
  ['mdt', -360],
  ['pst', -480],
  ['pdt', -420],
]);
const OFFSET = /^(?:gmt|utc|ut)?([+-])(\d{2}):?(\d{2})$/i;
const TIME = /^(\d{1,2}):(\d{2})(?::(\d{2}))?(am|pm)?$/i;
const NUMERIC_DATE = /^(\d{1,4})([/.-])(\d{1,2})\2(\d{1,4})$/;

export function toIsoDate(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const trimmed = value.trim();
  const iso = ISO_8601.exec(trimmed);
  return iso === null ? writtenDate(trimmed) : isoForm(iso);
}

function isoForm(match: RegExpExecArray): string | undefined {
  const [, y, mo, d, h, mi, s = '00', fraction, zone] = match;
  const year = Number(y);
  if (mo === undefined) return validDate(year, 1, 1) ? y : undefined;
  if (d === undefined) return validDate(year, Number(mo), 1) ? `${y}-${mo}` : undefined;
  if (!validDate(year, Number(mo), Number(d))) return undefined;
  if (h === undefined) return `${y}-${mo}-${d}`;
  if (!validTime(Number(h), Number(mi), Number(s))) return undefined;
  const offset = zone === undefined || /^(?:z|utc|gmt)$/i.test(zone) ? 'Z' : isoOffset(zone);
  if (offset === undefined) return undefined;
  return `${y}-${mo}-${d}T${h}:${mi}:${s}${fraction === undefined ? '' : `.${fraction}`}${offset}`;
}

/** `+02`, `+0200` or `+02:00` as `+02:00`. */
function isoOffset(zone: string): string | undefined {
  const hours = zone.slice(1, 3);
  const minutes = zone.slice(3).replace(':', '') || '00';
  return Number(hours) <= 23 && Number(minutes) <= 59 ? `${zone[0]}${hours}:${minutes}` : undefined;
}

/**
 * A date as people and RFC 2822 write it: a month name, a day and a four-digit year in any
 * order ("June 5, 2025", "5 Jun 2025", "2025 Jun 5"), or numbers ("2025/04/01",
 * "02/28/2023"); a weekday, a time (with am/pm) and a zone may come with it, and a
 * comment in parentheses may close it. Any other word and it is not a date.
 */
function writtenDate(text: string): string | undefined {
  let year: number | undefined;
  let month: number | undefined;
  let day: number | undefined;
  let time: { hour: number; minute: number; second: number } | undefined;
  let meridiem: string | undefined;
  let offset: number | undefined;
  for (const token of text.replace(/\s*\([^()]*\)$/, '').split(/[\s,]+/)) {
    if (token === '' || WEEKDAY.test(token)) continue;
    let m: RegExpExecArray | null;
    if (/^\d{4}$/.test(token) && year === undefined) year = Number(token);
    else if (/^\d{1,2}$/.test(token) && day === undefined) day = Number(token);
    else if (
      (m = NUMERIC_DATE.exec(token)) !== null &&
      year === undefined &&
      month === undefined &&
      day === undefined
    ) {
      const date = numericDate(m);
      if (date === undefined) return undefined;
      [year, month, day] = date;
    } else if ((m = TIME.exec(token)) !== null && time === undefined) {
      time = { hour: Number(m[1]), minute: Number(m[2]), second: Number(m[3] ?? '0') };
      meridiem = m[4];
    } else if (/^[ap]m$/i.test(token) && time !== undefined && meridiem === undefined) meridiem = token;
    else if ((m = OFFSET.exec(token)) !== null && offset === undefined) {
      if (Number(m[2]) > 23 || Number(m[3]) > 59) return undefined;
      offset = (m[1] === '-' ? -1 : 1) * (Number(m[2]) * 60 + Number(m[3]));
    } else if (ZONE_MINUTES.has(token.toLowerCase()) && offset === undefined)
      offset = ZONE_MINUTES.get(token.toLowerCase());
    else if (monthNamed(token) !== undefined && month === undefined) month = monthNamed(token);
    else return undefined;
  }
  if (year === undefined || month === undefined) return undefined;
  if (day === undefined) {
    if (time !== undefined || offset !== undefined || !validDate(year, month, 1)) return undefined;
    return `${year}-${pad(month)}`;
  }
  if (!validDate(year, month, day)) return undefined;
  if (time === undefined) return offset === undefined ? `${year}-${pad(month)}-${pad(day)}` : undefined;
  let hour = time.hour;
  if (meridiem !== undefined) {
    if (hour < 1 || hour > 12) return undefined;
    hour = (hour % 12) + (meridiem.toLowerCase() === 'pm' ? 12 : 0);
  }
  if (!validTime(hour, time.minute, time.second)) return undefined;
  const utc = Date.UTC(year, month - 1, day, hour, time.minute, time.second) - (offset ?? 0) * 60_000;
  return new Date(utc).toISOString().replace('.000Z', 'Z');
}

/** Year first is year-month-day; year last is read only when one order (m/d or d/m) is a date. */
function numericDate(match: RegExpExecArray): [number, number, number] | undefined {
  const [, a = '', , b = '', c = ''] = match;
  if (a.length === 4 && c.length <= 2) return [Number(a), Number(b), Number(c)];
  if (a.length > 2 || c.length !== 4) return undefined;
  const year = Number(c);
  const monthFirst = validDate(year, Number(a), Number(b));
  const dayFirst = validDate(year, Number(b), Number(a));
  if (monthFirst && (!dayFirst || a === b)) return [year, Number(a), Number(b)];
  return dayFirst && !monthFirst ? [year, Number(b), Number(a)] : undefined;
}

function monthNamed(word: string): number | undefined {
  const name = word.toLowerCase().replace(/\.$/, '');
  if (name.length < 3) return undefined;
  const index = MONTHS.findIndex((month) => month === name || (name.length === 3 && month.startsWith(name)));
  return index >= 0 ? index + 1 : name === 'sept' ? 9 : undefined;
}

function validDate(year: number, month: number, day: number): boolean {
  if (year < 1900 || year > 2200 || month < 1 || month > 12 || day < 1) return false;
  return day <= new Date(Date.UTC(year, month, 0)).getUTCDate();
}

function validTime(hour: number, minute: number, second: number): boolean {
  return hour <= 23 && minute <= 59 && second <= 59;
}

function pad(n: number): string {
  return String(n).padStart(2, '0');
}
