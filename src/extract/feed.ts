/**
 * A feed read from its parsed tree (xml-tree.ts): RSS 2.0 (items in the channel), RSS 1.0
 * (RDF: items beside it) and Atom (RFC 4287). One reading for both uses: a feed as Markdown
 * (xml.ts) and a feed's items as a site's URLs (site/feed-items.ts).
 */

import { dropTrackingParams } from '../core/drop-tracking-params.js';
import { decodeEntities } from '../core/entities.js';
import { htmlToPlainText } from './html-to-plain-text.js';
import { asArray, attribute, first, isObject, localName, textOf } from './xml-tree.js';
import type { XmlNode, XmlObject, XmlRoot } from './xml-tree.js';

/** Root elements of the feeds read here (local names). */
export const FEED_ROOTS: ReadonlySet<string> = new Set(['rss', 'RDF', 'feed']);

export interface Feed {
  title: string;
  /** Plain text. */
  description: string;
  items: FeedEntry[];
}

export interface FeedEntry {
  title: string;
  /** As written ('' when none): resolve it against `base` with feedLink. */
  link: string;
  /** The URL its link is relative to: the `xml:base` in scope, else the feed's own URL. */
  base: string | undefined;
  /** As written ('' when none). */
  date: string;
  /** HTML, as written. */
  summary: string;
}

/** The feed of a root `FEED_ROOTS` names, `baseUrl` the feed's URL; null when it holds no channel. */
export function readFeed(root: XmlRoot, baseUrl: string | undefined): Feed | null {
  const base = xmlBase(root.node, baseUrl);
  switch (localName(root.name)) {
    case 'rss':
      return rssFeed(first(root.node['channel']), undefined, base);
    case 'RDF':
      return rssFeed(first(root.node['channel']), root.node['item'], base);
    case 'feed':
      return atomFeed(root.node, base);
    default:
      return null;
  }
}

/**
 * An absolute http(s) URL, resolved against its base, without tracking parameters (feed
 * services tag every item link); null for anything else (javascript:, a relative link
 * without a base).
 */
export function feedLink(link: string, base: string | undefined): string | null {
  const trimmed = link.trim();
  if (trimmed === '') return null;
  try {
    const url = new URL(trimmed, base);
    return url.protocol === 'http:' || url.protocol === 'https:' ? dropTrackingParams(url.href) : null;
  } catch {
    return null;
  }
}

/** RSS 2.0 (items inside the channel) and RSS 1.0 (items beside it, passed as `rdfItems`). */
function rssFeed(channel: XmlNode | undefined, rdfItems: XmlNode | undefined, base: string | undefined): Feed | null {
  if (!isObject(channel)) return null;
  const channelBase = xmlBase(channel, base);
  const items = asArray(rdfItems ?? channel['item'])
    .filter(isObject)
    .map((item) => ({
      // A title is plain text, but feeds often escape its references twice (`&amp;#8217;`).
      title: decodeEntities(textOf(item['title']), 'strict'),
      link: textOf(item['link']) || permalinkOf(item),
      base: xmlBase(item, rdfItems === undefined ? channelBase : base),
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

function atomFeed(feed: XmlObject, base: string | undefined): Feed {
  const items = asArray(feed['entry'])
    .filter(isObject)
    .map((entry) => {
      const link = atomLink(entry['link'], xmlBase(entry, base));
      return {
        title: atomText(entry['title']),
        link: link.href,
        base: link.base,
        date: textOf(entry['published']) || textOf(entry['updated']),
        summary: textOf(entry['summary']) || textOf(entry['content']),
      };
    });
  return { title: atomText(feed['title']), description: atomText(feed['subtitle']), items };
}

/** Atom text constructs: `type="html"` and `xhtml` carry markup, `text` (default) does not. */
function atomText(node: XmlNode | undefined): string {
  const value = first(node);
  const type = isObject(value) ? attribute(value, 'type') : '';
  return type === 'html' || type === 'xhtml' ? htmlToPlainText(textOf(value)) : textOf(value).trim();
}

/** The `rel="alternate"` link (or one without rel, which means alternate: RFC 4287 4.2.7.2), else the first. */
function atomLink(node: XmlNode | undefined, base: string | undefined): { href: string; base: string | undefined } {
  const links = asArray(node).filter(isObject);
  const alternate = links.find((link) => ['', 'alternate'].includes(attribute(link, 'rel'))) ?? links[0];
  return alternate === undefined
    ? { href: '', base }
    : { href: attribute(alternate, 'href'), base: xmlBase(alternate, base) };
}

/**
 * The base URL inside an element: its `xml:base` (XML Base, which RFC 4287 section 2 applies
 * to Atom's links) resolved against the one in scope, or that one when it has none.
 */
function xmlBase(node: XmlObject, inScope: string | undefined): string | undefined {
  const declared = attribute(node, 'xml:base');
  if (declared === '') return inScope;
  try {
    return new URL(declared, inScope).href;
  } catch {
    return inScope;
  }
}
