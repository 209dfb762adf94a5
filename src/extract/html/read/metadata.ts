/**
 * Page metadata read from the parsed document (before any cleaning):
 *   title        og:title / twitter:title, else <title> (or the page's h1 when <title> is
 *                that h1 plus a site name), else the first h1;
 *   description  meta description, else og:description / twitter:description;
 *   language     <html lang>, else the Content-Language meta;
 *   published_at meta article:published_time (and its usual aliases), else JSON-LD
 *                datePublished, else a <time datetime> inside the article; ISO 8601.
 * JSON-LD comes before <time>: it is stated for the page, while a <time> in the article
 * may as well date a comment or an event.
 */

import { toIsoDate } from '../../../core/dates.js';
import type { DomDocument, DomElement } from '../dom.js';
import { normalizeSpace } from '../dom.js';
import { PUBLISHED_META_NAMES } from '../../html-meta.js';
import { jsonLdBlocks } from './json-ld-blocks.js';

export interface PageMetadata {
  title?: string;
  description?: string;
  language?: string;
  published_at?: string;
  /** The authors' names: the structured data's, else the byline's (pipeline.ts, the metadata pass). */
  authors?: string[];
}

const PUBLISHED_META = PUBLISHED_META_NAMES;

/** `metas` is the document's metaMap, when the caller already has it. */
export function readMetadata(doc: DomDocument, metas: Map<string, string> = metaMap(doc)): PageMetadata {
  const out: PageMetadata = {};
  const title = pageTitle(doc, metas);
  if (title) out.title = title;
  const description = metas.get('description') || metas.get('og:description') || metas.get('twitter:description');
  if (description) out.description = description;
  const language = pageLanguage(doc, metas);
  if (language) out.language = language;
  const published = publishedAt(doc, metas);
  if (published) out.published_at = published;
  return out;
}

/** meta name/property/itemprop/http-equiv (lower-cased) -> content; the first one wins. */
export function metaMap(doc: DomDocument): Map<string, string> {
  const metas = new Map<string, string>();
  for (const meta of Array.from(doc.getElementsByTagName('meta'))) {
    const key = (
      meta.getAttribute('property') ??
      meta.getAttribute('name') ??
      meta.getAttribute('itemprop') ??
      meta.getAttribute('http-equiv')
    )
      ?.trim()
      .toLowerCase();
    const content = normalizeSpace(meta.getAttribute('content') ?? meta.getAttribute('datetime'));
    if (key && content && !metas.has(key)) metas.set(key, content);
  }
  return metas;
}

function pageTitle(doc: DomDocument, metas: Map<string, string>): string | undefined {
  const og = metas.get('og:title') || metas.get('twitter:title');
  if (og) return og;
  const titleElement =
    doc.head?.querySelector('title') ??
    Array.from(doc.querySelectorAll('title')).find((el) => el.closest('svg') === null);
  const title = normalizeSpace(titleElement?.textContent);
  const h1 = normalizeSpace(doc.querySelector('h1')?.textContent);
  // "Headline | Site name" (or "Site name - Headline"): the h1 alone is the better title.
  if (title && h1 && title !== h1) {
    if (title.startsWith(h1) && TITLE_SEPARATOR_AFTER.test(title.slice(h1.length))) return h1;
    if (title.endsWith(h1) && TITLE_SEPARATOR_BEFORE.test(title.slice(0, -h1.length))) return h1;
  }
  return title || h1 || undefined;
}

const TITLE_SEPARATOR_AFTER = /^\s*[|\-\u2013\u2014\u00b7\u2022:\u00bb/\\]\s/;
const TITLE_SEPARATOR_BEFORE = /\s[|\-\u2013\u2014\u00b7\u2022:\u00bb/\\]\s*$/;

function pageLanguage(doc: DomDocument, metas: Map<string, string>): string | undefined {
  const raw =
    doc.documentElement?.getAttribute('lang') ||
    doc.documentElement?.getAttribute('xml:lang') ||
    metas.get('content-language');
  const first = raw?.split(',')[0]?.trim().replace(/_/g, '-');
  return first && /^[A-Za-z]{2,8}(?:-[A-Za-z0-9]{1,8})*$/.test(first) ? first : undefined;
}

function publishedAt(doc: DomDocument, metas: Map<string, string>): string | undefined {
  for (const name of PUBLISHED_META) {
    const date = toIsoDate(metas.get(name));
    if (date) return date;
  }
  const fromJsonLd = jsonLdDate(doc);
  if (fromJsonLd) return fromJsonLd;
  const scope = doc.querySelector('article') ?? doc.querySelector('main') ?? doc.body;
  const time = scope?.querySelector('time[datetime]') as DomElement | null | undefined;
  return toIsoDate(time?.getAttribute('datetime'));
}

function jsonLdDate(doc: DomDocument): string | undefined {
  for (const data of jsonLdValues(doc, 'datePublished')) {
    const date = toIsoDate(findDatePublished(data, 0));
    if (date) return date;
  }
  return undefined;
}

/**
 * The parsed JSON-LD blocks of the document whose text contains `needle` (a cheap filter
 * before parsing), each at most MAX_JSON_LD_CHARS long; broken blocks are skipped
 * (json-ld-blocks.ts).
 */
export function* jsonLdValues(doc: DomDocument, needle: string): Generator<unknown> {
  for (const block of jsonLdBlocks(doc, needle)) if ('value' in block) yield block.value;
}

/** First `datePublished` string in a JSON-LD value (objects, arrays, `@graph`), depth-limited. */
function findDatePublished(value: unknown, depth: number): string | undefined {
  if (depth > 6 || value === null || typeof value !== 'object') return undefined;
  if (Array.isArray(value)) {
    for (const item of value) {
      const found = findDatePublished(item, depth + 1);
      if (found) return found;
    }
    return undefined;
  }
  const record = value as Record<string, unknown>;
  if (typeof record.datePublished === 'string') return record.datePublished;
  for (const key of Object.keys(record)) {
    const found = findDatePublished(record[key], depth + 1);
    if (found) return found;
  }
  return undefined;
}
