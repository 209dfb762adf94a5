/**
 * Page metadata (title, description, language, publication date) read from the head with a
 * few regular expressions. Format `html` returns the page as served and still reports this
 * metadata; running the full Markdown cascade (DOM, Readability) only to learn a title would
 * cost far more than the request needs. It also fills gaps the cascade leaves.
 */

import { toIsoDate } from '../core/dates.js';
import { decodeEntities } from '../core/entities.js';

export interface HtmlMeta {
  title?: string;
  description?: string;
  language?: string;
  published_at?: string;
}

/** The head sits at the top; JSON-LD may be in the body but rarely past this point. */
const SCAN_CHARS = 512 * 1024;

const ATTRIBUTE = /([^\s"'>/=]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]*)))?/g;

/** Attributes of a start tag (`<meta a="b" c=d e>`), names lower-cased, first one wins. */
export function tagAttributes(tag: string): Map<string, string> {
  const attributes = new Map<string, string>();
  const open = /^<[^\s/>]+/.exec(tag);
  const body = open === null ? tag : tag.slice(open[0].length);
  for (const match of body.matchAll(ATTRIBUTE)) {
    const name = match[1]!.toLowerCase();
    if (!attributes.has(name)) attributes.set(name, match[2] ?? match[3] ?? match[4] ?? '');
  }
  return attributes;
}

/**
 * Meta names that carry a page's publication date, most trusted first (Open Graph and
 * schema.org before Dublin Core and vendor tags). Shared with the DOM metadata reader.
 */
export const PUBLISHED_META_NAMES: readonly string[] = [
  'article:published_time',
  'og:published_time',
  'datepublished',
  'date',
  'dc.date',
  'dc.date.issued',
  'dcterms.created',
  'dcterms.issued',
  'pubdate',
  'publish-date',
  'publish_date',
  'publication_date',
  'citation_publication_date',
  'parsely-pub-date',
  'sailthru.date',
];
const DATE_META_NAMES: ReadonlySet<string> = new Set(PUBLISHED_META_NAMES);

export function readHtmlMeta(html: string): HtmlMeta {
  const text = html.slice(0, SCAN_CHARS).replace(/<!--[\s\S]*?-->/g, '');
  const metas = new Map<string, string>();
  for (const [tag] of text.matchAll(/<meta(?=[\s/])[^>]*>/gi)) {
    const attributes = tagAttributes(tag);
    const key = (
      attributes.get('property') ??
      attributes.get('name') ??
      attributes.get('itemprop') ??
      attributes.get('http-equiv')
    )
      ?.trim()
      .toLowerCase();
    const content = attributes.get('content');
    if (key !== undefined && content !== undefined && !metas.has(key)) metas.set(key, clean(content, 'attribute'));
  }

  const meta: HtmlMeta = {};
  const titleMatch = /<title(?:\s[^>]*)?>([\s\S]*?)<\/title\s*>/i.exec(text);
  const title =
    (titleMatch === null ? '' : clean(titleMatch[1]!, 'text')) || metas.get('og:title') || metas.get('twitter:title');
  if (title) meta.title = title;

  const description = metas.get('description') || metas.get('og:description') || metas.get('twitter:description');
  if (description) meta.description = description;

  const htmlTag = /<html(?=[\s>])[^>]*>/i.exec(text);
  const language =
    (htmlTag === null ? undefined : tagAttributes(htmlTag[0]).get('lang')?.trim()) ||
    metas.get('content-language')?.split(',')[0]?.trim() ||
    metas.get('og:locale')?.replace('_', '-');
  if (language) meta.language = language;

  const published = publishedAt(metas, text);
  if (published !== undefined) meta.published_at = published;
  return meta;
}

function publishedAt(metas: Map<string, string>, text: string): string | undefined {
  for (const [key, value] of metas) {
    if (!DATE_META_NAMES.has(key)) continue;
    const date = toIsoDate(value);
    if (date !== undefined) return date;
  }
  const jsonLd = /"datePublished"\s*:\s*"([^"]{4,40})"/.exec(text);
  return jsonLd === null ? undefined : toIsoDate(jsonLd[1]!);
}

/** A `content` attribute and `<title>` text read a name without its semicolon differently. */
function clean(value: string, context: 'attribute' | 'text'): string {
  return decodeEntities(value, context).replace(/\s+/g, ' ').trim();
}
