/**
 * People and organisations, as a nested value (an author, a publisher, an organizer) and as
 * items of their own (Organization and its subtypes, Person). A name that is a URL is not a
 * name: the thing the page declares at that URL gives it, else the entry is left out.
 */

import { STRUCTURED_DATA_BOUNDS } from './bounds.js';
import type { Thing, Value } from './thing.js';
import { isThing } from './thing.js';
import type { NamedLink, Publisher, StructuredItem, StructuredSource } from './types.js';
import type { ShapeContext } from './values.js';
import {
  firstUrl,
  imagesOf,
  isUrlLike,
  nameOf,
  plainText,
  textOf,
  textsOf,
  thingOf,
  urlOf,
  urlsOf,
  valuesOf,
} from './values.js';

const { maxArrayEntries } = STRUCTURED_DATA_BOUNDS;

/** The people (or organisations) `property` names, without repeats (names compared in any case). */
export function partiesOf(thing: Thing, property: string, ctx: ShapeContext): NamedLink[] {
  const out: NamedLink[] = [];
  const seen = new Set<string>();
  for (const value of valuesOf(thing, property)) {
    const party = isThing(value)
      ? partyOfThing(ctx.index.resolve(value), ctx)
      : partyOfText(plainText(value, thing.source), ctx);
    if (party === undefined || seen.has(party.name.toLowerCase())) continue;
    seen.add(party.name.toLowerCase());
    out.push(party);
    if (out.length >= maxArrayEntries) break;
  }
  return out;
}

/** The first party `property` names. */
export function partyOf(thing: Thing, property: string, ctx: ShapeContext): NamedLink | undefined {
  return partiesOf(thing, property, ctx)[0];
}

function partyOfThing(thing: Thing, ctx: ShapeContext): NamedLink | undefined {
  const name = nameOf(thing);
  if (name === undefined || isUrlLike(name)) return undefined;
  const url = firstUrl(thing, ctx, 'url');
  return url === undefined ? { name } : { name, url };
}

function partyOfText(text: string, ctx: ShapeContext): NamedLink | undefined {
  if (text === '') return undefined;
  if (!isUrlLike(text)) return { name: text };
  const url = urlOf(text, ctx);
  const named = ctx.index.named(text) ?? (url === undefined ? undefined : ctx.index.named(url));
  const party = named === undefined ? undefined : partyOfThing(named, ctx);
  return party === undefined ? undefined : { name: party.name, url: party.url ?? url ?? text };
}

export function publisherOf(thing: Thing, ctx: ShapeContext): Publisher | undefined {
  const party = partyOf(thing, 'publisher', ctx);
  if (party === undefined) return undefined;
  const organization = thingOf(thing, 'publisher', ctx);
  const logo = organization === undefined ? undefined : imagesOf(organization, ctx, 'logo')[0];
  return logo === undefined ? party : { ...party, logo };
}

/** The first address `property` states, on one line. */
export function addressOf(thing: Thing, property: string, ctx: ShapeContext): string | undefined {
  for (const value of valuesOf(thing, property)) {
    const address = addressText(value, ctx, thing.source);
    if (address !== undefined) return address;
  }
  return undefined;
}

/** A PostalAddress (or a written address) on one line. */
export function addressText(value: Value, ctx: ShapeContext, source: StructuredSource): string | undefined {
  if (!isThing(value)) {
    const text = plainText(value, source);
    return text === '' ? undefined : text;
  }
  const address = ctx.index.resolve(value);
  const parts = [
    textOf(address, 'streetAddress'),
    textOf(address, 'addressLocality'),
    textOf(address, 'addressRegion'),
    textOf(address, 'postalCode'),
    textsOf(address, 'addressCountry', ctx)[0],
  ].filter((part): part is string => part !== undefined);
  return parts.length > 0 ? parts.join(', ') : nameOf(address);
}

export function organizationShape(thing: Thing, ctx: ShapeContext): Partial<StructuredItem> {
  return {
    name: nameOf(thing),
    description: textOf(thing, 'description'),
    url: firstUrl(thing, ctx, 'url'),
    logo: imagesOf(thing, ctx, 'logo')[0],
    image: imagesOf(thing, ctx, 'image'),
    same_as: urlsOf(thing, 'sameAs', ctx),
    address: addressOf(thing, 'address', ctx),
    telephone: textOf(thing, 'telephone'),
  };
}

export function personShape(thing: Thing, ctx: ShapeContext): Partial<StructuredItem> {
  return {
    name: nameOf(thing),
    description: textOf(thing, 'description'),
    url: firstUrl(thing, ctx, 'url'),
    image: imagesOf(thing, ctx, 'image'),
    same_as: urlsOf(thing, 'sameAs', ctx),
    job_title: textsOf(thing, 'jobTitle', ctx)[0],
  };
}
