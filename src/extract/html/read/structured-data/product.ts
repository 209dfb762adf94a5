/**
 * Product's shape (ProductGroup, Vehicle ...), and the offers and ratings other shapes share
 * (Event's tickets, Recipe's rating). Amounts as pages write them (amount.ts), availability
 * as schema.org names it (`InStock`, product-offer.ts).
 */

import { availabilityName } from '../../finish/product-offer.js';
import { STRUCTURED_DATA_BOUNDS } from './bounds.js';
import type { Thing } from './thing.js';
import type { Rating, StructuredItem, StructuredOffer } from './types.js';
import type { ShapeContext } from './values.js';
import {
  dateOf,
  enumNameOf,
  firstUrl,
  imagesOf,
  nameOf,
  numberOf,
  textOf,
  textsOf,
  thingOf,
  thingsOf,
  valuesOf,
} from './values.js';

const { maxArrayEntries } = STRUCTURED_DATA_BOUNDS;

export function productShape(thing: Thing, ctx: ShapeContext): Partial<StructuredItem> {
  return {
    name: nameOf(thing),
    description: textOf(thing, 'description'),
    brand: textsOf(thing, 'brand', ctx)[0] ?? textsOf(thing, 'manufacturer', ctx)[0],
    sku: textOf(thing, 'sku'),
    gtin: textOf(thing, 'gtin', 'gtin13', 'gtin12', 'gtin14', 'gtin8'),
    mpn: textOf(thing, 'mpn'),
    image: imagesOf(thing, ctx, 'image'),
    url: firstUrl(thing, ctx, 'url'),
    offers: offersOf(thing, ctx),
    rating: ratingOf(thing, ctx),
  };
}

/** The offers of `thing`: each Offer, each AggregateOffer as its range (or its offers, when it states none). */
export function offersOf(thing: Thing, ctx: ShapeContext, depth = 0): StructuredOffer[] {
  const out: StructuredOffer[] = [];
  for (const offer of thingsOf(thing, 'offers', ctx)) {
    if (out.length >= maxArrayEntries) break;
    const aggregate = offer.types.includes('AggregateOffer') || offer.props.has('lowPrice');
    if (aggregate && !offer.props.has('lowPrice') && depth < 2) {
      out.push(...offersOf(offer, ctx, depth + 1).slice(0, maxArrayEntries - out.length));
      continue;
    }
    const read = aggregate ? aggregateOffer(offer) : singleOffer(offer, ctx);
    if (Object.values(read).some((field) => field !== undefined)) out.push(read);
  }
  return out;
}

function singleOffer(offer: Thing, ctx: ShapeContext): StructuredOffer {
  const specification = thingOf(offer, 'priceSpecification', ctx);
  const price =
    numberOf(offer, 'price') ?? (specification === undefined ? undefined : numberOf(specification, 'price'));
  const currency =
    textOf(offer, 'priceCurrency') ??
    (specification === undefined ? undefined : textOf(specification, 'priceCurrency'));
  return {
    price,
    currency: currency?.toUpperCase(),
    availability: availabilityOf(offer),
    url: firstUrl(offer, ctx, 'url'),
    price_valid_until: dateOf(offer, 'priceValidUntil'),
  };
}

function aggregateOffer(offer: Thing): StructuredOffer {
  return {
    low_price: numberOf(offer, 'lowPrice'),
    high_price: numberOf(offer, 'highPrice'),
    offer_count: numberOf(offer, 'offerCount'),
    currency: textOf(offer, 'priceCurrency')?.toUpperCase(),
    availability: availabilityOf(offer),
  };
}

/** schema.org's ItemAvailability name, or the name as given when it is another one word. */
function availabilityOf(offer: Thing): string | undefined {
  for (const value of valuesOf(offer, 'availability')) {
    const name = availabilityName(value);
    if (name !== undefined) return name;
  }
  return enumNameOf(offer, 'availability');
}

export function ratingOf(thing: Thing, ctx: ShapeContext): Rating | undefined {
  const rating = thingOf(thing, 'aggregateRating', ctx);
  const value = rating === undefined ? undefined : numberOf(rating, 'ratingValue');
  if (rating === undefined || value === undefined) return undefined;
  return { value, count: numberOf(rating, 'ratingCount', 'reviewCount'), best: numberOf(rating, 'bestRating') };
}
