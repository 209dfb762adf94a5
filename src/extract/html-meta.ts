/**
 * Page metadata (title, description, language, publication date) read from the head with a
 * few regular expressions. Format `html` returns the page as served and still reports this
 * metadata; running the full Markdown cascade (DOM, Readability) only to learn a title would
 * cost far more than the request needs. It also fills gaps the cascade leaves.
 */

import { toIsoDate } from '../core/dates.js';
import { decodeEntities } from '../core/entities.js';
import { metaAuthors } from './html/read/bylines.js';

export interface HtmlMeta {
  title?: string;
  description?: string;
  language?: string;
  published_at?: string;
  /** The `author` meta's names (bylines.ts): a page served whole is not parsed for its byline. */
  authors?: string[];
  /**
   * The head's `<link rel="canonical">` href as written (references decoded, trimmed): the
   * caller resolves it. Absent when two disagree, as search engines then ignore both.
   */
  canonical?: string;
}

/** The head sits at the top; JSON-LD may be in the body but rarely past this point. */
const SCAN_CHARS = 512 * 1024;

/** White space as a regular expression's `\s` reads it. */
function isSpace(code: number): boolean {
  return code === 0x20 || (code >= 0x09 && code <= 0x0d) || (code >= 0x80 && /\s/.test(String.fromCharCode(code)));
}

/** Characters that end an attribute name: white space, `"`, `'`, `>`, `/`, `=`. */
function endsName(code: number): boolean {
  return isSpace(code) || code === 0x22 || code === 0x27 || code === 0x3e || code === 0x2f || code === 0x3d;
}

/**
 * Attributes of a start tag (`<meta a="b" c=d e>`), names lower-cased, first one wins. A
 * scan by character code: site discovery reads every link's tag, and a regular
 * expression's matches cost three times as much.
 */
export function tagAttributes(tag: string): Map<string, string> {
  const attributes = new Map<string, string>();
  const open = /^<[^\s/>]+/.exec(tag);
  let i = open === null ? 0 : open[0].length;
  while (i < tag.length) {
    if (endsName(tag.charCodeAt(i))) {
      i++;
      continue;
    }
    const start = i;
    let upper = false;
    for (; i < tag.length; i++) {
      const code = tag.charCodeAt(i);
      if (endsName(code)) break;
      if ((code >= 0x41 && code <= 0x5a) || code > 0x7f) upper = true;
    }
    // toLowerCase copies the name even when it has nothing to lower: most names do not.
    const name = upper ? tag.slice(start, i).toLowerCase() : tag.slice(start, i);
    let value = '';
    let j = i;
    while (j < tag.length && isSpace(tag.charCodeAt(j))) j++;
    if (tag.charCodeAt(j) === 0x3d /* = */) {
      j++;
      while (j < tag.length && isSpace(tag.charCodeAt(j))) j++;
      const quote = tag[j];
      const close = quote === '"' || quote === "'" ? tag.indexOf(quote, j + 1) : -1;
      if (close !== -1) {
        value = tag.slice(j + 1, close);
        i = close + 1;
      } else {
        // Unquoted (or an unclosed quote, kept as written): up to white space or `>`.
        let end = j;
        while (end < tag.length && !isSpace(tag.charCodeAt(end)) && tag.charCodeAt(end) !== 0x3e) end++;
        value = tag.slice(j, end);
        i = end;
      }
    }
    if (!attributes.has(name)) attributes.set(name, value);
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

  const authors = metaAuthors(metas);
  if (authors.length > 0) meta.authors = authors;

  const canonical = canonicalHref(text);
  if (canonical !== undefined) meta.canonical = canonical;
  return meta;
}

/**
 * The href of `<link rel=canonical>` in the head only: one in the body is ignored, as search
 * engines do (Google Search Central, "How to specify a canonical URL"): content can inject one.
 */
function canonicalHref(text: string): string | undefined {
  const body = /<body(?=[\s>])/i.exec(text);
  const head = body === null ? text : text.slice(0, body.index);
  const hrefs = new Set<string>();
  for (const [tag] of head.matchAll(/<link(?=[\s/])[^>]*>/gi)) {
    const attributes = tagAttributes(tag);
    const href = attributes.get('href');
    if (href === undefined || !(attributes.get('rel') ?? '').toLowerCase().split(/\s+/).includes('canonical')) continue;
    const value = decodeEntities(href, 'attribute').trim();
    if (value !== '') hrefs.add(value);
  }
  return hrefs.size === 1 ? [...hrefs][0] : undefined;
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
