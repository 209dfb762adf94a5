/**
 * Open Graph and Twitter cards, read from the document's `<meta>` elements themselves (a
 * repeated og:image is a list; metaMap keeps the first value only): the `open_graph` and
 * `twitter_card` records as the page states them, and the one item Open Graph declares
 * when its og:type is an article or a product.
 */

import { toIsoDate } from '../../../../core/dates.js';
import type { DomDocument } from '../../dom.js';
import { normalizeSpace } from '../../dom.js';
import { availabilityName } from '../../finish/product-offer.js';
import { absoluteImage, absoluteLink } from '../../urls.js';
import { readAmount } from './amount.js';
import { STRUCTURED_DATA_BOUNDS } from './bounds.js';
import type { Notes } from './notes.js';
import { CUT_LIST_NOTE } from './notes.js';
import { cutString } from './thing.js';
import type { StructuredItem, StructuredOffer } from './types.js';
import { inOrder } from './item-of.js';
import { isUrlLike } from './values.js';

const { maxArrayEntries } = STRUCTURED_DATA_BOUNDS;

export interface MetaCards {
  open_graph?: OpenGraph;
  twitter_card?: Record<string, string>;
}

type OpenGraph = Record<string, string | string[]>;
type Head = Pick<StructuredItem, 'type' | 'sources'>;

/** Open Graph's own names lose their `og:`; article:* and product:* keep theirs. */
const OPEN_GRAPH_KEY = /^(?:og:(.+)|((?:article|product):.+))$/;

export function readMetaCards(doc: DomDocument, notes: Notes): MetaCards {
  const openGraph = new Map<string, string[]>();
  const twitter = new Map<string, string>();
  for (const meta of Array.from(doc.getElementsByTagName('meta'))) {
    const key = (meta.getAttribute('property') ?? meta.getAttribute('name'))?.trim().toLowerCase();
    const content = cutString(normalizeSpace(meta.getAttribute('content')), notes);
    if (key === undefined || content === '') continue;
    const og = OPEN_GRAPH_KEY.exec(key);
    if (og !== null) {
      const name = og[1] ?? og[2]!;
      const values = openGraph.get(name);
      if (values === undefined && openGraph.size >= maxArrayEntries) notes.add(CUT_LIST_NOTE);
      else if (values === undefined) openGraph.set(name, [content]);
      else if (values.length >= maxArrayEntries) notes.add(CUT_LIST_NOTE);
      else values.push(content);
    } else if (key.startsWith('twitter:') && key.length > 8 && !twitter.has(key.slice(8))) {
      if (twitter.size < maxArrayEntries) twitter.set(key.slice(8), content);
      else notes.add(CUT_LIST_NOTE);
    }
  }
  const cards: MetaCards = {};
  if (openGraph.size > 0)
    cards.open_graph = Object.fromEntries(
      [...openGraph].map(([name, values]) => [name, values.length === 1 ? values[0]! : values]),
    );
  if (twitter.size > 0) cards.twitter_card = Object.fromEntries(twitter);
  return cards;
}

function all(record: OpenGraph, ...keys: string[]): string[] {
  return keys.flatMap((key) => (Object.hasOwn(record, key) ? ([] as string[]).concat(record[key]!) : []));
}

function first(record: OpenGraph, ...keys: string[]): string | undefined {
  return all(record, ...keys)[0];
}

/** The first value of an Open Graph property. */
export function firstOf(record: OpenGraph | undefined, key: string): string | undefined {
  return record === undefined ? undefined : first(record, key);
}

/** The kind of item an og:type declares: `article`, `product` (`product.item`, `og:product`), else none. */
export function openGraphKind(ogType: string | undefined): 'article' | 'product' | undefined {
  const type = ogType?.trim().toLowerCase().replace(/^og:/, '');
  if (type === 'article' || type?.startsWith('article.')) return 'article';
  if (type === 'product' || type?.startsWith('product.')) return 'product';
  return undefined;
}

/** The item Open Graph declares for an article or a product page. */
export function openGraphItem(record: OpenGraph, kind: 'article' | 'product', base: string | null): StructuredItem {
  const images: string[] = [];
  for (const src of all(record, 'image', 'image:url', 'image:secure_url')) {
    const image = absoluteImage(src, base);
    if (image !== null && !images.includes(image)) images.push(image);
  }
  const url = absoluteLink(first(record, 'url'), base) ?? undefined;
  const head = { type: kind === 'article' ? 'Article' : 'Product', sources: ['opengraph' as const] };
  return inOrder(kind === 'product' ? productItem(record, head, images, url) : articleItem(record, head, images, url));
}

function productItem(record: OpenGraph, head: Head, images: string[], url: string | undefined): StructuredItem {
  const offer: StructuredOffer = {
    price: readAmount(first(record, 'product:price:amount', 'price:amount')),
    currency: first(record, 'product:price:currency', 'price:currency')?.toUpperCase(),
    availability: availabilityName(first(record, 'product:availability', 'availability')),
  };
  return {
    ...head,
    name: first(record, 'title'),
    description: first(record, 'description'),
    brand: first(record, 'product:brand', 'brand'),
    sku: first(record, 'product:retailer_item_id'),
    image: images,
    url,
    offers: [offer],
  };
}

function articleItem(record: OpenGraph, head: Head, images: string[], url: string | undefined): StructuredItem {
  const siteName = first(record, 'site_name');
  const tags = [...new Set(all(record, 'article:tag'))];
  return {
    ...head,
    headline: first(record, 'title'),
    description: first(record, 'description'),
    authors: openGraphAuthors(record).map((name) => ({ name })),
    date_published: toIsoDate(first(record, 'article:published_time')),
    date_modified: toIsoDate(first(record, 'article:modified_time', 'updated_time')),
    publisher: siteName === undefined ? undefined : { name: siteName },
    image: images,
    url,
    section: first(record, 'article:section'),
    keywords: tags,
  };
}

/** article:author values that are names (most pages give a profile URL there instead). */
export function openGraphAuthors(record: OpenGraph | undefined): string[] {
  return record === undefined ? [] : all(record, 'article:author').filter((name) => !isUrlLike(name));
}
