/**
 * The items of an RSS 2.0, RSS 1.0 (RDF) or Atom feed as a site's URLs: each item's link
 * (RSS `<link>` or permalink guid, Atom's `rel="alternate"` link or its first, resolved
 * against `xml:base` and the feed's URL), title and date. Parsed and read as xml.ts reads
 * a feed for Markdown (xml-tree.ts, feed.ts): no DOCTYPE, XML's own entities only.
 */

import { toIsoDate } from '../../core/dates.js';
import { FEED_ROOTS, feedLink, readFeed } from '../feed.js';
import { parseXmlRoot } from '../xml-tree.js';

export interface FeedItem {
  /** Absolute http(s), tracking parameters dropped. */
  url: string;
  title?: string;
  /** ISO 8601 (core/dates.ts), when the item's date reads as one. */
  published?: string;
}

export interface FeedItems {
  title?: string;
  items: FeedItem[];
}

/** The feed's title and items with a usable link, in feed order; undefined when `text` is no well-formed feed. */
export function parseFeedItems(text: string, baseUrl?: string): FeedItems | undefined {
  const root = parseXmlRoot(text, FEED_ROOTS);
  const feed = root === null ? null : readFeed(root, baseUrl);
  if (feed === null) return undefined;
  const items: FeedItem[] = [];
  for (const entry of feed.items) {
    const url = feedLink(entry.link, entry.base);
    if (url === null) continue;
    const title = oneLine(entry.title);
    const published = toIsoDate(entry.date);
    items.push({ url, ...(title !== '' ? { title } : {}), ...(published !== undefined ? { published } : {}) });
  }
  const title = oneLine(feed.title);
  return { ...(title !== '' ? { title } : {}), items };
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}
