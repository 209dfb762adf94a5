/**
 * The structured data a page declares, read from the parsed document before any cleaning
 * (its JSON-LD scripts keep their text, input-bounds.ts): JSON-LD, microdata and RDFa Lite
 * items in one normalised shape per type family, duplicates merged, `@id` references
 * resolved; the Open Graph and Twitter card records, and an article or product from Open
 * Graph when nothing else declares one. Pure, deterministic, bounded (bounds.ts), and it
 * never throws. Each file tells its part: the shapes (item-of.ts), the merge rule
 * (merge-items.ts), the vocabularies (vocabulary.ts), the bounds (bounds.ts).
 */

import type { DomDocument } from '../../dom.js';
import type { SourceWord, SourceWords } from '../source-words.js';
import { documentBaseUrl } from '../../urls.js';
import { STRUCTURED_DATA_BOUNDS } from './bounds.js';
import { fitSize } from './fit-size.js';
import { itemOf } from './item-of.js';
import { readJsonLd } from './json-ld.js';
import { ItemSet } from './merge-items.js';
import { readMicrodata } from './microdata.js';
import { Notes } from './notes.js';
import { firstOf, openGraphItem, openGraphKind, readMetaCards } from './open-graph.js';
import { readRdfa } from './rdfa.js';
import { familyOf, mainType } from './schema-types.js';
import type { Thing } from './thing.js';
import { isThing } from './thing.js';
import { ThingIndex } from './thing-index.js';
import type { StructuredData } from './types.js';

export { authorsOf } from './authors-of.js';
export { STRUCTURED_DATA_BOUNDS } from './bounds.js';
export type * from './types.js';

const { maxDeclarations, maxItems } = STRUCTURED_DATA_BOUNDS;

export interface StructuredDataOptions {
  /** The page's URL: the base of relative URLs (a `<base href>` overrides it, as in a browser). */
  pageUrl: string;
  /**
   * The page's source words (source-words.ts): a syntax whose mark (`ld+json`, `itemscope`,
   * `typeof=`) is not in the source is not looked for, which spares a walk of the page
   * each. Absent: every syntax is looked for.
   */
  words?: SourceWords;
}

/** `metas`: the document's metaMap (metadata.ts). */
export function readStructuredData(
  doc: DomDocument,
  metas: Map<string, string>,
  options: StructuredDataOptions,
): StructuredData {
  const base = documentBaseUrl(doc, options.pageUrl);
  const notes = new Notes();
  const declares = (word: SourceWord): boolean => options.words?.has(word) ?? true;
  const things = withMainEntities([
    ...(declares('ld+json') ? readJsonLd(doc, base, notes) : []),
    ...(declares('itemscope') ? readMicrodata(doc, base, notes) : []),
    ...(declares('typeof=') ? readRdfa(doc, base, notes) : []),
  ]);
  const index = new ThingIndex();
  for (const thing of things) index.add(thing);
  const ctx = { base, index };
  const set = new ItemSet(notes);
  let full = false;
  for (const thing of things.slice(0, maxDeclarations)) {
    const item = itemOf(thing, ctx);
    if (item !== undefined && !set.add(item)) {
      full = true;
      break;
    }
  }
  const cards = readMetaCards(doc, notes);
  const kind = openGraphKind(metas.get('og:type') ?? firstOf(cards.open_graph, 'type'));
  if (!full && kind !== undefined && cards.open_graph !== undefined) {
    const declared = set.items.some((item) => item.vocab === undefined && familyOf(item.type) === kind);
    if (!declared) full = !set.add(openGraphItem(cards.open_graph, kind, base));
  }
  const unread = !full && things.length > maxDeclarations;
  if (full) notes.add(`items truncated at ${maxItems}`, true);
  if (unread) notes.add(`declarations past the first ${maxDeclarations} left out`, true);
  const data: StructuredData = { items: set.items, ...cards };
  if (full || unread) data.truncated = true;
  return fitSize(data, notes);
}

/**
 * A web page's main entity (an ItemPage's Product, a ProfilePage's Person) is an item of its
 * own, after the page: it is what the page is about, not a detail of it.
 */
function withMainEntities(things: readonly Thing[]): Thing[] {
  const out: Thing[] = [];
  for (const thing of things) {
    out.push(thing);
    if (thing.vocab !== undefined || familyOf(mainType(thing.types)) !== 'webpage') continue;
    for (const value of thing.props.get('mainEntity') ?? [])
      if (isThing(value) && value.types.length > 0) out.push(value);
  }
  return out;
}
