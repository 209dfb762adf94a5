/**
 * The other ways a page may write the numbers and units a query names: "four kilometres"
 * as "4 km" or "4km", "10 miles" as "ten mi", "3rd" as "third". Query side only (a page's
 * words are never rewritten): each form joins the query's terms at full weight, a number
 * glued to its unit ("4km", one word to the tokenizer) among them.
 */

/** Cardinal number words and their digits. */
const CARDINALS: Readonly<Record<string, string>> = {
  zero: '0',
  one: '1',
  two: '2',
  three: '3',
  four: '4',
  five: '5',
  six: '6',
  seven: '7',
  eight: '8',
  nine: '9',
  ten: '10',
  eleven: '11',
  twelve: '12',
  thirteen: '13',
  fourteen: '14',
  fifteen: '15',
  sixteen: '16',
  seventeen: '17',
  eighteen: '18',
  nineteen: '19',
  twenty: '20',
  thirty: '30',
  forty: '40',
  fifty: '50',
  sixty: '60',
  seventy: '70',
  eighty: '80',
  ninety: '90',
  hundred: '100',
  thousand: '1000',
  dozen: '12',
};

/** Ordinal words and their digit forms. */
const ORDINALS: Readonly<Record<string, string>> = {
  first: '1st',
  second: '2nd',
  third: '3rd',
  fourth: '4th',
  fifth: '5th',
  sixth: '6th',
  seventh: '7th',
  eighth: '8th',
  ninth: '9th',
  tenth: '10th',
  eleventh: '11th',
  twelfth: '12th',
  twentieth: '20th',
  hundredth: '100th',
};

/**
 * Units written several ways, each group one unit. Left out: one-letter symbols a page uses
 * for other things alone ("m" for million, "h", "s", "g", "l"): they join a number only glued.
 */
const UNITS: readonly (readonly string[])[] = [
  ['km', 'kms', 'kilometre', 'kilometres', 'kilometer', 'kilometers'],
  ['metre', 'metres', 'meter', 'meters'],
  ['cm', 'centimetre', 'centimetres', 'centimeter', 'centimeters'],
  ['mm', 'millimetre', 'millimetres', 'millimeter', 'millimeters'],
  ['mi', 'mile', 'miles'],
  ['ft', 'foot', 'feet'],
  ['inch', 'inches'],
  ['yd', 'yard', 'yards'],
  ['kg', 'kgs', 'kilogram', 'kilograms', 'kilogramme', 'kilogrammes', 'kilo', 'kilos'],
  ['gram', 'grams', 'gramme', 'grammes'],
  ['mg', 'milligram', 'milligrams'],
  ['lb', 'lbs', 'pound', 'pounds'],
  ['oz', 'ounce', 'ounces'],
  ['litre', 'litres', 'liter', 'liters'],
  ['ml', 'millilitre', 'millilitres', 'milliliter', 'milliliters'],
  ['hr', 'hrs', 'hour', 'hours'],
  ['min', 'mins', 'minute', 'minutes'],
  ['sec', 'secs', 'second', 'seconds'],
  ['mph', 'miles per hour'],
  ['kph', 'kmh', 'kilometres per hour', 'kilometers per hour'],
  ['percent', 'per cent', 'pct'],
  ['gb', 'gigabyte', 'gigabytes'],
  ['mb', 'megabyte', 'megabytes'],
  ['tb', 'terabyte', 'terabytes'],
  ['kb', 'kilobyte', 'kilobytes'],
  ['ghz', 'gigahertz'],
  ['mhz', 'megahertz'],
  ['kw', 'kilowatt', 'kilowatts'],
  ['kwh', 'kilowatt hour', 'kilowatt hours'],
];

/** The one-letter symbol each group takes glued to a number: "5m", "2l", "10h". */
const GLUED_SYMBOL: Readonly<Record<string, string>> = {
  metre: 'm',
  gram: 'g',
  litre: 'l',
  hr: 'h',
  sec: 's',
};

const DIGITS_OF = new Map<string, string>(Object.entries(CARDINALS));
const WORD_OF = new Map<string, string>(Object.entries(CARDINALS).map(([word, digits]) => [digits, word]));
const ORDINAL_OF = new Map<string, string>([
  ...Object.entries(ORDINALS),
  ...Object.entries(ORDINALS).map(([word, digits]): [string, string] => [digits, word]),
]);
/** Each one-word spelling of a unit (the first word of a phrase) to its group. */
const GROUP_OF = new Map<string, readonly string[]>();
for (const group of UNITS) for (const spelling of group) if (!spelling.includes(' ')) GROUP_OF.set(spelling, group);

/** The number a token writes: its digits for a cardinal word or a run of digits; undefined otherwise. */
function digitsOf(token: string): string | undefined {
  if (/^\d+$/.test(token)) return token;
  return DIGITS_OF.get(token);
}

/**
 * The other forms of the numbers and units in `tokens` (a query's lowercased words in
 * order, stop words included): each written the other way, each unit in its other
 * spellings, and a number glued to the unit after it in each spelling without spaces.
 * The query's own tokens are not repeated; order is stable.
 */
export function numberForms(tokens: readonly string[]): string[] {
  const forms = new Set<string>();
  const add = (form: string): void => {
    for (const word of form.split(' ')) if (!tokens.includes(word)) forms.add(word);
  };
  tokens.forEach((token, i) => {
    const digits = digitsOf(token);
    const unit = GROUP_OF.get(tokens[i + 1] ?? '');
    // Digits beside digits are parts of one number ("4.5", "4,500"): no word for a part, only the last glued to its unit.
    const part = /^\d+$/.test(token) && (/^\d+$/.test(tokens[i - 1] ?? '') || /^\d+$/.test(tokens[i + 1] ?? ''));
    // "one" is a number beside a unit only: "the one who", "one of them".
    if (digits !== undefined && (token !== 'one' || unit !== undefined)) {
      add(digits);
      const word = part ? undefined : WORD_OF.get(digits);
      if (word !== undefined) add(word);
      if (unit !== undefined) {
        for (const spelling of unit) if (!spelling.includes(' ')) forms.add(`${digits}${spelling}`);
        const symbol = GLUED_SYMBOL[unit[0] as string];
        if (symbol !== undefined) forms.add(`${digits}${symbol}`);
      }
    }
    const ordinal = ORDINAL_OF.get(token);
    if (ordinal !== undefined) add(ordinal);
    const group = GROUP_OF.get(token);
    if (group !== undefined) for (const spelling of group) add(spelling);
  });
  return [...forms];
}
