/**
 * XML to Markdown: RSS 2.0, RSS 1.0 (RDF) and Atom feeds become a heading and a list of
 * items; sitemaps and sitemap indexes a list of URLs; any other XML, and any document that
 * is not well-formed, a ```xml fence of the source (readable, never an error).
 *
 * The document is parsed by xml-tree.ts (no DOCTYPE, no entity but XML's own is ever
 * expanded, nothing fetched) and a feed read by feed.ts, which site/feed-items.ts shares.
 */

import { toIsoDate } from '../core/dates.js';
import { FEED_ROOTS, feedLink, readFeed } from './feed.js';
import type { Feed } from './feed.js';
import { htmlToPlainText } from './html-to-plain-text.js';
import { fencedBlock } from './text.js';
import { asArray, isObject, localName, parseXmlRoot, textOf } from './xml-tree.js';
import type { XmlNode } from './xml-tree.js';

export interface XmlConversion {
  markdown: string;
  title?: string;
  description?: string;
}

/** Length of an item summary before it is cut at a word boundary. */
const SUMMARY_CHARS = 300;

const RENDERED_ROOTS: ReadonlySet<string> = new Set([...FEED_ROOTS, 'urlset', 'sitemapindex']);

export function convertXml(text: string, baseUrl: string): XmlConversion {
  const fallback = (): XmlConversion => ({ markdown: text.trim() === '' ? '' : fencedBlock(text, 'xml') });
  // Only feeds and sitemaps are rendered; anything else is fenced without the cost of a parse.
  const root = parseXmlRoot(text, RENDERED_ROOTS);
  if (root === null) return fallback();
  switch (localName(root.name)) {
    case 'urlset':
      return renderSitemap('Sitemap', root.node['url'], baseUrl);
    case 'sitemapindex':
      return renderSitemap('Sitemap index', root.node['sitemap'], baseUrl);
    default:
      return renderFeed(readFeed(root, baseUrl)) ?? fallback();
  }
}

function renderFeed(feed: Feed | null): XmlConversion | null {
  if (feed === null) return null;
  const blocks: string[] = [];
  if (feed.title !== '') blocks.push(`# ${oneLine(feed.title)}`);
  if (feed.description !== '') blocks.push(feed.description);
  const lines = feed.items.map((item) => {
    const title = oneLine(item.title) || oneLine(item.link) || 'Untitled';
    const href = feedLink(item.link, item.base);
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
    const href = feedLink(textOf(entry['loc']), baseUrl);
    if (href === null) continue;
    const lastmod = textOf(entry['lastmod']);
    lines.push(`- <${href}>${lastmod === '' ? '' : ` — ${lastmod}`}`);
  }
  // The heading names what the list is; it is no title of the document, so none is reported.
  return { markdown: [`# ${title}`, ...(lines.length > 0 ? [lines.join('\n')] : [])].join('\n\n') };
}

// ---- rendering helpers --------------------------------------------------------------------

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** Link text and list items must not turn into Markdown syntax. */
function escapeText(text: string): string {
  return text.replace(/([\\[\]*_`<>])/g, '\\$1');
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
