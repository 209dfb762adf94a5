/**
 * One item per entity: a page that declares its article in JSON-LD and again in microdata
 * gets one item, its `sources` listing both. Two items are one entity when their types are
 * of one family and the first identifier both state is equal: the `@id`, else the url,
 * else the headline or name (a breadcrumb trail's names, an FAQ's first question), in any
 * case. A field both state keeps the first one's value (items come in source order:
 * json-ld, microdata, rdfa, opengraph; page order within one); differing dates are noted.
 */

import { STRUCTURED_DATA_BOUNDS } from './bounds.js';
import { inOrder } from './item-of.js';
import type { Notes } from './notes.js';
import { familyOf, mainType } from './schema-types.js';
import type { StructuredItem } from './types.js';
import { SOURCE_ORDER } from './types.js';

/** Fields whose differing values are worth a note: which date is right is the reader's call. */
const DATE_FIELDS: readonly (keyof StructuredItem)[] = ['date_published', 'date_modified', 'start_date', 'end_date'];

/** Fields that say what the item is rather than what it holds. */
const HEAD_FIELDS: ReadonlySet<string> = new Set(['type', 'types', 'vocab', 'sources', 'id', 'properties']);

/** What tells entities apart, worked out once an item. */
interface EntityKeys {
  family: string;
  id?: string;
  url?: string;
  name?: string;
}

/** The page's items, one per entity, at most maxItems. */
export class ItemSet {
  readonly items: StructuredItem[] = [];
  private readonly keys: EntityKeys[] = [];

  constructor(private readonly notes: Notes) {}

  /** Adds `item`, into the item it duplicates if any; false (nothing added) when it is new and the set is full. */
  add(item: StructuredItem): boolean {
    const keys = keysOf(item);
    const at = this.keys.findIndex((known) => sameEntity(known, keys));
    if (at >= 0) {
      this.items[at] = merged(this.items[at]!, item, this.notes);
      this.keys[at] = keysOf(this.items[at]!);
      return true;
    }
    if (this.items.length >= STRUCTURED_DATA_BOUNDS.maxItems) return false;
    this.items.push(item);
    this.keys.push(keys);
    return true;
  }
}

function rawString(item: StructuredItem, property: string): string | undefined {
  const value = item.properties?.[property];
  return typeof value === 'string' ? value : undefined;
}

function keysOf(item: StructuredItem): EntityKeys {
  const name =
    item.headline ??
    item.name ??
    rawString(item, 'headline') ??
    rawString(item, 'name') ??
    item.items?.map((entry) => entry.name).join(' > ') ??
    item.questions?.[0]?.question;
  return {
    family: item.vocab === undefined ? (familyOf(item.type) ?? item.type) : `${item.vocab} ${item.type}`,
    id: item.id,
    url: (item.url ?? rawString(item, 'url'))?.replace(/\/$/, ''),
    name: name?.replace(/\s+/g, ' ').trim().toLowerCase() || undefined,
  };
}

function sameEntity(a: EntityKeys, b: EntityKeys): boolean {
  if (a.family !== b.family) return false;
  if (a.id !== undefined && b.id !== undefined) return a.id === b.id;
  if (a.url !== undefined && b.url !== undefined) return a.url === b.url;
  return a.name !== undefined && a.name === b.name;
}

function merged(first: StructuredItem, second: StructuredItem, notes: Notes): StructuredItem {
  const out: Record<string, unknown> = { ...first };
  for (const [field, value] of Object.entries(second)) {
    if (HEAD_FIELDS.has(field)) continue;
    const kept = out[field];
    if (kept === undefined) out[field] = value;
    else if (DATE_FIELDS.includes(field as keyof StructuredItem) && kept !== value) {
      const label = (first.headline ?? first.name ?? '').slice(0, 80);
      notes.add(
        `${first.type}${label === '' ? '' : ` "${label}"`} declares two ${field} values: ` +
          `${String(kept)} (${first.sources[0]}) kept, ${String(value)} (${second.sources[0]}) left out`,
      );
    }
  }
  const types = [...(first.types ?? [first.type]), ...(second.types ?? [second.type])].filter(
    (type, at, all) => all.indexOf(type) === at,
  );
  const item = out as unknown as StructuredItem;
  item.type = mainType([first.type, second.type]);
  item.types = types.length > 1 ? types : undefined;
  item.sources = SOURCE_ORDER.filter((source) => first.sources.includes(source) || second.sources.includes(source));
  item.id = first.id ?? second.id;
  if (first.properties !== undefined || second.properties !== undefined) {
    const kept = Object.entries(first.properties ?? {});
    const added = Object.entries(second.properties ?? {}).filter(
      ([name]) => !Object.hasOwn(first.properties ?? {}, name),
    );
    item.properties = Object.fromEntries([...kept, ...added]);
  }
  return inOrder(item);
}
