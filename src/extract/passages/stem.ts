/**
 * The term function for a page's language: its Snowball stemmer, so "Häuser" meets "Haus"
 * and "книги" meets "книга". `@orama/stemmers` (Snowball 2's own JavaScript output, 1-5 µs a
 * word) serves every language it has; `snowball-stemmers` (an older, machine-translated port,
 * 3-16 µs a word) only the four it lacks: Catalan, Basque, Czech, Slovene. English, and any
 * language without a stemmer, keep termOf (Porter), which the benchmarks are calibrated on.
 * Each language's stemmer is required on its first use, not at start-up: 1-9 ms for one of
 * @orama's files, 25 ms for snowball-stemmers (850 KB).
 */
import { createRequire } from 'node:module';
import { termOf } from './tokenize.js';

type Stem = (word: string) => string;

/** How a language's terms begin: as its words do, as its words with letters folded, or not. */
type Prefix = 'kept' | 'folded' | 'rewritten';

interface Language {
  /** `@orama/stemmers/<name>`, or else `snowball-stemmers`' algorithm of the same name. */
  readonly orama?: string;
  readonly snowball?: string;
  /**
   * The words the stemmer reads: letters (and marks) of the language's script, Latin if
   * absent. Other words take termOf, so on a Russian page "servers" still meets "server".
   */
  readonly script?: RegExp;
  /**
   * Checked on thousands of generated words per language (stem.test.ts). Folded: letters
   * lose accents (de, es, ca, nl, fr, it acute -> grave, el), ё -> е, ş -> s, ß -> ss.
   * Rewritten: whole prefixes go (ga mutations, ar articles, ta demonstratives, id me-/di-/
   * ber-), or sr reads Cyrillic as Latin and ijekavian as ekavian (љубав -> ljubav, lijepo -> lep).
   */
  readonly prefix: Prefix;
}

const LATIN = /^[\p{scx=Latin}\p{M}]+$/u;
const CYRILLIC = /^[\p{scx=Cyrillic}\p{M}]+$/u;
const DEVANAGARI = /^[\p{scx=Devanagari}\p{M}]+$/u;

/**
 * By BCP 47 primary language subtag. Left out of @orama's: Bulgarian (it throws on words
 * such as ученици, writing into a string) and Sanskrit (24 endings of Latin transliteration).
 */
const LANGUAGES: Readonly<Record<string, Language>> = {
  ar: { orama: 'arabic', script: /^[\p{scx=Arabic}\p{M}]+$/u, prefix: 'rewritten' },
  ca: { snowball: 'catalan', prefix: 'folded' },
  cs: { snowball: 'czech', prefix: 'kept' },
  da: { orama: 'danish', prefix: 'kept' },
  de: { orama: 'german', prefix: 'folded' },
  el: { orama: 'greek', script: /^[\p{scx=Greek}\p{M}]+$/u, prefix: 'folded' },
  es: { orama: 'spanish', prefix: 'folded' },
  eu: { snowball: 'basque', prefix: 'kept' },
  fi: { orama: 'finnish', prefix: 'kept' },
  fr: { orama: 'french', prefix: 'folded' },
  ga: { orama: 'irish', prefix: 'rewritten' },
  hi: { orama: 'indian', script: DEVANAGARI, prefix: 'kept' },
  hu: { orama: 'hungarian', prefix: 'kept' },
  hy: { orama: 'armenian', script: /^[\p{scx=Armenian}\p{M}]+$/u, prefix: 'kept' },
  id: { orama: 'indonesian', prefix: 'rewritten' },
  it: { orama: 'italian', prefix: 'folded' },
  lt: { orama: 'lithuanian', prefix: 'kept' },
  nb: { orama: 'norwegian', prefix: 'kept' },
  ne: { orama: 'nepali', script: DEVANAGARI, prefix: 'kept' },
  nl: { orama: 'dutch', prefix: 'folded' },
  nn: { orama: 'norwegian', prefix: 'kept' },
  no: { orama: 'norwegian', prefix: 'kept' },
  pt: { orama: 'portuguese', prefix: 'kept' },
  ro: { orama: 'romanian', prefix: 'folded' },
  ru: { orama: 'russian', script: CYRILLIC, prefix: 'folded' },
  sl: { snowball: 'slovene', prefix: 'kept' },
  sr: { orama: 'serbian', script: /^[\p{scx=Latin}\p{scx=Cyrillic}\p{M}]+$/u, prefix: 'rewritten' },
  sv: { orama: 'swedish', prefix: 'kept' },
  ta: { orama: 'tamil', script: /^[\p{scx=Tamil}\p{M}]+$/u, prefix: 'rewritten' },
  tr: { orama: 'turkish', prefix: 'kept' },
  uk: { orama: 'ukrainian', script: CYRILLIC, prefix: 'kept' },
};

/**
 * Where a stem's first two characters change by accident, they are the word's own: Turkish
 * hardens a final consonant (ağı -> ak, "white", kept as ağ; adı -> at, "horse", kept as
 * ad), Czech palatalises a final one, Lithuanian undoes palatalisation (ačių -> at, kept as ač). None
 * is a fold a prefix key could follow.
 */
const OWN_PREFIX = new Set(['cs', 'lt', 'tr']);

/**
 * Romanian: the stemmer's suffixes are spelt with s and t with a cedilla (ş ţ), today's
 * text writes them with a comma below (ș ț): both stem as the cedilla's, and terms are
 * written with the comma. Russian: the stemmer reads ё as е, words too short to stem are
 * folded here (её, ее).
 */
const TO_STEMMER: Readonly<Record<string, Stem>> = {
  ro: (word) => word.replaceAll('ș', 'ş').replaceAll('ț', 'ţ'),
};
const FROM_STEMMER: Readonly<Record<string, Stem>> = {
  ro: (stem) => stem.replaceAll('ş', 'ș').replaceAll('ţ', 'ț'),
};
const SHORT: Readonly<Record<string, Stem>> = {
  ro: (word) => word.replaceAll('ş', 'ș').replaceAll('ţ', 'ț'),
  ru: (word) => word.replaceAll('ё', 'е'),
};

/**
 * Spanish: Snowball deletes the imperative ending -ad from a singular (ciudad -> ciud) but
 * only -es from its plural (ciudades -> ciudad), so the two never meet. A plural in -dades
 * or -tades is stemmed as its singular (-idades words lose -idad either way: activ).
 */
const PLURAL_DAD = /[dt]ades$/;

let load: NodeJS.Require | undefined;
let snowball: { newStemmer(algorithm: string): { stem(word: string): string } } | undefined;
// One per language: bounded by the table above.
const byLanguage = new Map<string, (token: string) => string>();

function primaryOf(language: string | undefined): string {
  return language?.trim().toLowerCase().split(/[-_]/)[0] ?? '';
}

/**
 * The language's stemmer. Required, not imported: termsFor is synchronous, and a dynamic
 * import() costs as much (3-8 ms for one of @orama's files of 2-50 KB).
 */
function stemmerOf(spec: Language): Stem {
  load ??= createRequire(import.meta.url);
  if (spec.orama !== undefined) return (load(`@orama/stemmers/${spec.orama}`) as { stemmer: Stem }).stemmer;
  snowball ??= load('snowball-stemmers') as NonNullable<typeof snowball>;
  const stemmer = snowball.newStemmer(spec.snowball ?? '');
  return (word) => stemmer.stem(word);
}

function build(primary: string, spec: Language): (token: string) => string {
  const stem = stemmerOf(spec);
  const script = spec.script ?? LATIN;
  const before = TO_STEMMER[primary];
  const after = FROM_STEMMER[primary];
  const short = SHORT[primary];
  const spanish = primary === 'es';
  const ownPrefix = OWN_PREFIX.has(primary);
  return (token) => {
    if (!script.test(token)) return termOf(token);
    if (token.length < 3) return short ? short(token) : token;
    const word = before ? before(token) : token;
    let term = stem(spanish && PLURAL_DAD.test(word) ? word.slice(0, -2) : word);
    if (after) term = after(term);
    // A stem of one character (Turkish ileri -> i) would match any word it begins.
    if (term.length < 2) return short ? short(token) : token;
    return ownPrefix && !term.startsWith(token.slice(0, 2)) ? token.slice(0, 2) + term.slice(2) : term;
  };
}

/**
 * The term function for a BCP 47 language tag (`de-AT` reads as German): the language's
 * Snowball stemmer for 3+ letter words of its script, termOf for English, for no or an
 * unsupported language, and for other words (digits, mixed, other scripts). A query and a
 * page go through the same function. Stemmers are built once per language.
 */
export function termsFor(language?: string): (token: string) => string {
  const primary = primaryOf(language);
  const spec = LANGUAGES[primary];
  if (spec === undefined) return termOf;
  let terms = byLanguage.get(primary);
  if (!terms) {
    terms = build(primary, spec);
    byLanguage.set(primary, terms);
  }
  return terms;
}

/** The plain prefix key: a word's first two characters as they are. */
export const firstTwo = (word: string): string => word.slice(0, 2);

// Per UTF-16 code unit: at most 65,536 entries, most pages need a few dozen.
const folds = new Map<number, string>();

/**
 * Letters the stemmers rewrite as others, not only without accents: German ß as ss, Greek
 * final ς as σ and ϊ ΐ as η (Snowball's Greek does: πρωτεΐνη -> πρωτεην).
 */
const SPECIAL_FOLDS: Readonly<Record<string, string>> = { ß: 'ss', ς: 'σ', ϊ: 'η', ΐ: 'η' };

/** A character without its accents: NFD, marks dropped, or its special fold. */
function foldOf(code: number): string {
  let folded = folds.get(code);
  if (folded === undefined) {
    const char = String.fromCharCode(code);
    folded = SPECIAL_FOLDS[char] ?? char.normalize('NFD').replace(/\p{M}/gu, '');
    folds.set(code, folded);
  }
  return folded;
}

/** The first two characters with their accents folded away; ASCII ones as they are. */
function foldedFirstTwo(word: string): string {
  const a = word.charCodeAt(0);
  const b = word.charCodeAt(1);
  // NaN past the end: a word of one character, or none, is its own key.
  if ((a < 0x80 || word.length === 0) && (b < 0x80 || word.length < 2)) return word.slice(0, 2);
  const first = a < 0x80 ? word.charAt(0) : foldOf(a);
  const second = word.length < 2 ? '' : b < 0x80 ? word.charAt(1) : foldOf(b);
  const key = first + second;
  return key.length > 2 ? key.slice(0, 2) : key;
}

/**
 * A key of a word's or a term's first two characters such that, for every word w of 3+
 * letters, key(termsFor(language)(w)) === key(w): a page's word whose key no query term
 * shares cannot meet one, and need not be stemmed. Undefined where the stemmer strips or
 * rewrites whole prefixes (ga, ar, ta, id, sr). English and languages without a stemmer:
 * the first two characters (Porter keeps them but for a few words: eyed -> ei, eed -> e).
 * Languages whose stems fold letters (de über -> uber, ru ёлки -> елк): the two characters
 * folded alike. Cheap: it runs once per distinct word of a page; ASCII is taken as it is.
 */
export function prefixKey(language?: string): ((word: string) => string) | undefined {
  const spec = LANGUAGES[primaryOf(language)];
  if (spec === undefined || spec.prefix === 'kept') return firstTwo;
  return spec.prefix === 'folded' ? foldedFirstTwo : undefined;
}
