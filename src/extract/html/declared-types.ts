/**
 * The types a page declares for itself, read before the noise removal takes the scripts:
 * Open Graph `og:type`, the `@type` of its JSON-LD (nested values and `@graph` too) and its
 * microdata `itemtype`s, lower-cased, schema.org's path only (`NewsArticle`, not its URL).
 * The stage selector's page features (stage-features.ts) read them.
 */

import type { DomDocument } from './dom.js';
import { jsonLdValues } from './metadata.js';
import type { SourceWords } from './source-words.js';

/** JSON-LD is read this deep: a page's own types sit near the top. */
const MAX_DEPTH = 5;
/** A page declaring more types than this is a catalogue; the first ones tell enough. */
const MAX_TYPES = 64;

export function readDeclaredTypes(doc: DomDocument, words: SourceWords, metas: Map<string, string>, source: string): Set<string> {
  const types = new Set<string>();
  const add = (value: string): void => {
    if (types.size >= MAX_TYPES) return;
    const name = value.trim().replace(/^.*[/#:]/, '').toLowerCase();
    if (name !== '') types.add(name);
  };
  // Open Graph's own names (`article`, `website`, `product`), kept apart from schema.org's.
  const ogType = metas.get('og:type')?.trim().toLowerCase();
  if (ogType) types.add(`og-${ogType.replace(/^og:/, '')}`);
  if (words.has('ld+json')) {
    for (const data of jsonLdValues(doc, '@type')) collectTypes(data, 0, add);
  }
  if (source.includes('itemtype')) {
    for (const element of Array.from(doc.querySelectorAll('[itemtype]'))) {
      for (const type of (element.getAttribute('itemtype') ?? '').split(/\s+/)) if (type !== '') add(type);
    }
  }
  return types;
}

function collectTypes(value: unknown, depth: number, add: (type: string) => void): void {
  if (depth > MAX_DEPTH || value === null || typeof value !== 'object') return;
  if (Array.isArray(value)) {
    for (const item of value) collectTypes(item, depth + 1, add);
    return;
  }
  const record = value as Record<string, unknown>;
  const type = record['@type'];
  if (typeof type === 'string') add(type);
  else if (Array.isArray(type)) for (const t of type) if (typeof t === 'string') add(t);
  for (const key of Object.keys(record)) if (key !== '@context' && key !== '@type') collectTypes(record[key], depth + 1, add);
}
