/**
 * Product pages: whether a page declares a schema.org `Product` (read before noise removal
 * drops scripts), and the element named for its description. docs/extraction.md, "Product
 * description".
 */

import type { DomDocument, DomElement } from '../dom.js';
import { classAndId, normalizeSpace } from '../dom.js';
import { declaredText } from '../choose/declared-description.js';
import { jsonLdValues } from './metadata.js';
import type { Offer } from '../finish/product-offer.js';
import { itemValue, jsonLdOffer, microdataOffer, openGraphOffer } from '../finish/product-offer.js';
import type { SourceWords } from './source-words.js';
import { sourceWords } from './source-words.js';
import type { TextStats } from '../text-stats.js';
import { THRESHOLDS } from '../thresholds.js';

/** `description` as a whole word of a class/id/itemprop, camelCase split first. */
const DESCRIPTION_WORD = /(?:^|[-_\s])(?:product-?)?desc(?:ription)?s?(?=$|[-_\s])/i;

const SCHEMA_PRODUCT = /^https?:\/\/schema\.org\/Product$/i;

function isProductType(type: unknown): boolean {
  if (typeof type === 'string') return type === 'Product' || SCHEMA_PRODUCT.test(type);
  return Array.isArray(type) && type.some(isProductType);
}

function jsonLdProduct(data: unknown): Record<string, unknown> | null {
  const nodes = Array.isArray(data) ? data : [data];
  for (const node of nodes) {
    if (node === null || typeof node !== 'object') continue;
    const record = node as Record<string, unknown>;
    if (isProductType(record['@type'])) return record;
    const graph = record['@graph'];
    if (!Array.isArray(graph)) continue;
    for (const item of graph) {
      if (item !== null && typeof item === 'object' && isProductType((item as Record<string, unknown>)['@type']))
        return item as Record<string, unknown>;
    }
  }
  return null;
}

export interface ProductFacts {
  /** The declared price (product-offer.ts), when the page is about the product that declares it (namesTheProduct). */
  offer: Offer | null;
  /** The JSON-LD Product's description as plain text, when it is long enough to anchor on (declared-description.ts). */
  description: string | null;
}

function nameKey(text: string): string {
  return normalizeSpace(text.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, ' '));
}

/**
 * Whether the page is about the product named `name`: an `<h1>` or the title holds the
 * name, or the name holds a heading that opens and mostly covers it or is long enough to be
 * specific. A category page that declares one of its products is headed by the category.
 */
function namesTheProduct(doc: DomDocument, name: string | undefined): boolean {
  const key = nameKey(name ?? '');
  if (key.length < THRESHOLDS.MIN_PRODUCT_NAME_CHARS) return false;
  const titles = [
    ...Array.from(doc.querySelectorAll('h1')).map((h1) => h1.textContent ?? ''),
    doc.querySelector('title')?.textContent ?? '',
  ];
  return titles.some((title) => {
    const heading = nameKey(title);
    if (heading.length < THRESHOLDS.MIN_PRODUCT_NAME_CHARS) return false;
    if (` ${heading} `.includes(` ${key} `)) return true;
    if (!` ${key} `.includes(` ${heading} `)) return false;
    // The name holds the heading: a title cut short, or a specific name inside a longer one.
    return (
      (`${key} `.startsWith(`${heading} `) && heading.length >= THRESHOLDS.MIN_PRODUCT_TITLE_SHARE * key.length) ||
      heading.length >= THRESHOLDS.MIN_SPECIFIC_PRODUCT_NAME_CHARS
    );
  });
}

function stringOf(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/**
 * The product facts of a page that declares a product, else null. A declaration is looked
 * for in the tree only when its words are in the page's source (`words`); `metas`: metaMap
 * (metadata.ts).
 */
export function readProductPage(doc: DomDocument, words: SourceWords, metas: Map<string, string>): ProductFacts | null {
  if (!words.has('roduct')) return null;
  const ogType = metas.get('og:type')?.toLowerCase() ?? '';
  const openGraph = ogType === 'product' || ogType === 'og:product' || ogType.startsWith('product.');
  let item: DomElement | null = null;
  if (words.has('schema.org/Product')) {
    for (const element of Array.from(doc.querySelectorAll('[itemtype]'))) {
      if ((element.getAttribute('itemtype') ?? '').split(/\s+/).some((t) => SCHEMA_PRODUCT.test(t))) {
        item = element;
        break;
      }
    }
  }
  let product: Record<string, unknown> | null = null;
  if (words.has('ld+json')) {
    for (const data of jsonLdValues(doc, 'Product')) {
      product = jsonLdProduct(data);
      if (product !== null) break;
    }
  }
  if (!openGraph && item === null && product === null) return null;
  const description = product === null ? null : declaredText(product.description);
  const offer =
    (product === null ? null : jsonLdOffer(product.offers)) ??
    (item === null ? null : microdataOffer(item)) ??
    openGraphOffer(metas);
  if (offer === null) return { offer, description };
  const name =
    stringOf(product?.name) ?? (item === null ? undefined : itemValue(item, 'name')) ?? metas.get('og:title');
  return { offer: namesTheProduct(doc, name) ? offer : null, description };
}

export function isProductPage(doc: DomDocument, html: string, metas: Map<string, string>): boolean {
  return readProductPage(doc, sourceWords(html), metas) !== null;
}

function describes(element: DomElement): boolean {
  const words = `${classAndId(element)} ${element.getAttribute('itemprop') ?? ''}`;
  return DESCRIPTION_WORD.test(words.replace(/([a-z])([A-Z])/g, '$1-$2'));
}

/**
 * The element under `root` (the cleaned body) named for the description with the most text,
 * when that holds between MIN_ and MAX_DESCRIPTION_SHARE of the text.
 */
export function productDescription(root: DomElement, stats: Map<DomElement, TextStats>): DomElement | null {
  const total = stats.get(root)?.chars ?? 0;
  let best: DomElement | null = null;
  let bestChars = 0;
  for (const element of Array.from(root.querySelectorAll('[class], [id], [itemprop]')) as DomElement[]) {
    const chars = stats.get(element)?.chars ?? 0;
    if (chars > bestChars && describes(element)) {
      best = element;
      bestChars = chars;
    }
  }
  return best !== null &&
    bestChars >= THRESHOLDS.MIN_DESCRIPTION_SHARE * total &&
    bestChars < THRESHOLDS.MAX_DESCRIPTION_SHARE * total
    ? best
    : null;
}
