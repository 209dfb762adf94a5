/**
 * The names of the page's authors, for a result's metadata: the authors of the first
 * Article-family item that names any; else of the first other item that does (a Recipe's,
 * an Event's organizer is no author); else of a WebPage or WebSite; else Open Graph's
 * article:author names. Trimmed, without repeats in any case, at most maxAuthors.
 */

import { STRUCTURED_DATA_BOUNDS } from './bounds.js';
import { openGraphAuthors } from './open-graph.js';
import { familyOf } from './schema-types.js';
import type { StructuredData } from './types.js';
import { isUrlLike } from './values.js';

export function authorsOf(data: StructuredData): string[] {
  const items = data.items.filter((item) => item.vocab === undefined && (item.authors?.length ?? 0) > 0);
  const main =
    items.find((item) => familyOf(item.type) === 'article') ??
    items.find((item) => familyOf(item.type) !== 'webpage') ??
    items[0];
  const names = main?.authors?.map((author) => author.name) ?? openGraphAuthors(data.open_graph);
  const out: string[] = [];
  const seen = new Set<string>();
  for (const name of names.map((n) => n.replace(/\s+/g, ' ').trim())) {
    if (name === '' || isUrlLike(name) || seen.has(name.toLowerCase())) continue;
    seen.add(name.toLowerCase());
    out.push(name);
    if (out.length >= STRUCTURED_DATA_BOUNDS.maxAuthors) break;
  }
  return out;
}
