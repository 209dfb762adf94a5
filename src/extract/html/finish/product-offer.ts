/**
 * A product page's declared price as a line, "Price: $35.00 (in stock)", under the title
 * when the Markdown does not show it. docs/extraction.md, "The declared price".
 */

import type { DomElement } from '../dom.js';
import { normalizeSpace } from '../dom.js';
import { THRESHOLDS } from '../thresholds.js';

interface Offer {
  low: number;
  high: number;
  currency?: string;
  availability?: string;
}

/** schema.org ItemAvailability values, and how a reader says them. */
const AVAILABILITY: Record<string, string> = {
  InStock: 'in stock',
  OutOfStock: 'out of stock',
  SoldOut: 'sold out',
  PreOrder: 'available to pre-order',
  PreSale: 'pre-sale',
  BackOrder: 'on back order',
  Discontinued: 'discontinued',
  LimitedAvailability: 'limited availability',
  InStoreOnly: 'in store only',
  OnlineOnly: 'online only',
  MadeToOrder: 'made to order',
  Reserved: 'reserved',
};

const AVAILABILITY_NAMES: ReadonlyMap<string, string> = new Map(
  Object.keys(AVAILABILITY).map((name) => [name.toLowerCase(), name]),
);

/** A schema.org amount: a number, or a string of one ("1299.00", "1,299.00"); else NaN. */
export function parseAmount(value: unknown): number {
  let amount = Number.NaN;
  if (typeof value === 'number') amount = value;
  else if (typeof value === 'string') {
    const text = value
      .trim()
      .replace(
        /^(\d{1,3}(?:,\d{3})+)(\.\d+)?$/,
        (_, whole: string, fraction = '') => whole.replaceAll(',', '') + fraction,
      );
    if (/^\d+(?:\.\d+)?$/.test(text)) amount = Number(text);
  }
  return Number.isFinite(amount) && amount < THRESHOLDS.MAX_OFFER_AMOUNT ? amount : Number.NaN;
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}

/**
 * The ItemAvailability value `value` names, as schema.org spells it (`InStock`): a schema.org
 * URL, a prefixed name (`schema:InStock`) or the name in any case; else undefined. Also the
 * structured-data reader's offers (read/structured-data/product.ts).
 */
export function availabilityName(value: unknown): string | undefined {
  const key = text(value)
    ?.split(/[/#:]/)
    .pop()
    ?.toLowerCase()
    .replace(/[^a-z]/g, '');
  return key === undefined ? undefined : AVAILABILITY_NAMES.get(key);
}

function availabilityOf(value: unknown): string | undefined {
  const name = availabilityName(value);
  return name === undefined ? undefined : AVAILABILITY[name];
}

function single(amount: number, currency: unknown, availability: unknown): Offer | null {
  if (!(amount > 0)) return null;
  return {
    low: amount,
    high: amount,
    currency: text(currency)?.toUpperCase(),
    availability: availabilityOf(availability),
  };
}

/**
 * Merges offers: the lowest and highest amounts in the first offer's currency, in stock
 * when any is.
 */
function merge(offers: Offer[]): Offer | null {
  const first = offers[0];
  if (first === undefined) return null;
  const merged: Offer = { ...first };
  for (const offer of offers) {
    if (offer.currency !== first.currency) continue;
    merged.low = Math.min(merged.low, offer.low);
    merged.high = Math.max(merged.high, offer.high);
    if (merged.availability === undefined || offer.availability === AVAILABILITY.InStock)
      merged.availability = offer.availability ?? merged.availability;
  }
  return merged;
}

export function jsonLdOffer(value: unknown, depth = 0): Offer | null {
  if (depth > THRESHOLDS.MAX_OFFER_DEPTH || value === null || typeof value !== 'object') return null;
  if (Array.isArray(value)) {
    return merge(value.map((item) => jsonLdOffer(item, depth + 1)).filter((offer): offer is Offer => offer !== null));
  }
  const record = value as Record<string, unknown>;
  const low = parseAmount(record.lowPrice);
  if (low > 0) {
    const high = parseAmount(record.highPrice);
    return {
      low,
      high: high >= low ? high : low,
      currency: text(record.priceCurrency)?.toUpperCase(),
      availability: availabilityOf(record.availability),
    };
  }
  const direct = single(parseAmount(record.price), record.priceCurrency, record.availability);
  if (direct !== null) return direct;
  const specification = jsonLdOffer(record.priceSpecification, depth + 1);
  if (specification !== null)
    return { ...specification, availability: specification.availability ?? availabilityOf(record.availability) };
  return jsonLdOffer(record.offers, depth + 1);
}

/** A microdata property's value inside `item`: its `content`, `href` or text. */
export function itemValue(item: DomElement, property: string): string | undefined {
  const element = item.querySelector(`[itemprop~="${property}"]`);
  if (element === null) return undefined;
  return text(element.getAttribute('content') ?? element.getAttribute('href') ?? normalizeSpace(element.textContent));
}

export function microdataOffer(item: DomElement): Offer | null {
  return single(
    parseAmount(itemValue(item, 'price')),
    itemValue(item, 'priceCurrency'),
    itemValue(item, 'availability'),
  );
}

export function openGraphOffer(metas: Map<string, string>): Offer | null {
  const amount = metas.get('product:price:amount') ?? metas.get('og:price:amount');
  const currency = metas.get('product:price:currency') ?? metas.get('og:price:currency');
  return single(parseAmount(amount), currency, metas.get('product:availability') ?? metas.get('og:availability'));
}

function money(amount: number, currency: string | undefined): string {
  if (currency !== undefined && /^[A-Z]{3}$/.test(currency)) {
    try {
      // (ICU puts a no-break space between a code and the number: a plain one reads the same.)
      return new Intl.NumberFormat('en-US', { style: 'currency', currency })
        .format(amount)
        .replace(/[\u00a0\u202f]/g, ' ');
    } catch {
      // Not a well-formed code (ICU formats any three letters): the code after the number.
    }
  }
  const plain = new Intl.NumberFormat('en-US', { maximumFractionDigits: 4 }).format(amount);
  return currency === undefined ? plain : `${plain} ${currency}`;
}

/** "Price: $35.00 (in stock)", "Price: $10.00 to $24.00". */
export function offerLine(offer: Offer): string {
  const price =
    offer.low === offer.high
      ? money(offer.low, offer.currency)
      : `${money(offer.low, offer.currency)} to ${money(offer.high, offer.currency)}`;
  return `Price: ${price}${offer.availability === undefined ? '' : ` (${offer.availability})`}`;
}

/**
 * Whether `markdown` shows `amount`'s whole part (digit groups optionally separated:
 * "1,299", "1 299"), not inside a longer number.
 */
export function showsAmount(markdown: string, amount: number): boolean {
  const whole = String(Math.floor(amount));
  const groups: string[] = [];
  for (let end = whole.length; end > 0; end -= 3) groups.unshift(whole.slice(Math.max(0, end - 3), end));
  return new RegExp(`(?<![\\d.,])${groups.join("[,.\\s\\u00a0\\u202f']?")}(?![\\d]|[.,]\\d{3})`).test(markdown);
}

/**
 * `markdown` with the offer's line under its heading or on top, unless it shows the amount
 * already.
 */
export function withOffer(markdown: string, offer: Offer | null): string {
  if (offer === null || markdown === '' || showsAmount(markdown, offer.low)) return markdown;
  const line = offerLine(offer);
  const newline = markdown.indexOf('\n');
  const first = newline === -1 ? markdown : markdown.slice(0, newline);
  if (/^#{1,6} /.test(first)) {
    const rest = newline === -1 ? '' : markdown.slice(newline).replace(/^\n+/, '');
    return rest === '' ? `${first}\n\n${line}` : `${first}\n\n${line}\n\n${rest}`;
  }
  return `${line}\n\n${markdown}`;
}

export type { Offer };
