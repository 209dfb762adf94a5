/**
 * The Article family's shape (NewsArticle, BlogPosting, Report, ...), and WebPage's and
 * WebSite's, which say much the same of the page.
 */

import { STRUCTURED_DATA_BOUNDS } from './bounds.js';
import { partiesOf, publisherOf } from './parties.js';
import type { Thing } from './thing.js';
import { isThing } from './thing.js';
import type { StructuredItem } from './types.js';
import type { ShapeContext } from './values.js';
import { dateOf, firstUrl, imagesOf, nameOf, plainText, textOf, textsOf, valuesOf } from './values.js';

const { maxArrayEntries } = STRUCTURED_DATA_BOUNDS;

export function articleShape(thing: Thing, ctx: ShapeContext): Partial<StructuredItem> {
  const sections = textsOf(thing, 'articleSection', ctx);
  return {
    headline: textOf(thing, 'headline', 'name', 'alternativeHeadline'),
    description: textOf(thing, 'description', 'abstract'),
    authors: partiesOf(thing, 'author', ctx),
    date_published: dateOf(thing, 'datePublished', 'dateCreated'),
    date_modified: dateOf(thing, 'dateModified'),
    publisher: publisherOf(thing, ctx),
    image: imagesOf(thing, ctx, 'image', 'thumbnailUrl'),
    url: firstUrl(thing, ctx, 'url', 'mainEntityOfPage'),
    section: sections.length > 0 ? sections.join(', ') : undefined,
    keywords: keywordsOf(thing, ctx),
    language: textsOf(thing, 'inLanguage', ctx)[0],
  };
}

export function webPageShape(thing: Thing, ctx: ShapeContext): Partial<StructuredItem> {
  return {
    name: textOf(thing, 'name', 'headline'),
    description: textOf(thing, 'description'),
    authors: partiesOf(thing, 'author', ctx),
    date_published: dateOf(thing, 'datePublished', 'dateCreated'),
    date_modified: dateOf(thing, 'dateModified'),
    publisher: publisherOf(thing, ctx),
    image: imagesOf(thing, ctx, 'image', 'primaryImageOfPage', 'thumbnailUrl'),
    url: firstUrl(thing, ctx, 'url'),
    language: textsOf(thing, 'inLanguage', ctx)[0],
  };
}

/** Keywords as a list: a comma-separated string split, DefinedTerms by name, repeats (in any case) left out. */
export function keywordsOf(thing: Thing, ctx: ShapeContext): string[] {
  const out: string[] = [];
  const seen = new Set<string>();
  for (const value of valuesOf(thing, 'keywords')) {
    const words = isThing(value) ? [nameOf(ctx.index.resolve(value)) ?? ''] : plainText(value, thing.source).split(',');
    for (const word of words.map((w) => w.trim())) {
      if (word === '' || seen.has(word.toLowerCase()) || out.length >= maxArrayEntries) continue;
      seen.add(word.toLowerCase());
      out.push(word);
    }
  }
  return out;
}
