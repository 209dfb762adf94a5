/**
 * Reading a Thing's properties for the shapes: text (plain, as declared-description.ts
 * makes declared text), absolute URLs and images, ISO dates, numbers, names, enumeration
 * names, the nested things (references resolved, thing-index.ts). Each returns undefined
 * or an empty list rather than a wrong value.
 */

import { toIsoDate } from '../../../../core/dates.js';
import { declaredPlainText } from '../../choose/declared-description.js';
import { normalizeSpace } from '../../dom.js';
import { absoluteImage, absoluteLink } from '../../urls.js';
import { readAmount } from './amount.js';
import { STRUCTURED_DATA_BOUNDS } from './bounds.js';
import type { Thing, Value } from './thing.js';
import type { StructuredSource } from './types.js';
import { isThing } from './thing.js';
import type { ThingIndex } from './thing-index.js';

const { maxArrayEntries } = STRUCTURED_DATA_BOUNDS;

/** What every shape reads with: the document's base URL and the page's things by id. */
export interface ShapeContext {
  readonly base: string | null;
  readonly index: ThingIndex;
}

export function valuesOf(thing: Thing, property: string): readonly Value[] {
  return thing.props.get(property) ?? [];
}

/** The nested things of `property`, references resolved. */
export function thingsOf(thing: Thing, property: string, ctx: ShapeContext): Thing[] {
  return valuesOf(thing, property)
    .filter(isThing)
    .map((value) => ctx.index.resolve(value));
}

/** The first nested thing of `property`, resolved. */
export function thingOf(thing: Thing, property: string, ctx: ShapeContext): Thing | undefined {
  const value = valuesOf(thing, property).find(isThing);
  return value === undefined ? undefined : ctx.index.resolve(value);
}

/**
 * A scalar as plain text; '' for a thing. JSON-LD text loses the markup and entities some
 * sites leave in it; microdata and RDFa text is the page's text already (a "<" in it is text).
 */
export function plainText(value: Value, source: StructuredSource): string {
  if (typeof value === 'string') return source === 'json-ld' ? declaredPlainText(value) : normalizeSpace(value);
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return '';
}

/** The first non-empty text of the first of `properties` that has one. */
export function textOf(thing: Thing, ...properties: string[]): string | undefined {
  for (const property of properties)
    for (const value of valuesOf(thing, property)) {
      const text = plainText(value, thing.source);
      if (text !== '') return text;
    }
  return undefined;
}

/** The texts of `property`, or the names of its things; without repeats when `unique`. */
export function textsOf(thing: Thing, property: string, ctx: ShapeContext, unique = true): string[] {
  const out: string[] = [];
  for (const value of valuesOf(thing, property)) {
    const text = isThing(value) ? nameOf(ctx.index.resolve(value)) : plainText(value, thing.source);
    if (text !== undefined && text !== '' && !(unique && out.includes(text))) out.push(text);
  }
  return out.slice(0, maxArrayEntries);
}

/** A thing's name: `name`, else given and family names, else `alternateName`. */
export function nameOf(thing: Thing): string | undefined {
  const name = textOf(thing, 'name');
  if (name !== undefined) return name;
  const parts = [textOf(thing, 'givenName'), textOf(thing, 'familyName')].filter((part) => part !== undefined);
  return parts.length > 0 ? parts.join(' ') : textOf(thing, 'alternateName');
}

/**
 * An absolute URL a value states: a string, or a thing's `url` (an image's `contentUrl`),
 * or its `@id` when `idIsUrl` (a breadcrumb's item, a page's main entity).
 */
export function urlOf(value: Value | undefined, ctx: ShapeContext, idIsUrl = false): string | undefined {
  if (value === undefined) return undefined;
  if (!isThing(value)) return typeof value === 'string' ? (absoluteLink(value, ctx.base) ?? undefined) : undefined;
  const thing = ctx.index.resolve(value);
  for (const property of ['url', 'contentUrl']) {
    const url = valuesOf(thing, property).find((entry) => typeof entry === 'string');
    const absolute = url === undefined ? undefined : urlOf(url, ctx);
    if (absolute !== undefined) return absolute;
  }
  return idIsUrl && thing.id !== undefined && /^https?:/i.test(thing.id) ? thing.id : undefined;
}

/** The first URL of the first of `properties` that states one. */
export function firstUrl(thing: Thing, ctx: ShapeContext, ...properties: string[]): string | undefined {
  for (const property of properties)
    for (const value of valuesOf(thing, property)) {
      const url = urlOf(value, ctx, property === 'mainEntityOfPage');
      if (url !== undefined) return url;
    }
  return undefined;
}

/** The absolute image URLs of `properties` (strings or ImageObjects), without repeats. */
export function imagesOf(thing: Thing, ctx: ShapeContext, ...properties: string[]): string[] {
  const out: string[] = [];
  for (const property of properties)
    for (const value of valuesOf(thing, property)) {
      const url = urlOf(value, ctx);
      const image = url === undefined ? null : absoluteImage(url, ctx.base);
      if (image !== null && !out.includes(image) && out.length < maxArrayEntries) out.push(image);
    }
  return out;
}

/** The URLs of `property` (`sameAs`), without repeats. */
export function urlsOf(thing: Thing, property: string, ctx: ShapeContext): string[] {
  const out: string[] = [];
  for (const value of valuesOf(thing, property)) {
    const url = urlOf(value, ctx);
    if (url !== undefined && !out.includes(url) && out.length < maxArrayEntries) out.push(url);
  }
  return out;
}

/** The first of `properties` that holds a date, in ISO 8601 (core/dates.ts). */
export function dateOf(thing: Thing, ...properties: string[]): string | undefined {
  for (const property of properties)
    for (const value of valuesOf(thing, property)) {
      const date = toIsoDate(value);
      if (date !== undefined) return date;
    }
  return undefined;
}

/** The first number `properties` state (amount.ts reads the written forms). */
export function numberOf(thing: Thing, ...properties: string[]): number | undefined {
  for (const property of properties)
    for (const value of valuesOf(thing, property)) {
      const number = readAmount(value);
      if (number !== undefined) return number;
    }
  return undefined;
}

/** An enumeration member's name (`https://schema.org/EventScheduled` -> `EventScheduled`). */
export function enumNameOf(thing: Thing, property: string): string | undefined {
  for (const value of valuesOf(thing, property)) {
    const name = typeof value === 'string' ? value.trim().split(/[/#:]/).pop() : undefined;
    if (name !== undefined && /^[A-Za-z]{1,100}$/.test(name)) return name;
  }
  return undefined;
}

/** Whether a name is a URL instead (`https://example.com/author/jane`, `www.example.com/jane`). */
export function isUrlLike(text: string): boolean {
  return (
    /^(?:[a-z][a-z0-9+.-]*:)?\/\//i.test(text) || /^www\.\S+$/i.test(text) || /^[^\s/]+\.[a-z]{2,}\/\S*$/i.test(text)
  );
}
