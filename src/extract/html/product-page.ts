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
import { classAndId } from './dom.js';
import { jsonLdValues } from './metadata.js';
import type { TextStats } from './text-stats.js';

/**
 * The description becomes a candidate when it holds at least this share of the cleaned
 * body's text: a smaller one is a teaser line or a card's blurb, and the cleaned body or
 * Readability does better. On WCXB dev, 0.3 raised product F1 by 0.025 (0.657 -> 0.682);
 * 0.2 gained less (+0.018) as short teasers replaced whole pages.
 */
export const MIN_DESCRIPTION_SHARE = 0.3;
/** ... and less than this share (else it is the page itself: nothing to choose). */
export const MAX_DESCRIPTION_SHARE = 0.95;

/** `description` as a whole word of a class/id/itemprop, camelCase split first. */
const DESCRIPTION_WORD = /(?:^|[-_\s])(?:product-?)?desc(?:ription)?s?(?=$|[-_\s])/i;

const SCHEMA_PRODUCT = /^https?:\/\/schema\.org\/Product$/i;

function isProductType(type: unknown): boolean {
  if (typeof type === 'string') return type === 'Product' || SCHEMA_PRODUCT.test(type);
  return Array.isArray(type) && type.some(isProductType);
}

/** A top-level JSON-LD node (or one in `@graph`) typed Product. */
function jsonLdProduct(data: unknown): boolean {
  const nodes = Array.isArray(data) ? data : [data];
  for (const node of nodes) {
    if (node === null || typeof node !== 'object') continue;
    const record = node as Record<string, unknown>;
    if (isProductType(record['@type'])) return true;
    const graph = record['@graph'];
    if (Array.isArray(graph) && graph.some((item) => item !== null && typeof item === 'object' && isProductType((item as Record<string, unknown>)['@type']))) {
      return true;
    }
  }
  return false;
}

/**
 * Whether the document declares itself a product page (see the module comment). `html` is
 * its source: each declaration is looked for in the tree only when its words occur in the
 * source at all (a string search is far cheaper than a walk of the tree); `metas` is its
 * metaMap (metadata.ts).
 */
export function isProductPage(doc: DomDocument, html: string, metas: Map<string, string>): boolean {
  if (!html.includes('roduct')) return false;
  const ogType = metas.get('og:type')?.toLowerCase() ?? '';
  if (ogType === 'product' || ogType === 'og:product' || ogType.startsWith('product.')) return true;
  const microdata = html.includes('schema.org/Product') ? Array.from(doc.querySelectorAll('[itemtype]')) : [];
  for (const element of microdata) {
    if ((element.getAttribute('itemtype') ?? '').split(/\s+/).some((t) => SCHEMA_PRODUCT.test(t))) return true;
  }
  if (!/ld\+json/i.test(html)) return false;
  for (const data of jsonLdValues(doc, 'Product')) if (jsonLdProduct(data)) return true;
  return false;
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
  return best !== null && bestChars >= MIN_DESCRIPTION_SHARE * total && bestChars < MAX_DESCRIPTION_SHARE * total ? best : null;
}
