import { afterEach, describe, expect, it } from 'vitest';
import { toIsoDate } from '../../src/core/dates.js';

/** [input, ISO 8601 out]: every form a page head, a feed or a search engine sends. */
const ACCEPTED: [string, string][] = [
  // ISO 8601 / RFC 3339: kept, offset and fraction as served, in RFC 3339 notation.
  ['2024-03-05', '2024-03-05'],
  ['2024-01-14T08:30:00.250Z', '2024-01-14T08:30:00.250Z'],
  [' 2024-03-05T10:00:00+01:00 ', '2024-03-05T10:00:00+01:00'],
  ['2023-10-20T14:45:00+02:00', '2023-10-20T14:45:00+02:00'],
  ['2019-11-08T15:30:00-05:00', '2019-11-08T15:30:00-05:00'],
  ['2018-08-29T16:07:16+0000', '2018-08-29T16:07:16+00:00'], // Google metatags
  ['2025-09-16T04:51:00-0600', '2025-09-16T04:51:00-06:00'],
  ['2024-03-05T10:00:00.5+01', '2024-03-05T10:00:00.5+01:00'],
  ['2021-01-18T19:55+01:00', '2021-01-18T19:55:00+01:00'],
  ['2025-12-19T11:15:56.012359519Z', '2025-12-19T11:15:56.012359519Z'],
  ['2024-05-14T00:00:00,5z', '2024-05-14T00:00:00.5Z'],
  ['2024-02-29', '2024-02-29'],
  ['2025-11-02', '2025-11-02'], // a date alone stays a date
  ['2025', '2025'],
  ['2025-06', '2025-06'],
  // No zone: UTC, never the server's zone.
  ['2025-06-30T05:41:00', '2025-06-30T05:41:00Z'], // Brave page_age
  ['2024-05-14T00:00:00.0000000', '2024-05-14T00:00:00.0000000Z'], // DuckDuckGo
  ['2025-11-02 08:09:10', '2025-11-02T08:09:10Z'],
  ['2009-05-02 00:01:21Z', '2009-05-02T00:01:21Z'],
  ['2024-05-09 00:00:00 +0000', '2024-05-09T00:00:00+00:00'],
  ['2013-08-22 21:43:53 UTC', '2013-08-22T21:43:53Z'],
  // RFC 2822 (feeds) and JavaScript's Date#toString: the instant, in UTC.
  ['Tue, 05 Mar 2024 09:30:00 GMT', '2024-03-05T09:30:00Z'],
  ['Tue, 05 Mar 2024 09:30:00 +0200', '2024-03-05T07:30:00Z'],
  ['Tue, 05 Mar 2024 09:30:00 EST', '2024-03-05T14:30:00Z'],
  ['Tue, 5 Mar 2024 09:30 PDT', '2024-03-05T16:30:00Z'],
  ['Sun, 14 Jan 2024 08:30:00 GMT', '2024-01-14T08:30:00Z'],
  ['Tue Nov 19 2019 03:05:46 GMT+0100 (Central European Standard Time)', '2019-11-19T02:05:46Z'],
  // Written dates: a date alone stays a date; a time without a zone is UTC.
  ['5 June 2025', '2025-06-05'],
  ['June 5, 2025', '2025-06-05'],
  ['June 30, 2025', '2025-06-30'],
  ['Monday, June 5, 2025', '2025-06-05'],
  ['Jan 17, 2025', '2025-01-17'],
  ['Sept. 5, 2025', '2025-09-05'],
  ['2024 Jun 30', '2024-06-30'],
  ['June 2025', '2025-06'],
  ['June 5, 2025 10:00', '2025-06-05T10:00:00Z'],
  ['June 5, 2025, 10:00 PM', '2025-06-05T22:00:00Z'],
  ['12:30 am June 5, 2025', '2025-06-05T00:30:00Z'],
  ['March 7, 2024 10:00 UTC', '2024-03-07T10:00:00Z'],
  ['Thursday, 5 June 2025 10:00:00 +0200', '2025-06-05T08:00:00Z'],
  // Numbers: year first is year-month-day; year last only when one order is a date.
  ['2019/1/22', '2019-01-22'],
  ['2025.06.05', '2025-06-05'],
  ['02/28/2023 05:17:31 AM', '2023-02-28T05:17:31Z'],
  ['28.02.2023', '2023-02-28'],
  ['5/5/2025', '2025-05-05'],
];

/** Not dates: no year, impossible values, two readings, placeholders, words. */
const REFUSED: unknown[] = [
  'June 5',
  '5 June',
  '2025-02-31',
  '2023-02-29',
  '2025-02-31T00:00:00',
  'Sun, 31 Feb 2025 10:00:00 GMT',
  'February 30, 2024',
  '2025-13-01',
  '2024-13-45',
  '2025-01-01T25:00:00',
  '2025-06-05T24:00:00Z',
  '2025-06-05T23:60:00Z',
  '2025-06-05T23:59:60Z',
  '2025-06-05T10:00:00+25:00',
  '13:00 PM June 5, 2025',
  '05/06/2025',
  '0001-01-01',
  '9999-12-31',
  '1',
  '',
  'yesterday',
  '3 days ago',
  'not a date',
  'Category 5 2019',
  'constructor 5 June 2025',
  '5. Juni 2025',
  'Thu, 09/25/2025 - 11:38',
  '1700000000',
  null,
  undefined,
  1700000000,
];

describe('toIsoDate', () => {
  it.each(ACCEPTED)('reads %j as %s', (input, expected) => {
    expect(toIsoDate(input)).toBe(expected);
  });

  it.each(REFUSED.map((value) => [value]))('refuses %j', (value) => {
    expect(toIsoDate(value)).toBeUndefined();
  });

  it('is idempotent: what it writes reads back the same', () => {
    for (const [, out] of ACCEPTED) expect(toIsoDate(out)).toBe(out);
  });

  describe('in any server time zone', () => {
    const zone = process.env.TZ;
    afterEach(() => {
      if (zone === undefined) delete process.env.TZ;
      else process.env.TZ = zone;
    });

    it.each(['America/New_York', 'Asia/Kolkata', 'Pacific/Kiritimati'])('gives the same answers under TZ=%s', (tz) => {
      process.env.TZ = tz;
      // The zone took effect, so a reader that used local time would answer differently.
      expect(new Date(2025, 0, 1).getTimezoneOffset()).not.toBe(0);
      for (const [input, expected] of ACCEPTED) expect(toIsoDate(input), input).toBe(expected);
      for (const value of REFUSED) expect(toIsoDate(value)).toBeUndefined();
    });
  });
});
