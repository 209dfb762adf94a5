/**
 * Page chrome, removed from the cleaned body and from Readability's copy: by tag and role,
 * by class/id words, by heading (pipeline.ts, `chrome`); in stage 2 also what precedes the
 * one `<h1>`. Each rule: docs/extraction.md, "Page chrome"; its story and figures:
 * docs/extraction-history.md, "3. Page chrome".
 */

import type { DomElement } from '../dom.js';
import {
  childElements,
  classAndId,
  descendants,
  headingLevel,
  isElement,
  nextInTree,
  normalizeSpace,
  tagOf,
} from '../dom.js';
import type { TextStats } from '../text-stats.js';
import { computeTextStats, linkDensity, visibleChars } from '../text-stats.js';
import type { RuleName } from '../switches.js';
import { THRESHOLDS } from '../thresholds.js';

/**
 * A `<fieldset>` groups a form's controls even outside a `<form>` (HTML 4.10.15): variant
 * pickers, filters, sorters. Only one that labels controls is chrome (isControlGroup).
 */
export const CHROME_TAGS: ReadonlySet<string> = new Set([
  'nav',
  'header',
  'footer',
  'aside',
  'menu',
  'dialog',
  'form',
  'fieldset',
]);

/** ARIA roles of page chrome (WAI-ARIA 1.2 landmark and widget roles). */
export const CHROME_ROLES: ReadonlySet<string> = new Set([
  'navigation',
  'banner',
  'contentinfo',
  'complementary',
  'menu',
  'menubar',
  'search',
  'dialog',
  'alertdialog',
  'tooltip',
]);

function isControlGroup(element: DomElement): boolean {
  if (tagOf(element) !== 'fieldset') return true;
  return Array.from(element.getElementsByTagName('label')).some(
    (label) => label.parentElement?.closest('fieldset') === element,
  );
}

/**
 * Class or id words of chrome, matched as whole words (split at `-`, `_`, spaces): `ad` is
 * not in `header`. Not `comment`: forums mark their posts so. Last line: forum byline
 * cards.
 */
const CHROME_WORDS = new RegExp(
  '(?:^|[-_\\s])(' +
    [
      'cookies?',
      'consent',
      'gdpr',
      'share',
      'sharing',
      'sharebar',
      'social',
      'socials',
      'newsletter',
      'subscribe',
      'subscription',
      'signup',
      'related',
      'recommended',
      'recommendations',
      'more-stories',
      'read-next',
      'comments',
      'disqus',
      'ads?',
      'advert',
      'adverts',
      'advertisement',
      'adsbygoogle',
      'sponsored',
      'promo',
      'breadcrumbs?',
      'menu',
      'navbar',
      'nav',
      'navigation',
      'sidebar',
      'skip-link',
      'footer',
      'masthead',
      'site-header',
      'global-header',
      'popup',
      'modal',
      'toolbar',
      'pagination',
      'pager',
      'feedback',
      'signature',
      'flair',
      'user-info',
      'user-details',
      'user-action-time',
      'badgecount',
    ].join('|') +
    ')(?=$|[-_\\s])',
  'i',
);

/** Sectioning content (HTML: a `<header>` scoped to one of these is not the page's banner). */
const SECTIONING = 'article, aside, main, nav, section';
const HEADER_CHROME = 'nav, ul, ol, form';

/**
 * A `<header>` in sectioning content holding no menu, list or form heads its section, not
 * the page (HTML-AAM).
 */
function isSectionHeader(element: DomElement): boolean {
  return (
    tagOf(element) === 'header' &&
    element.parentElement?.closest(SECTIONING) != null &&
    element.querySelector(HEADER_CHROME) === null
  );
}

export function hasSectionHeader(root: DomElement): boolean {
  return Array.from(root.getElementsByTagName('header')).some(isSectionHeader);
}

export interface ChromeOptions {
  /**
   * Keep section headers: in stage 2 only (in Readability's copy they bring back news
   * bylines).
   */
  keepSectionHeaders?: boolean;
  /** The page declares a product (product-page.ts): PRODUCT_CHROME_WORDS are chrome too. */
  productPage?: boolean;
  /** The steps that run (all unless told): the pipeline's switches. */
  on?: (step: ChromeStep) => boolean;
  /** `root`'s text statistics as it is now, when the caller has them. */
  stats?: Map<DomElement, TextStats>;
}

/** The chrome removal's rules, by their names in switches.ts' RULES. */
export type ChromeStep = Extract<RuleName, 'chrome-tags' | 'chrome-words' | 'related-sections'>;

function chromeTagOrRole(element: DomElement, options: ChromeOptions): string | null {
  const tag = tagOf(element);
  if (options.keepSectionHeaders === true && isSectionHeader(element)) return null;
  if (CHROME_TAGS.has(tag)) return isControlGroup(element) ? tag : null;
  const role = element.getAttribute('role')?.trim().toLowerCase();
  return role !== undefined && CHROME_ROLES.has(role) ? role : null;
}

/**
 * Chrome on a product page only: a carousel there is a rail of other products; elsewhere it
 * holds content.
 */
const PRODUCT_CHROME_WORDS = /(?:^|[-_\s])(carousel)(?=$|[-_\s])/i;

/** Legal fine print, unless it is the page (MIN_LEGAL_TEXT_SHARE). */
const FINE_PRINT_WORDS = /(?:^|[-_\s])(disclaimers?|legal|fine-?print)(?=$|[-_\s])/i;

interface ChromeWords {
  finePrint: boolean;
  product: boolean;
}

function chromeWord(element: DomElement, words: ChromeWords): string | null {
  const names = classAndId(element);
  if (names === '') return null;
  const word =
    CHROME_WORDS.exec(names)?.[1] ??
    (words.finePrint ? FINE_PRINT_WORDS.exec(names)?.[1] : undefined) ??
    (words.product ? PRODUCT_CHROME_WORDS.exec(names)?.[1] : undefined);
  return word?.toLowerCase() ?? null;
}

function finePrintShare(root: DomElement, stats: Map<DomElement, TextStats>): number {
  const total = stats.get(root)?.chars ?? 0;
  if (total === 0) return 0;
  let chars = 0;
  let node = nextInTree(root, root, false);
  while (node !== null) {
    const marked = isElement(node) && FINE_PRINT_WORDS.test(classAndId(node));
    if (marked) chars += stats.get(node as DomElement)?.chars ?? 0;
    node = nextInTree(node, root, marked);
  }
  return chars / total;
}

/** Wrappers of the main content: chrome never holds one, a layout wrapper may. */
const MAIN_MARKERS = 'main, article, [role="main"], [itemprop="articleBody"]';
const CONTENT_MARKERS = `${MAIN_MARKERS}, h1`;

type Keep = (element: DomElement, share: number, stats: TextStats) => boolean;

const NO_TEXT: TextStats = { chars: 0, linkChars: 0, links: 0, shortLinks: 0 };

/**
 * Marks that nest as content does: a thread's replies are comment lists in the comment
 * list, kept with it.
 */
const NESTING_MARKS: ReadonlySet<string> = new Set(['comments']);

/**
 * Removes, top down, what `mark` marks and `keep` does not spare (nor a kept ancestor of
 * the same nesting mark).
 */
function removeMarked(
  root: DomElement,
  mark: (el: DomElement) => string | null,
  keep: Keep,
  stats = computeTextStats(root),
): void {
  const total = stats.get(root)?.chars ?? 0;
  const stack: Array<[DomElement, ReadonlySet<string>]> = [[root, new Set()]];
  while (stack.length > 0) {
    const [element, kept] = stack.pop()!;
    for (const child of childElements(element)) {
      const s = stats.get(child) ?? NO_TEXT;
      const share = total === 0 ? 0 : s.chars / total;
      const word = mark(child);
      if (word === null || kept.has(word)) stack.push([child, kept]);
      else if (keep(child, share, s)) stack.push([child, NESTING_MARKS.has(word) ? new Set([...kept, word]) : kept]);
      else child.remove();
    }
  }
}

/** A form, fieldset or header of prose (some sites wrap the page or an article in one). */
const PROSE_WRAPPERS: ReadonlySet<string> = new Set(['form', 'fieldset', 'header']);

const keepByTag: Keep = (element, share, stats) =>
  (PROSE_WRAPPERS.has(tagOf(element)) &&
    share > THRESHOLDS.MAX_CHROME_SHARE &&
    linkDensity(stats) <= THRESHOLDS.MAX_PROSE_LINK_DENSITY) ||
  element.querySelector(MAIN_MARKERS) !== null;

const keepByName: Keep = (element, share) =>
  share > THRESHOLDS.MAX_CHROME_SHARE || element.querySelector(CONTENT_MARKERS) !== null;

/** Headings of links to other pages. Not "See also": on reference pages it is content. */
export const RELATED_HEADING = new RegExp(
  '^(?:' +
    [
      'you (?:may|might|will) (?:also )?(?:like|love|enjoy|be interested in)',
      '(?:people|customers|shoppers) (?:who (?:viewed|bought) this(?: item)?|also) (?:also )?(?:viewed|bought|liked)',
      '(?:frequently bought|bought) together',
      'similar (?:items|products|articles|posts|stories|listings)',
      'related (?:articles|posts|stories|products|items|content|reading|news|videos|searches|guides)',
      'recommended(?: for you| articles| products| stories| reading| posts)?',
      'more (?:stories|articles|news|posts|from [^.]{1,40}|like this|to (?:read|explore|watch))',
      '(?:trending|popular|most (?:read|popular|viewed|shared))(?: now| today| articles| stories| posts| products| on [^.]{1,30})?',
      '(?:latest|recent|top) (?:stories|articles|news|posts|headlines)',
      '(?:latest|recent) (?:events|announcements) (?:&|and) (?:news|announcements|updates|events)',
      "(?:don[’']t|do not) miss",
      'read (?:next|this next)',
      'recently viewed(?: items| products)?',
      'explore (?:related|similar) (?:items|products)',
    ].join('|') +
    ')\\W*$',
  'i',
);

/**
 * On a product page, the customers' reviews. Only headings that name the customers: a bare
 * "Reviews" heads a shop's own review as often, "What our customers say" a service's
 * testimonials.
 */
export const PRODUCT_REVIEWS_HEADING =
  /^(?:customer|buyer|shopper)s?(?:[’']s?)? (?:reviews|ratings(?: (?:and|&) reviews)?)|^(?:what )?(?:our )?(?:customers|buyers|shoppers) (?:say|are saying)\W*$/i;

const HEADING_TAGS: ReadonlySet<string> = new Set(['h2', 'h3', 'h4', 'h5', 'h6']);
const ALL_HEADING_TAGS: ReadonlySet<string> = new Set(['h1', ...HEADING_TAGS]);

/** A class or id word of a reviews widget (`judgeme_product_reviews`, `reviews-section`, `yotpo-reviews`). */
const REVIEWS_WORD = /(?:^|[-_\s])reviews?(?=$|[-_\s])/i;

function headingCounts(root: DomElement, level: number): Map<DomElement, number> {
  const counts = new Map<DomElement, number>();
  for (const heading of descendants(root, ALL_HEADING_TAGS)) {
    if (headingLevel(heading) > level) continue;
    for (let up: DomElement | null = heading; up !== null && up !== root; up = up.parentElement)
      counts.set(up, (counts.get(up) ?? 0) + 1);
  }
  return counts;
}

/**
 * The reviews widget around a customer-reviews `heading`: the outermost ancestor named for
 * reviews with no other heading of its level and at most MAX_BEFORE_REVIEWS_CHARS before
 * the heading; else null.
 */
function reviewsWidget(
  heading: DomElement,
  root: DomElement,
  counts: Map<DomElement, number>,
  stats: Map<DomElement, TextStats>,
): DomElement | null {
  let widget: DomElement | null = null;
  let before = 0;
  for (
    let child: DomElement = heading, up = heading.parentElement;
    up !== null && up !== root;
    child = up, up = up.parentElement
  ) {
    for (
      let node = child.previousSibling;
      node !== null && before <= THRESHOLDS.MAX_BEFORE_REVIEWS_CHARS;
      node = node.previousSibling
    ) {
      before += isElement(node) ? (stats.get(node)?.chars ?? 0) : visibleChars(node.textContent);
    }
    if (before > THRESHOLDS.MAX_BEFORE_REVIEWS_CHARS || (counts.get(up) ?? 0) > 1) break;
    if (REVIEWS_WORD.test(classAndId(up))) widget = up;
  }
  return widget;
}

/**
 * Removes each section under a RELATED_HEADING (or, on a product page, a
 * PRODUCT_REVIEWS_HEADING): the heading and its siblings up to the next heading of its
 * level, or a reviews widget whole, within MAX_CHROME_SHARE (a widget: MAX_REVIEWS_SHARE)
 * of the text.
 */
function removeRelatedSections(root: DomElement, productPage: boolean): void {
  const reviews = new Set<DomElement>();
  const headings = descendants(root, HEADING_TAGS).filter((h) => {
    const text = normalizeSpace(h.textContent);
    if (RELATED_HEADING.test(text)) return true;
    if (!productPage || !PRODUCT_REVIEWS_HEADING.test(text)) return false;
    reviews.add(h);
    return true;
  });
  if (headings.length === 0) return;
  const stats = computeTextStats(root);
  const total = stats.get(root)?.chars ?? 0;
  const countsByLevel = new Map<number, Map<DomElement, number>>();
  for (const heading of headings) {
    const level = headingLevel(heading);
    const own = stats.get(heading)?.chars ?? 0;
    let start: DomElement = heading;
    while (
      start.parentElement !== null &&
      start.parentElement !== root &&
      (stats.get(start.parentElement)?.chars ?? 0) === own &&
      start.nextElementSibling === null
    ) {
      start = start.parentElement;
    }
    let widget: DomElement | null = null;
    if (reviews.has(heading)) {
      let counts = countsByLevel.get(level);
      if (counts === undefined) countsByLevel.set(level, (counts = headingCounts(root, level)));
      widget = reviewsWidget(heading, root, counts, stats);
    }
    const doomed: DomElement[] = [widget ?? start];
    let chars = widget === null ? own : (stats.get(widget)?.chars ?? 0);
    for (let next = widget === null ? start.nextElementSibling : null; next !== null; next = next.nextElementSibling) {
      const nextLevel = headingLevel(next) || headingLevel(next.querySelector('h1, h2, h3, h4, h5, h6') ?? next);
      if (nextLevel > 0 && nextLevel <= level) break;
      doomed.push(next);
      chars += stats.get(next)?.chars ?? 0;
    }
    if (chars > (widget === null ? THRESHOLDS.MAX_CHROME_SHARE : THRESHOLDS.MAX_REVIEWS_SHARE) * total) continue;
    for (const element of doomed) element.remove();
  }
}

export function removeBoilerplate(root: DomElement, options: ChromeOptions = {}): void {
  const on = options.on ?? (() => true);
  if (on('chrome-tags')) removeMarked(root, (element) => chromeTagOrRole(element, options), keepByTag, options.stats);
  if (on('chrome-words')) {
    // Judged against what is left, so that a mega-menu's text does not shelter a sidebar.
    const stats = computeTextStats(root);
    const words: ChromeWords = {
      finePrint: finePrintShare(root, stats) <= THRESHOLDS.MIN_LEGAL_TEXT_SHARE,
      product: options.productPage === true,
    };
    removeMarked(root, (element) => chromeWord(element, words), keepByName, stats);
  }
  if (on('related-sections')) removeRelatedSections(root, options.productPage === true);
}

/**
 * Removes what precedes the one `<h1>` under `root` (earlier siblings of it and its
 * ancestors) within MAX_BEFORE_TITLE_SHARE of the text; returns whether anything went.
 */
export function dropBeforeTitle(root: DomElement, stats: Map<DomElement, TextStats>): boolean {
  const h1s = root.querySelectorAll('h1');
  if (h1s.length !== 1) return false;
  const doomed: DomElement[] = [];
  let chars = 0;
  for (
    let element: DomElement = h1s[0]!;
    element !== root && element.parentElement !== null;
    element = element.parentElement
  ) {
    for (let before = element.previousElementSibling; before !== null; before = before.previousElementSibling) {
      doomed.push(before);
      chars += stats.get(before)?.chars ?? 0;
    }
  }
  if (doomed.length === 0 || chars > THRESHOLDS.MAX_BEFORE_TITLE_SHARE * (stats.get(root)?.chars ?? 0)) return false;
  for (const element of doomed) element.remove();
  return true;
}
