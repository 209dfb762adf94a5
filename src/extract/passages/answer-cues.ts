/**
 * What kind of answer an English question asks for, read from its question words, as a
 * pattern an answer of that kind matches: "how many" wants a number, "when" a date or a
 * year, "at what time" a clock time, "how much ... cost" an amount of money. A question
 * asked in other words than its answer still names its kind of answer ("how far" -> "4 km"),
 * so a passage holding such a value is a likelier answer (select-passages.ts).
 */

// "May" and "March" are words too: as months they stand beside a day's number.
const MONTHS =
  'january|february|april|june|july|august|september|october|november|december|(?:jan|feb|apr|jun|jul|aug|sept?|oct|nov|dec)\\.|(?:may|march|mar)\\s\\d{1,2}(?!\\d)|\\d{1,2}\\s(?:may|march|mar)';
const DAYS = 'monday|tuesday|wednesday|thursday|friday|saturday|sunday';
const NUMBER_WORDS =
  'one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety|hundred|thousand|million|billion|trillion|dozen|dozens|hundreds|thousands|millions|billions|half|third|quarter|double|twice|triple';
const UNITS =
  'seconds?|minutes?|hours?|days?|weeks?|months?|years?|decades?|centur(?:y|ies)|nights?|hrs?|mins?|secs?|yrs?|' +
  'mm|cm|m|km|kms|metres?|meters?|kilomet(?:re|er)s?|miles?|mi|feet|foot|ft|inch(?:es)?|in|yards?|yd|' +
  'mg|g|kg|kgs|grams?|kilo(?:gram)?s?|tonnes?|tons?|lbs?|pounds?|ounces?|oz|' +
  'ml|l|litres?|liters?|gallons?|gal|' +
  'mph|kph|km/h|knots?|°c|°f|degrees?|celsius|fahrenheit|kelvin|' +
  'w|kw|mw|gw|kwh|mwh|gwh|watts?|volts?|v|hz|khz|mhz|ghz|' +
  'b|kb|mb|gb|tb|bytes?|kilobytes?|megabytes?|gigabytes?|terabytes?|bits?|' +
  '%|per ?cent|percent|x';

const NUMBER = `(?:\\d[\\d,.]*|(?:${NUMBER_WORDS}))`;

/** A number, written in digits or in words. */
const ANY_NUMBER = new RegExp(`\\b${NUMBER}(?![a-z])`, 'i');
/** A count ("how many"): a number, not a year standing alone (1500-2099): "in 1985" counts nothing. */
const COUNT = new RegExp(`\\b(?!(?:1[5-9]|20)\\d{2}(?![\\d,.]*\\d))${NUMBER}(?![a-z])`, 'i');
/** A year (1000-2099), a month's or a weekday's name, an ISO date. */
const DATE = new RegExp(
  `\\b(?:1\\d{3}|20\\d{2}|\\d{4}-\\d{2}-\\d{2}|${MONTHS}|${DAYS}|today|yesterday|tomorrow)(?![a-z0-9])`,
  'i',
);
/** A clock time: 4:25, 1 p.m., 10am, noon, midnight. */
const TIME = /\b(?:\d{1,2}(?::\d{2})?\s?(?:a\.?m\.?|p\.?m\.?)|\d{1,2}:\d{2}|noon|midnight)(?![a-z])/i;
/** A sum of money: $5, €4.50, 250,000 dollars, 3 million euros. */
const MONEY = new RegExp(
  `[$€£¥₹]\\s?\\d|\\d[\\d,.]*\\s?(?:k|m|bn|million|billion|trillion)?\\s?(?:dollars?|euros?|pounds?|yen|yuan|rupees?|usd|eur|gbp|cents?)(?![a-z])`,
  'i',
);
/** A quantity: a number with its unit, a percentage, a fraction in words. */
const QUANTITY = new RegExp(`\\b${NUMBER}(?:\\s?-?\\s?(?:${UNITS}))(?![a-z])|[$€£¥₹]\\s?\\d|\\d\\s?%`, 'i');
/** A person's name: two or three capitalised words in a row, within a sentence. */
const NAME = /(?<=[\p{Ll},;:"“(] )\p{Lu}\p{Ll}+(?: \p{Lu}\.?)?(?: \p{Lu}[\p{Ll}'’-]+){1,2}/u;
/** A place: a capitalised name after "in", "at", "from", "near", "to". */
const PLACE = /\b(?:in|at|from|near|to) (?:the )?\p{Lu}\p{Ll}+/u;

/** The pattern an answer to `question` matches, when its question words say; else undefined. */
export function answerCue(question: string): RegExp | undefined {
  const q = question.toLowerCase();
  if (/\b(?:what|which|at what) (?:time|hour)\b/.test(q)) return TIME;
  if (
    /^\s*(?:how much|what|which)\b.*\b(?:money|cost|costs|pay|paid|price|priced|prices|spend|spent|worth|earn|earned|charge|charged|fine|fined|raise|raised|invest|invested|pledge|pledged|fee|fees|salary|wage|wages|budget|revenue|funding|bill|fare|tag)\b|\b(?:what|which) (?:sum|amount of money)\b/.test(
      q,
    )
  )
    return MONEY;
  if (
    /^\s*when\b|\b(?:what|which|in what|in which|on what|on which) (?:year|date|day|month|decade|century)\b|^\s*(?:since|until|till|by) (?:when|what|which)\b/.test(
      q,
    )
  )
    return DATE;
  if (
    /\bhow (?:long|far|big|large|tall|high|wide|deep|heavy|fast|old|young|strong|hot|cold|much|often|short|small|thick|loud|bright|late|early)\b/.test(
      q,
    )
  )
    return QUANTITY;
  if (
    /\bhow many\b|\b(?:what|which) (?:share|portion|proportion|percentage|percent|fraction|number|amount|total|temperature|size|speed|distance|age|score|rate|level)\b/.test(
      q,
    )
  )
    return /\bhow many\b/.test(q) ? COUNT : ANY_NUMBER;
  if (/^\s*(?:who|whom|whose)\b/.test(q)) return NAME;
  if (/^\s*where\b/.test(q)) return PLACE;
  return undefined;
}
