/**
 * What the structured-data reader returns (structured-data.ts): the items a page declares
 * in JSON-LD, microdata and RDFa Lite (and Open Graph's article or product), each in one
 * stable shape per type family; field names in snake_case, a field absent when unknown,
 * never null.
 */

export type StructuredSource = 'json-ld' | 'microdata' | 'rdfa' | 'opengraph';

/** The order sources are read in, and the order a merged item's `sources` list them. */
export const SOURCE_ORDER: readonly StructuredSource[] = ['json-ld', 'microdata', 'rdfa', 'opengraph'];

export interface StructuredData {
  /** Normalised, in page order within each source, sources in SOURCE_ORDER, duplicates merged. */
  items: StructuredItem[];
  /** og:* (the prefix dropped), article:* and product:* metas; a repeated property as a list. */
  open_graph?: Record<string, string | string[]>;
  /** twitter:* metas, the prefix dropped; the first value of each. */
  twitter_card?: Record<string, string>;
  /** What was skipped or cut, and conflicting dates of a merged item. */
  notes?: string[];
  /** Some items, or their raw properties, were left out by the bounds (bounds.ts). */
  truncated?: true;
}

/** An author, publisher or organizer. */
export interface NamedLink {
  name: string;
  url?: string;
}

export interface Publisher extends NamedLink {
  logo?: string;
}

export interface StructuredOffer {
  price?: number;
  /** An AggregateOffer's range. */
  low_price?: number;
  high_price?: number;
  offer_count?: number;
  currency?: string;
  /** schema.org's ItemAvailability name: `InStock`, `OutOfStock`, ... */
  availability?: string;
  url?: string;
  price_valid_until?: string;
}

export interface Rating {
  value: number;
  count?: number;
  best?: number;
}

export interface Location {
  name?: string;
  /** A PostalAddress on one line. */
  address?: string;
  /** A VirtualLocation's address. */
  url?: string;
}

export interface Question {
  question: string;
  answer: string;
}

export interface Step {
  name?: string;
  text: string;
}

export interface BreadcrumbEntry {
  position: number;
  name: string;
  url?: string;
}

/** A raw value: JSON-LD's own (nested nodes with their `@type` and `@id`). */
export type RawValue = string | number | boolean | RawObject | RawValue[];
export interface RawObject {
  [key: string]: RawValue;
}

export interface StructuredItem {
  /** schema.org's name for it (`NewsArticle`), the most specific known one of `types`. */
  type: string;
  /** Every type the item declares, when more than one. */
  types?: string[];
  /** The vocabulary of an item that is not schema.org's (its type then a term of that vocabulary). */
  vocab?: string;
  sources: StructuredSource[];
  /** Its `@id` (`itemid`, `resource`), absolute. */
  id?: string;

  // Article family; WebPage and WebSite
  headline?: string;
  name?: string;
  description?: string;
  authors?: NamedLink[];
  date_published?: string;
  date_modified?: string;
  publisher?: Publisher;
  image?: string[];
  url?: string;
  section?: string;
  keywords?: string[];
  language?: string;

  // Product
  brand?: string;
  sku?: string;
  gtin?: string;
  mpn?: string;
  offers?: StructuredOffer[];
  rating?: Rating;

  // Recipe, HowTo
  ingredients?: string[];
  instructions?: string[];
  steps?: Step[];
  supplies?: string[];
  tools?: string[];
  prep_time?: string;
  cook_time?: string;
  total_time?: string;
  yield?: string;

  // Event
  start_date?: string;
  end_date?: string;
  location?: Location;
  organizer?: NamedLink;
  status?: string;
  attendance_mode?: string;

  // FAQPage
  questions?: Question[];

  // BreadcrumbList
  items?: BreadcrumbEntry[];

  // Organization, Person
  logo?: string;
  same_as?: string[];
  job_title?: string;
  address?: string;
  telephone?: string;

  /** Any other type's properties as declared (bounded). */
  properties?: RawObject;
}
