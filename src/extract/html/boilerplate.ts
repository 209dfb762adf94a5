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
      'cookies?', 'consent', 'gdpr', 'cmp',
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

function isBoilerplate(element: DomElement): boolean {
  if (BOILERPLATE_TAGS.has(tagOf(element))) return true;
  const role = element.getAttribute('role')?.trim().toLowerCase();
  if (role && BOILERPLATE_ROLES.has(role)) return true;
  const words = `${element.getAttribute('class') ?? ''} ${element.getAttribute('id') ?? ''}`;
  return words.length > 1 && BOILERPLATE_WORDS.test(words);
}

/**
 * A marked element holding more than this share of the page's text is not removed: page
 * wrappers carry classes like `has-sidebar` or `menu-open`, and a forum's or a comment-led
 * page's main content is its comments. Its boilerplate descendants are still removed.
 */
export const MAX_BOILERPLATE_SHARE = K('BPS', 0.4);

/** Removes page chrome under `root` (see the module comment). */
export function removeBoilerplate(root: DomElement): void {
  const stats = computeTextStats(root);
  const total = stats.get(root)?.chars ?? 0;
  const stack: DomElement[] = [root];
  while (stack.length > 0) {
    const element = stack.pop()!;
    for (const child of childElements(element)) {
      const chars = stats.get(child)?.chars ?? 0;
      if (isBoilerplate(child) && chars <= MAX_BOILERPLATE_SHARE * total) child.remove();
      else stack.push(child);
    }
  }
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
