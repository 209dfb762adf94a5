/**
 * XML to Markdown: RSS 2.0, RSS 1.0 (RDF) and Atom feeds become a heading and a list of
 * items; sitemaps and sitemap indexes a list of URLs; any other XML, and any document that
 * is not well-formed, a ```xml fence of the source (readable, never an error).
 *
 * Entities are never expanded by the parser: the DOCTYPE (whose internal subset is where
 * billion-laughs and external entities live) is cut from the prolog before parsing, the
 * parser runs with `processEntities: false`, and text values are decoded here for the five
 * predefined entities and numeric references only (core/entities.ts). Nothing is ever fetched.
 */

import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { toIsoDate } from '../core/dates.js';
import { decodeEntities } from '../core/entities.js';
import { dropTrackingParams } from '../core/drop-tracking-params.js';
import { htmlToPlainText } from './html-to-plain-text.js';
import { fencedBlock } from './text.js';
import { escapeBareAmpersands, readProlog, stripDoctype } from './xml-prolog.js';

export interface XmlConversion {
  markdown: string;
  title?: string;
  description?: string;
}

/** Length of an item summary before it is cut at a word boundary. */
const SUMMARY_CHARS = 300;
const CDATA_KEY = '__cdata';
const TEXT_KEY = '#text';
const ATTRIBUTE_PREFIX = '@_';

const parser = new XMLParser({
  processEntities: false,
  htmlEntities: false,
  ignoreAttributes: false,
  attributeNamePrefix: ATTRIBUTE_PREFIX,
  cdataPropName: CDATA_KEY,
  textNodeName: TEXT_KEY,
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: true,
  ignoreDeclaration: true,
  ignorePiTags: true,
  // Bodies that hold markup (Atom xhtml, unescaped HTML) stay raw so their text keeps its
  // order; textOf unwraps CDATA and decodes the rest.
  stopNodes: ['*.description', '*.summary', '*.content', '*.content:encoded'],
});

const RENDERED_ROOTS: ReadonlySet<string> = new Set(['rss', 'RDF', 'feed', 'urlset', 'sitemapindex']);

type XmlNode = string | XmlObject | XmlNode[];
interface XmlObject {
  [key: string]: XmlNode;
}

export function convertXml(text: string, baseUrl: string): XmlConversion {
  const fallback = (): XmlConversion => ({ markdown: text.trim() === '' ? '' : fencedBlock(text, 'xml') });
  // Only feeds and sitemaps are rendered; anything else is fenced without the cost of a parse.
  const prolog = readProlog(text);
  const rootTag = /^<([A-Za-z_][\w.:-]*)/.exec(text.slice(prolog.root, prolog.root + 256));
  if (rootTag === null || !RENDERED_ROOTS.has(localName(rootTag[1]!))) return fallback();
  const prepared = escapeBareAmpersands(stripDoctype(text, prolog));
  let document: XmlObject;
  try {
    if (XMLValidator.validate(prepared) !== true) return fallback();
    document = parser.parse(prepared) as XmlObject;
  } catch {
    // Nesting deep enough to exhaust the stack, or a parser bug: still readable as source.
    return fallback();
  }
  const rootName = Object.keys(document).find((key) => !key.startsWith('?') && !key.startsWith('#'));
  if (rootName === undefined) return fallback();
  const root = first(document[rootName]);
  if (root === undefined || typeof root === 'string' || Array.isArray(root)) return fallback();

  switch (localName(rootName)) {
    case 'rss':
      return renderFeed(rssFeed(first(root['channel']), undefined), baseUrl) ?? fallback();
    case 'RDF':
      return renderFeed(rssFeed(first(root['channel']), root['item']), baseUrl) ?? fallback();
    case 'feed':
      return renderFeed(atomFeed(root), baseUrl) ?? fallback();
    case 'urlset':
      return renderSitemap('Sitemap', root['url'], baseUrl);
    case 'sitemapindex':
      return renderSitemap('Sitemap index', root['sitemap'], baseUrl);
    default:
      return fallback();
  }
}

interface Feed {
  title: string;
  description: string;
  items: FeedItem[];
}

interface FeedItem {
  title: string;
  link: string;
  date: string;
  summary: string;
}

/** RSS 2.0 (items inside the channel) and RSS 1.0 (items beside it, passed as `rdfItems`). */
function rssFeed(channel: XmlNode | undefined, rdfItems: XmlNode | undefined): Feed | null {
  if (!isObject(channel)) return null;
  const items = asArray(rdfItems ?? channel['item'])
    .filter(isObject)
    .map((item) => ({
      // A title is plain text, but feeds often escape its references twice (`&amp;#8217;`).
      title: decodeEntities(textOf(item['title']), 'strict'),
      link: textOf(item['link']) || permalinkOf(item),
      date: textOf(item['pubDate']) || textOf(item['dc:date']),
      summary: textOf(item['description']) || textOf(item['content:encoded']),
    }));
  return {
    title: decodeEntities(textOf(channel['title']), 'strict'),
    description: htmlToPlainText(textOf(channel['description'])),
    items,
  };
}

function permalinkOf(item: XmlObject): string {
  const about = attribute(item, 'rdf:about');
  if (about !== '') return about;
  const guid = first(item['guid']);
  if (guid === undefined || (isObject(guid) && attribute(guid, 'isPermaLink') === 'false')) return '';
  const value = textOf(guid);
  return /^https?:\/\//i.test(value) ? value : '';
}

function atomFeed(feed: XmlObject): Feed {
  const items = asArray(feed['entry'])
    .filter(isObject)
    .map((entry) => ({
      title: atomText(entry['title']),
      link: atomLink(entry['link']),
      date: textOf(entry['published']) || textOf(entry['updated']),
      summary: textOf(entry['summary']) || textOf(entry['content']),
    }));
  return { title: atomText(feed['title']), description: atomText(feed['subtitle']), items };
}

/** Atom text constructs: `type="html"` and `xhtml` carry markup, `text` (default) does not. */
function atomText(node: XmlNode | undefined): string {
  const value = first(node);
  const type = isObject(value) ? attribute(value, 'type') : '';
  return type === 'html' || type === 'xhtml' ? htmlToPlainText(textOf(value)) : textOf(value).trim();
}

/** The `rel="alternate"` link (or one without rel, which means alternate), else the first. */
function atomLink(node: XmlNode | undefined): string {
  const links = asArray(node).filter(isObject);
  const alternate = links.find((link) => ['', 'alternate'].includes(attribute(link, 'rel'))) ?? links[0];
  return alternate === undefined ? '' : attribute(alternate, 'href');
}

function renderFeed(feed: Feed | null, baseUrl: string): XmlConversion | null {
  if (feed === null) return null;
  const blocks: string[] = [];
  if (feed.title !== '') blocks.push(`# ${oneLine(feed.title)}`);
  if (feed.description !== '') blocks.push(feed.description);
  const lines = feed.items.map((item) => {
    const title = oneLine(item.title) || oneLine(item.link) || 'Untitled';
    const href = safeUrl(item.link, baseUrl);
    let line = href === null ? `- ${escapeText(title)}` : `- [${escapeText(title)}](${destination(href)})`;
    if (item.date !== '') line += ` — ${toIsoDate(item.date) ?? oneLine(item.date)}`;
    const summary = truncate(htmlToPlainText(item.summary), SUMMARY_CHARS);
    if (summary !== '') line += `\n  ${summary}`;
    return line;
  });
  if (lines.length > 0) blocks.push(lines.join('\n'));
  const result: XmlConversion = { markdown: blocks.join('\n\n') };
  if (feed.title !== '') result.title = oneLine(feed.title);
  if (feed.description !== '') result.description = feed.description;
  return result;
}

function renderSitemap(title: string, entries: XmlNode | undefined, baseUrl: string): XmlConversion {
  const lines: string[] = [];
  for (const entry of asArray(entries).filter(isObject)) {
    const href = safeUrl(textOf(entry['loc']), baseUrl);
    if (href === null) continue;
    const lastmod = textOf(entry['lastmod']);
    lines.push(`- <${href}>${lastmod === '' ? '' : ` — ${lastmod}`}`);
  }
  // The heading names what the list is; it is no title of the document, so none is reported.
  return { markdown: [`# ${title}`, ...(lines.length > 0 ? [lines.join('\n')] : [])].join('\n\n') };
}

// ---- node helpers -------------------------------------------------------------------------

function isObject(node: XmlNode | undefined): node is XmlObject {
  return typeof node === 'object' && node !== null && !Array.isArray(node);
}

function asArray(node: XmlNode | undefined): XmlNode[] {
  if (node === undefined) return [];
  return Array.isArray(node) ? node : [node];
}

function first(node: XmlNode | undefined): XmlNode | undefined {
  return Array.isArray(node) ? node[0] : node;
}

function localName(name: string): string {
  return name.slice(name.indexOf(':') + 1);
}

function attribute(node: XmlObject, name: string): string {
  const value = node[ATTRIBUTE_PREFIX + name];
  return typeof value === 'string' ? decodeEntities(value, 'xml').trim() : '';
}

/**
 * All character data of a node: text decoded (predefined and numeric references only),
 * CDATA verbatim, child elements included, attributes skipped.
 */
function textOf(node: XmlNode | undefined): string {
  if (node === undefined) return '';
  if (typeof node === 'string') return characterData(node);
  if (Array.isArray(node)) return node.map(textOf).join(' ').trim();
  const parts: string[] = [];
  for (const [key, value] of Object.entries(node)) {
    if (key.startsWith(ATTRIBUTE_PREFIX)) continue;
    if (key === CDATA_KEY) parts.push(...asArray(value).map((part) => (typeof part === 'string' ? part : '')));
    else parts.push(textOf(value));
  }
  return parts.join(' ').trim();
}

/**
 * Raw text as the parser left it: CDATA sections (only found in stop nodes; elsewhere the
 * parser splits them out) are taken verbatim, everything between them is entity-decoded.
 */
function characterData(raw: string): string {
  if (!raw.includes('<![CDATA[')) return decodeEntities(raw, 'xml');
  return raw
    .split(/<!\[CDATA\[([\s\S]*?)\]\]>/)
    .map((part, index) => (index % 2 === 1 ? part : decodeEntities(part, 'xml')))
    .join('');
}

// ---- rendering helpers --------------------------------------------------------------------

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** Link text and list items must not turn into Markdown syntax. */
function escapeText(text: string): string {
  return text.replace(/([\\[\]*_`<>])/g, '\\$1');
}

/**
 * An absolute http(s) URL, resolved against the feed's URL, without tracking parameters
 * (feed services tag every item link); anything else (javascript:) is dropped.
 */
function safeUrl(link: string, baseUrl: string): string | null {
  const trimmed = link.trim();
  if (trimmed === '') return null;
  try {
    const url = new URL(trimmed, baseUrl);
    return url.protocol === 'http:' || url.protocol === 'https:' ? dropTrackingParams(url.href) : null;
  } catch {
    return null;
  }
}

/** A serialised URL has no spaces or `<>`; parentheses still need the angle-bracket form. */
function destination(href: string): string {
  return /[()]/.test(href) ? `<${href}>` : href;
}

function truncate(text: string, limit: number): string {
  if (text.length <= limit) return text;
  const cut = text.slice(0, limit);
  const space = cut.lastIndexOf(' ');
  return `${(space > limit * 0.6 ? cut.slice(0, space) : cut).trimEnd()}…`;
}
