/**
 * What is never content, and what usually is not.
 *
 * `removeNoise` runs on the whole document before any stage: elements that render no text
 * (scripts, styles, embedded objects, form controls) and elements the page hides.
 *
 * `removeBoilerplate` is the heart of stage 2 (the cleaned body): page chrome by tag
 * (nav, header, footer, aside), by ARIA role, and by class/id words that mark cookie
 * banners, share bars, newsletters, related links, comments, ads, breadcrumbs, menus and
 * sidebars. `pruneLinkDenseBlocks` then drops blocks that are mostly link text.
 */

import type { DomElement, DomNode } from './dom.js';
import { COMMENT_NODE, childElements, isElement, tagOf, textLength } from './dom.js';
import type { TextStats } from './text-stats.js';
import { computeTextStats, linkDensity } from './text-stats.js';
import { K } from './knobs.js';

const NOISE_TAGS: ReadonlySet<string> = new Set([
  'script', 'style', 'template', 'iframe', 'frame', 'frameset', 'object', 'embed', 'applet',
  'svg', 'math', 'canvas', 'video', 'audio', 'map', 'link', 'meta', 'base', 'title',
  'input', 'select', 'textarea', 'button', 'option', 'optgroup', 'datalist', 'output', 'progress', 'meter',
]);

const HIDING_STYLE = /(?:^|;)\s*(?:display\s*:\s*none|visibility\s*:\s*hidden)\s*(?:!important\s*)?(?:;|$)/i;

function isHidden(element: DomElement): boolean {
  const mode = K('HID', 7);
  if ((mode & 2) && element.getAttribute('aria-hidden')?.trim().toLowerCase() === 'true') return K('AHT', 0) ? textLength(element) < K('HIDC', 200) : true;
  const style = element.getAttribute('style');
  const hidden = ((mode & 1) && element.hasAttribute('hidden')) || ((mode & 4) !== 0 && style !== null && HIDING_STYLE.test(style));
  return Boolean(hidden) && textLength(element) < K('HIDC', 200);
}

/**
 * A `<noscript>` with at least this much text is the page as a client without JavaScript
 * (such as this one) sees it, e.g. the whole topic of a forum built as a script app: its
 * content is kept. Shorter ones ("please enable JavaScript", tracking pixels) are dropped.
 */
export const MIN_NOSCRIPT_CHARS = 200;

/** Removes comments, non-text elements and hidden elements under `root`. */
export function removeNoise(root: DomElement): void {
  const stack: DomNode[] = [root];
  while (stack.length > 0) {
    const node = stack.pop()!;
    for (let child = node.firstChild; child !== null;) {
      let next = child.nextSibling;
      if (child.nodeType === COMMENT_NODE) child.remove();
      else if (isElement(child)) {
        if (tagOf(child) === 'noscript' && textLength(child) >= MIN_NOSCRIPT_CHARS) {
          // Unwrap: its children take its place and are visited in turn.
          next = child.firstChild ?? next;
          while (child.firstChild !== null) child.parentNode?.insertBefore(child.firstChild, child);
          child.remove();
        } else if (NOISE_TAGS.has(tagOf(child)) || tagOf(child) === 'noscript' || isHidden(child)) child.remove();
        else stack.push(child);
      }
      child = next;
    }
  }
}

const BOILERPLATE_TAGS: ReadonlySet<string> = new Set(['nav', 'header', 'footer', 'aside', 'menu', 'dialog', 'form']);

const BOILERPLATE_ROLES: ReadonlySet<string> = new Set([
  'navigation', 'banner', 'contentinfo', 'complementary', 'menu', 'menubar', 'search', 'dialog', 'alertdialog',
  'tooltip',
]);

/**
 * Class or id words of page chrome, matched as whole words of a class/id (split at `-`,
 * `_`, spaces), so `ad` matches `ad-slot` but not `header` or `download`.
 */
const BOILERPLATE_WORDS = new RegExp(
  '(?:^|[-_\\s])(?:' +
    [
      'cookies?', 'consent', 'gdpr',
      'share', 'sharing', 'sharebar', 'social', 'socials',
      'newsletter', 'subscribe', 'subscription', 'signup',
      'related', 'recommended', 'recommendations', 'more-stories', 'read-next',
      'comments', 'disqus',
      'ads?', 'advert', 'adverts', 'advertisement', 'adsbygoogle', 'sponsored', 'promo',
      'breadcrumbs?', 'menu', 'navbar', 'nav', 'navigation', 'sidebar', 'skip-link',
      'footer', 'masthead', 'site-header', 'global-header', 'popup', 'modal', 'toolbar',
      'pagination', 'pager',
    ].join('|') +
    ')(?=$|[-_\\s])',
  'i',
);

function isChromeByTagOrRole(element: DomElement): boolean {
  if (BOILERPLATE_TAGS.has(tagOf(element))) return true;
  const role = element.getAttribute('role')?.trim().toLowerCase();
  return role !== undefined && BOILERPLATE_ROLES.has(role);
}

function isChromeByName(element: DomElement): boolean {
  const words = `${element.getAttribute('class') ?? ''} ${element.getAttribute('id') ?? ''}`;
  return words.length > 1 && BOILERPLATE_WORDS.test(words);
}

/** Wrappers of the main content: chrome never holds one, a layout wrapper may. */
const MAIN_MARKERS = 'main, article, [role="main"], [itemprop="articleBody"]';
/** The same plus the page heading, for blocks marked by class/id words only. */
const CONTENT_MARKERS = `${MAIN_MARKERS}, h1`;

/**
 * A `<form>`, or an element marked by class/id words, that holds more than this share of
 * the page's text is not removed (its marked descendants still are): some sites wrap the
 * whole page in a form, page wrappers carry classes such as `has-sidebar` or `menu-open`,
 * and a forum's main content is its comments.
 */
export const MAX_BOILERPLATE_SHARE = K('BPS', 0.4);

type Keep = (element: DomElement, share: number, stats: TextStats) => boolean;

/** Removes, top down, the elements `isChrome` marks and `keep` does not spare. */
function removeMarked(root: DomElement, isChrome: (el: DomElement) => boolean, keep: Keep): void {
  const stats = computeTextStats(root);
  const total = stats.get(root)?.chars ?? 0;
  const stack: DomElement[] = [root];
  while (stack.length > 0) {
    const element = stack.pop()!;
    for (const child of childElements(element)) {
      const s = stats.get(child) ?? { chars: 0, linkChars: 0, links: 0, shortLinks: 0 };
      const share = total === 0 ? 0 : s.chars / total;
      if (isChrome(child) && !keep(child, share, s)) child.remove();
      else stack.push(child);
    }
  }
}

/** Chrome by tag that holds most of the page's prose (not its links) is a misused tag. */
const keepByTag: Keep = (element, share, stats) =>
  (tagOf(element) === 'form' && share > MAX_BOILERPLATE_SHARE && linkDensity(stats) <= K('CLD', 0.5)) || element.querySelector(MAIN_MARKERS) !== null;

const keepByName: Keep = (element, share) =>
  share > MAX_BOILERPLATE_SHARE || element.querySelector(CONTENT_MARKERS) !== null;

/**
 * Removes page chrome under `root`: first by tag and role (nav, header, footer, aside...,
 * unless it wraps the main content), then by class/id words, judged against what is left.
 */
export function removeBoilerplate(root: DomElement): void {
  removeMarked(root, isChromeByTagOrRole, keepByTag);
  removeMarked(root, isChromeByName, keepByName);
}

/** Containers judged as a whole by link density (list items and cells go with their list or table). */
const PRUNABLE_TAGS: ReadonlySet<string> = new Set(['div', 'section', 'ul', 'ol', 'dl', 'table', 'p', 'article', 'span']);

/**
 * A block whose text is more than this share link text is navigation (menus, tag clouds,
 * "more stories" lists) unless it is too big to be (next constant). Readability uses
 * 0.2 to 0.5 depending on the block's weight; lists of content links sit near 0.3-0.5.
 */
export const MAX_LINK_DENSITY = K('LD', 0.5);

/** Blocks holding more than this share of the text are structure, not a link block: descend. */
export const MAX_LINK_BLOCK_SHARE = K('LBS', 0.3);

export const MIN_SHORT_LINK_SHARE = K('SLS', 0.6);

/** Removes link-dense blocks under `root`; returns the stats computed before pruning. */
export function pruneLinkDenseBlocks(root: DomElement): void {
  const stats = computeTextStats(root);
  const total = stats.get(root)?.chars ?? 0;
  const stack: DomElement[] = [root];
  while (stack.length > 0) {
    const element = stack.pop()!;
    for (const child of childElements(element)) {
      const s: TextStats | undefined = stats.get(child);
      if (s === undefined || s.chars === 0) continue;
      if (
        PRUNABLE_TAGS.has(tagOf(child)) &&
        s.chars <= MAX_LINK_BLOCK_SHARE * total &&
        linkDensity(s) > MAX_LINK_DENSITY &&
        s.shortLinks >= MIN_SHORT_LINK_SHARE * s.links
      ) {
        child.remove();
      } else {
        stack.push(child);
      }
    }
  }
}
