/**
 * Absolute URLs for links and images, against the document base URL: `<base href>`, else
 * the page URL (HTML Standard); without the parameters that only track the click.
 */

import { dropTrackingParams } from '../../core/drop-tracking-params.js';
import type { DomDocument } from './dom.js';

/** Schemes a link in the Markdown may keep; anything else (javascript:, data:, ...) is dropped. */
const LINK_SCHEMES: ReadonlySet<string> = new Set(['http:', 'https:', 'mailto:', 'tel:', 'ftp:']);
/** Schemes an image may keep: inline `data:` images would bloat the Markdown. */
const IMAGE_SCHEMES: ReadonlySet<string> = new Set(['http:', 'https:']);

function parseUrl(value: string, base?: string): URL | null {
  try {
    return new URL(value, base);
  } catch {
    return null;
  }
}

export function documentBaseUrl(doc: DomDocument, pageUrl: string): string | null {
  const page = parseUrl(pageUrl);
  const baseHref = doc.querySelector('base[href]')?.getAttribute('href')?.trim();
  if (baseHref) {
    const base = parseUrl(baseHref, page?.href);
    if (base !== null && (base.protocol === 'http:' || base.protocol === 'https:')) return base.href;
  }
  return page === null ? null : page.href;
}

function resolve(
  reference: string | null | undefined,
  base: string | null,
  schemes: ReadonlySet<string>,
): string | null {
  // Browsers strip ASCII tab and newline anywhere in a URL, and leading/trailing spaces.
  const cleaned = (reference ?? '').replace(/[\t\n\r]/g, '').trim();
  if (cleaned === '') return null;
  const url = parseUrl(cleaned, base ?? undefined);
  if (url === null) return null;
  return schemes.has(url.protocol) ? dropTrackingParams(url.href) : null;
}

/** Absolute URL of a link target, or null when it cannot or should not be followed. */
export function absoluteLink(href: string | null | undefined, base: string | null): string | null {
  return resolve(href, base, LINK_SCHEMES);
}

/** Absolute URL of an image source, or null (missing, `data:`, unparseable). */
export function absoluteImage(src: string | null | undefined, base: string | null): string | null {
  return resolve(src, base, IMAGE_SCHEMES);
}

/**
 * A permalink sign (`¶`, `#` beside a heading): an in-page link without a letter or digit;
 * the Markdown drops it.
 */
export function isPermalinkSign(href: string, text: string): boolean {
  return href.startsWith('#') && !/[\p{L}\p{N}]/u.test(text);
}
