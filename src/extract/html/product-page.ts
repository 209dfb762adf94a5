/**
 * Product pages. What a reader of a product page wants is the product's description: its
 * name, what it is, what it does, its key facts. Around it such pages pile gallery
 * thumbnails, size and colour pickers, delivery and returns blurbs, review widgets,
 * "frequently bought together" carousels and the rest of the shop; neither Readability
 * (which often takes a review list or a marketing strip for the article) nor the cleaned
 * body (which keeps all of it) finds the description reliably. The page usually names it:
 * an element whose class, id or itemprop says `description` (`product-description`,
 * `product__description`, `itemprop="description"`, `ProductDescription`); the cascade
 * heads it with the page's `<h1>`, the product's name.
 *
 * A page is a product page when it says so in its metadata: a schema.org `Product` in
 * JSON-LD (at the top level or in `@graph`, not one item of a listed catalogue) or in
 * microdata, or `og:type` product. It is read before noise removal (which drops scripts).
 */

import type { DomDocument, DomElement } from './dom.js';
import { classAndId, normalizeSpace } from './dom.js';
import { declaredText } from './declared-description.js';
import { jsonLdValues } from './metadata.js';
import type { Offer } from './product-offer.js';
import { itemValue, jsonLdOffer, microdataOffer, openGraphOffer } from './product-offer.js';
import type { TextStats } from './text-stats.js';
import { THRESHOLDS } from './thresholds.js';


/** `description` as a whole word of a class/id/itemprop, camelCase split first. */
const DESCRIPTION_WORD = /(?:^|[-_\s])(?:product-?)?desc(?:ription)?s?(?=$|[-_\s])/i;

const SCHEMA_PRODUCT = /^https?:\/\/schema\.org\/Product$/i;

function isProductType(type: unknown): boolean {
  if (typeof type === 'string') return type === 'Product' || SCHEMA_PRODUCT.test(type);
  return Array.isArray(type) && type.some(isProductType);
}

/** The top-level JSON-LD node (or one in `@graph`) typed Product, if any. */
function jsonLdProduct(data: unknown): Record<string, unknown> | null {
  const nodes = Array.isArray(data) ? data : [data];
  for (const node of nodes) {
    if (node === null || typeof node !== 'object') continue;
    const record = node as Record<string, unknown>;
    if (isProductType(record['@type'])) return record;
    const graph = record['@graph'];
    if (!Array.isArray(graph)) continue;
    for (const item of graph) {
      if (item !== null && typeof item === 'object' && isProductType((item as Record<string, unknown>)['@type'])) return item as Record<string, unknown>;
    }
  }
  return null;
}

/** What the cascade learns from a product page's metadata. */
export interface ProductFacts {
  /**
   * The declared price (product-offer.ts), when there is one and the page is about the
   * product that declares it (namesTheProduct).
   */
  offer: Offer | null;
  /** The JSON-LD Product's description as plain text, when it is long enough to anchor on (declared-description.ts). */
  description: string | null;
}

/** Lower-case words of a name, for comparing names written in different ways. */
function nameKey(text: string): string {
  return normalizeSpace(text.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, ' '));
}


/**
 * Whether the page is about the product named `name`: a heading `<h1>` or the document's
 * title holds the name, or the name holds a heading that opens it and covers most of it
 * (a title cut short) or that is long enough to be specific. A category page that declares one product of many (or an aggregate of
 * them for search engines) is headed by the category ("Running Shoes" over "Nike Pegasus
 * Running Shoes"): its declared price is not the page's.
 */
function namesTheProduct(doc: DomDocument, name: string | undefined): boolean {
  const key = nameKey(name ?? '');
  if (key.length < THRESHOLDS.MIN_PRODUCT_NAME_CHARS) return false;
  const titles = [...Array.from(doc.querySelectorAll('h1')).map((h1) => h1.textContent ?? ''), doc.querySelector('title')?.textContent ?? ''];
  return titles.some((title) => {
    const heading = nameKey(title);
    if (heading.length < THRESHOLDS.MIN_PRODUCT_NAME_CHARS) return false;
    if (` ${heading} `.includes(` ${key} `)) return true;
    if (!` ${key} `.includes(` ${heading} `)) return false;
    // The name holds the heading: a title cut short, or a specific name inside a longer one.
    return (`${key} `.startsWith(`${heading} `) && heading.length >= THRESHOLDS.MIN_PRODUCT_TITLE_SHARE * key.length) || heading.length >= THRESHOLDS.MIN_SPECIFIC_PRODUCT_NAME_CHARS;
  });
}

function stringOf(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/**
 * The product facts of a page that declares itself a product page (see the module
 * comment), else null. `html` is its source: each declaration is looked for in the tree
 * only when its words occur in the source at all (a string search is far cheaper than a
 * walk of the tree); `metas` is its metaMap (metadata.ts).
 */
export function readProductPage(doc: DomDocument, html: string, metas: Map<string, string>): ProductFacts | null {
  if (!html.includes('roduct')) return null;
  const ogType = metas.get('og:type')?.toLowerCase() ?? '';
  const openGraph = ogType === 'product' || ogType === 'og:product' || ogType.startsWith('product.');
  let item: DomElement | null = null;
  if (html.includes('schema.org/Product')) {
    for (const element of Array.from(doc.querySelectorAll('[itemtype]'))) {
      if ((element.getAttribute('itemtype') ?? '').split(/\s+/).some((t) => SCHEMA_PRODUCT.test(t))) {
        item = element;
        break;
      }
    }
  }
  let product: Record<string, unknown> | null = null;
  if (/ld\+json/i.test(html)) {
    for (const data of jsonLdValues(doc, 'Product')) {
      product = jsonLdProduct(data);
      if (product !== null) break;
    }
  }
  if (!openGraph && item === null && product === null) return null;
  const description = product === null ? null : declaredText(product.description);
  const offer = (product === null ? null : jsonLdOffer(product.offers)) ?? (item === null ? null : microdataOffer(item)) ?? openGraphOffer(metas);
  if (offer === null) return { offer, description };
  const name = stringOf(product?.name) ?? (item === null ? undefined : itemValue(item, 'name')) ?? metas.get('og:title');
  return { offer: namesTheProduct(doc, name) ? offer : null, description };
}

/** Whether the document declares itself a product page (see readProductPage). */
export function isProductPage(doc: DomDocument, html: string, metas: Map<string, string>): boolean {
  return readProductPage(doc, html, metas) !== null;
}

function describes(element: DomElement): boolean {
  const words = `${classAndId(element)} ${element.getAttribute('itemprop') ?? ''}`;
  return DESCRIPTION_WORD.test(words.replace(/([a-z])([A-Z])/g, '$1-$2'));
}

/**
 * The product description under `root` (the cleaned body): the element named for it with
 * the most text, when that holds between MIN_ and MAX_DESCRIPTION_SHARE of `root`'s text;
 * `stats` are the text statistics of the tree as it is now.
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
  return best !== null && bestChars >= THRESHOLDS.MIN_DESCRIPTION_SHARE * total && bestChars < THRESHOLDS.MAX_DESCRIPTION_SHARE * total ? best : null;
}
