/**
 * The page's links for `include_links`: every `<a href>` and `<area href>` of the body in
 * page order, made absolute against the document base with the tracking parameters dropped
 * (urls.ts), one entry per URL; only http(s) targets, and no in-page anchor (a fragment of
 * this very document). Which of them the extracted content holds is told by the links of
 * the element that was written (`linkTargets`).
 */

import type { DomElement } from '../dom.js';
import { descendants, normalizeSpace } from '../dom.js';
import { absoluteLink } from '../urls.js';
import type { PageLink } from '../../types.js';

/** At most this many links in a result; `links_truncated` says when the page has more. */
export const MAX_LINKS = 1000;
/** A link's text is cut here: a whole card wrapped in `<a>` is no label. */
const MAX_LINK_TEXT = 300;

const LINK_TAGS: ReadonlySet<string> = new Set(['a', 'area']);

export interface FoundLinks {
  links: { url: string; text: string }[];
  truncated: boolean;
}

/** The URL without its fragment, for telling an in-page anchor. */
function withoutFragment(url: string): string {
  const hash = url.indexOf('#');
  return hash === -1 ? url : url.slice(0, hash);
}

/** What a link says: its text, else its label, title or image's alt. */
function linkText(element: DomElement): string {
  let text = normalizeSpace(element.textContent);
  if (text === '') text = normalizeSpace(element.getAttribute('aria-label') ?? element.getAttribute('title'));
  if (text === '') text = normalizeSpace(element.querySelector('img[alt]')?.getAttribute('alt'));
  return text.length > MAX_LINK_TEXT ? `${text.slice(0, MAX_LINK_TEXT - 1)}…` : text;
}

/** The link targets under `root` as the page list spells them: absolute, http(s) only, tracking dropped. */
function targets(root: DomElement, base: string | null): { element: DomElement; url: string }[] {
  const out: { element: DomElement; url: string }[] = [];
  for (const element of descendants(root, LINK_TAGS)) {
    const href = element.getAttribute('href');
    if (href === null || href.trim().startsWith('#')) continue;
    const url = absoluteLink(href, base);
    if (url !== null && (url.startsWith('http:') || url.startsWith('https:'))) out.push({ element, url });
  }
  return out;
}

/** Every link of `body`, one per URL (the first text that is not empty), in page order, at most MAX_LINKS. */
export function collectLinks(body: DomElement, base: string | null, pageUrl: string): FoundLinks {
  const page = withoutFragment(pageUrl);
  const byUrl = new Map<string, { url: string; text: string }>();
  for (const { element, url } of targets(body, base)) {
    // `page.html#part` written out in full is an in-page anchor too.
    if (url.includes('#') && withoutFragment(url) === page) continue;
    const seen = byUrl.get(url);
    if (seen === undefined) byUrl.set(url, { url, text: linkText(element) });
    else if (seen.text === '') seen.text = linkText(element);
  }
  const links = [...byUrl.values()];
  return { links: links.slice(0, MAX_LINKS), truncated: links.length > MAX_LINKS };
}

/** The URLs the links under `root` point to, spelt as collectLinks spells them. */
export function linkTargets(root: DomElement, base: string | null): Set<string> {
  return new Set(targets(root, base).map((t) => t.url));
}

/** The page's links, each told whether the content holds it. */
export function markInContent(found: FoundLinks, inContent: ReadonlySet<string>): PageLink[] {
  return found.links.map((link) => ({ ...link, in_content: inContent.has(link.url) }));
}
