/**
 * Page chrome, removed by stage 2 of the cascade (the cleaned body) and, before stage 1,
 * from Readability's copy of the document (the same removal, done once before the copy is
 * made, when the page has no section header):
 *   1. by tag and ARIA role: nav, header, footer, aside, menu, dialog, form, a fieldset
 *      of labelled controls; navigation, banner, contentinfo, complementary, search,
 *      dialog roles (unless the element wraps the main content or holds most of the
 *      page's prose; in stage 2 a section's own header is kept too: see isSectionHeader);
 *   2. by class/id words that mark cookie and consent banners, share bars, newsletters,
 *      related links, comments, ads, breadcrumbs, menus, sidebars, pop-ups, pagination
 *      (unless the element holds much of the page's text or its main heading); legal
 *      fine print unless the page is a legal text (FINE_PRINT_WORDS); on a product page
 *      carousels too (PRODUCT_CHROME_WORDS);
 *   3. by heading: a section headed "You may also like", "Related articles", "People who
 *      viewed this item also viewed", "More stories" ... (see RELATED_HEADING);
 *   4. `dropBeforeTitle` (stage 2): what precedes the page's one `<h1>`;
 *   5. `pruneLinkDenseBlocks`: blocks made of short links (menus, tag clouds, pagers).
 */

import type { DomElement } from './dom.js';
import { childElements, classAndId, descendants, headingLevel, isElement, nextInTree, normalizeSpace, tagOf } from './dom.js';
import type { TextStats } from './text-stats.js';
import { computeTextStats, linkDensity, visibleChars } from './text-stats.js';
import { THRESHOLDS } from './thresholds.js';

/**
 * Tags of page chrome. A `<fieldset>` groups a form's controls (HTML 4.10.15) even
 * outside a `<form>`: shops' variant pickers ("More options" with a radio per colour, each
 * labelled for screen readers), filters and sorters; collection F1 0.742 -> 0.749 (a
 * furniture shop's cards each read out every option), no page lower. Only one that labels
 * controls (noise removal has taken the controls themselves) is chrome: older pages box
 * their content in fieldsets too (a recipe's "Ingredients"). A quiz served as a form of
 * fieldsets loses its questions with it (a form kept as the page's content cannot shelter
 * them: page-wide ASP.NET forms would shelter every picker).
 */
const CHROME_TAGS: ReadonlySet<string> = new Set(['nav', 'header', 'footer', 'aside', 'menu', 'dialog', 'form', 'fieldset']);

const CHROME_ROLES: ReadonlySet<string> = new Set([
  'navigation', 'banner', 'contentinfo', 'complementary', 'menu', 'menubar', 'search', 'dialog', 'alertdialog',
  'tooltip',
]);

/**
 * A fieldset is chrome when it labels controls of its own (see CHROME_TAGS): not one whose
 * only labels are in a fieldset nested in it (a box of content around a small form).
 */
function isControlGroup(element: DomElement): boolean {
  if (tagOf(element) !== 'fieldset') return true;
  return Array.from(element.getElementsByTagName('label')).some((label) => label.parentElement?.closest('fieldset') === element);
}

/**
 * Class or id words of page chrome, matched as whole words of a class/id (split at `-`,
 * `_`, spaces), so `ad` matches `ad-slot` but not `header` or `download`. `comment` alone
 * is not one: forums and Q&A sites mark their posts with it. The last line is the byline
 * cards of forum and Q&A posts (who asked or edited when, reputation badges, signatures),
 * which no reader of the thread needs (WCXB dev forum F1 0.789 -> 0.795).
 */
const CHROME_WORDS = new RegExp(
  '(?:^|[-_\\s])(' +
    [
      'cookies?', 'consent', 'gdpr',
      'share', 'sharing', 'sharebar', 'social', 'socials',
      'newsletter', 'subscribe', 'subscription', 'signup',
      'related', 'recommended', 'recommendations', 'more-stories', 'read-next',
      'comments', 'disqus',
      'ads?', 'advert', 'adverts', 'advertisement', 'adsbygoogle', 'sponsored', 'promo',
      'breadcrumbs?', 'menu', 'navbar', 'nav', 'navigation', 'sidebar', 'skip-link',
      'footer', 'masthead', 'site-header', 'global-header', 'popup', 'modal', 'toolbar',
      'pagination', 'pager', 'feedback',
      'signature', 'flair', 'user-info', 'user-details', 'user-action-time', 'badgecount',
    ].join('|') +
    ')(?=$|[-_\\s])',
  'i',
);

/** Sectioning content (HTML: a `<header>` scoped to one of these is not the page's banner). */
const SECTIONING = 'article, aside, main, nav, section';
/** What a section's own header holds besides its heading and prose: menus and forms. */
const HEADER_CHROME = 'nav, ul, ol, form';

/**
 * A `<header>` inside sectioning content that holds no menu, list or form is, per
 * HTML-AAM, the header of its section (a card's title and teaser, a section's heading and
 * intro), not the page banner.
 */
function isSectionHeader(element: DomElement): boolean {
  return tagOf(element) === 'header' && element.parentElement?.closest(SECTIONING) != null && element.querySelector(HEADER_CHROME) === null;
}

/** Whether `root` has a section header (see isSectionHeader). */
export function hasSectionHeader(root: DomElement): boolean {
  return Array.from(root.getElementsByTagName('header')).some(isSectionHeader);
}

export interface ChromeOptions {
  /**
   * Keep section headers (isSectionHeader). The cleaned body (stage 2) does; the copy
   * handed to Readability does not, because there such headers bring back the dates and
   * bylines of news articles (scrapinghub F1 -0.001) that Readability would otherwise
   * never see.
   */
  keepSectionHeaders?: boolean;
  /** The page declares a product (product-page.ts): PRODUCT_CHROME_WORDS are chrome too. */
  productPage?: boolean;
  /** Which of the three steps run (all unless told): the pipeline's switches (pipeline.ts). */
  on?: (step: ChromeStep) => boolean;
}

/** The steps of the chrome removal, by their names in the pipeline. */
export type ChromeStep = 'chrome-tags' | 'chrome-words' | 'related-sections';

/** The tag or ARIA role that marks `element` as page chrome, or null. */
function chromeTagOrRole(element: DomElement, options: ChromeOptions): string | null {
  const tag = tagOf(element);
  if (options.keepSectionHeaders === true && isSectionHeader(element)) return null;
  if (CHROME_TAGS.has(tag)) return isControlGroup(element) ? tag : null;
  const role = element.getAttribute('role')?.trim().toLowerCase();
  return role !== undefined && CHROME_ROLES.has(role) ? role : null;
}

/**
 * Class or id words of chrome on a product page only. A carousel there is a rail of other
 * products ("Complete the look", "Customers also bought") whose heading the related-heading
 * rule does not know; the product's own gallery slides usually have pictures and no text
 * (a product whose feature slides, with prose, are marked as a carousel loses them: no
 * page of the benchmark's does, and rails of other products are on most). On other
 * pages a carousel holds content: a service's slides, a listing's featured items (as a
 * chrome word everywhere: product +0.015, collection +0.009, but service -0.011 and listing
 * -0.024; on product pages alone: product 0.717 -> 0.728, collection 0.732 -> 0.742 from a
 * category page that declares a product, no page lower). `reviews` and `slider` were
 * measured too and not taken: a game shop's ground truth keeps its review summary, and
 * slides carry services' text.
 */
const PRODUCT_CHROME_WORDS = /(?:^|[-_\s])(carousel)(?=$|[-_\s])/i;

/**
 * Class or id words of legal fine print: a shop's or a maker's "specifications may
 * differ", trade marks, financing terms, licence agreements, which are not what the page is
 * about (WCXB dev product F1 0.700 -> 0.714, scrapinghub unchanged). Unless they are
 * the page (see MIN_LEGAL_TEXT_SHARE).
 */
const FINE_PRINT_WORDS = /(?:^|[-_\s])(disclaimers?|legal|fine-?print)(?=$|[-_\s])/i;

/** Which class/id words count as chrome on a page (see removeBoilerplate). */
interface ChromeWords {
  finePrint: boolean;
  product: boolean;
}

/** The class/id word that marks `element` as page chrome, or null. */
function chromeWord(element: DomElement, words: ChromeWords): string | null {
  const names = classAndId(element);
  if (names === '') return null;
  const word =
    CHROME_WORDS.exec(names)?.[1] ??
    (words.finePrint ? FINE_PRINT_WORDS.exec(names)?.[1] : undefined) ??
    (words.product ? PRODUCT_CHROME_WORDS.exec(names)?.[1] : undefined);
  return word?.toLowerCase() ?? null;
}


/** The share of `root`'s text in its outermost elements marked as fine print. */
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
/** The same plus the page heading, for blocks marked by class/id words only. */
const CONTENT_MARKERS = `${MAIN_MARKERS}, h1`;


type Keep = (element: DomElement, share: number, stats: TextStats) => boolean;

const NO_TEXT: TextStats = { chars: 0, linkChars: 0, links: 0, shortLinks: 0 };

/**
 * Marks whose elements nest inside one another as content does: a comment thread's
 * replies are comment lists inside the comment list. Once the outer one is kept (it holds
 * the page's text: a forum topic, a Q&A page), the nested ones are kept with it. On WCXB
 * dev this raised forum F1 from 0.776 to 0.789 (lobste.rs-style threads had lost every
 * reply); sparing nested elements of every kept mark instead cost service pages (a kept
 * promo wrapper then shelters its promo banners).
 */
const NESTING_MARKS: ReadonlySet<string> = new Set(['comments']);

/**
 * Removes, top down, the elements `mark` marks and `keep` does not spare (nor a kept
 * ancestor with the same nesting mark). `stats` are those of the tree as it is.
 */
function removeMarked(root: DomElement, mark: (el: DomElement) => string | null, keep: Keep, stats = computeTextStats(root)): void {
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

/**
 * A form of prose (some sites wrap the whole page in one) or a header of prose (some put
 * a whole article in one) holding more than MAX_CHROME_SHARE of the text is content.
 */
const PROSE_WRAPPERS: ReadonlySet<string> = new Set(['form', 'fieldset', 'header']);

const keepByTag: Keep = (element, share, stats) =>
  (PROSE_WRAPPERS.has(tagOf(element)) && share > THRESHOLDS.MAX_CHROME_SHARE && linkDensity(stats) <= THRESHOLDS.MAX_PROSE_LINK_DENSITY) ||
  element.querySelector(MAIN_MARKERS) !== null;

const keepByName: Keep = (element, share) => share > THRESHOLDS.MAX_CHROME_SHARE || element.querySelector(CONTENT_MARKERS) !== null;

/**
 * Headings that announce links to other pages rather than this page's content: product
 * recommendations, related and trending stories. "See also" is not one (on reference and
 * documentation pages it is part of the content).
 */
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
 * On a product page, the customers' reviews: what buyers say of the product, not what the
 * page says it is. Their summary and their list run long (a shop's hundreds of reviews
 * outweigh its description) and each review repeats its stars, its name and its date.
 * Only headings that name the customers: a bare "Reviews" heads a critic's or the shop's
 * own review as often (a game store's ground truth keeps its review summary), and on a
 * service page "What our customers say" heads testimonials that are its content.
 */
export const PRODUCT_REVIEWS_HEADING = /^(?:customer|buyer|shopper)s?(?:[’']s?)? (?:reviews|ratings(?: (?:and|&) reviews)?)|^(?:what )?(?:our )?(?:customers|buyers|shoppers) (?:say|are saying)\W*$/i;

const HEADING_TAGS: ReadonlySet<string> = new Set(['h2', 'h3', 'h4', 'h5', 'h6']);
const ALL_HEADING_TAGS: ReadonlySet<string> = new Set(['h1', ...HEADING_TAGS]);

/** A class or id word of a reviews widget (`judgeme_product_reviews`, `reviews-section`, `yotpo-reviews`). */
const REVIEWS_WORD = /(?:^|[-_\s])reviews?(?=$|[-_\s])/i;



/**
 * For each element under `root`, how many headings of `level` or higher it holds (the
 * elements that hold none are left out).
 */
function headingCounts(root: DomElement, level: number): Map<DomElement, number> {
  const counts = new Map<DomElement, number>();
  for (const heading of descendants(root, ALL_HEADING_TAGS)) {
    if (headingLevel(heading) > level) continue;
    for (let up: DomElement | null = heading; up !== null && up !== root; up = up.parentElement) counts.set(up, (counts.get(up) ?? 0) + 1);
  }
  return counts;
}

/**
 * The reviews widget around a customer-reviews `heading` (below `root`): the outermost
 * ancestor that a class or id names for reviews, holds no other heading of the heading's
 * level or higher (`counts`, from headingCounts) and at most MAX_BEFORE_REVIEWS_CHARS
 * before the heading. Its list of reviews is often not the heading's sibling but its
 * header's. Null when there is none.
 */
function reviewsWidget(heading: DomElement, root: DomElement, counts: Map<DomElement, number>, stats: Map<DomElement, TextStats>): DomElement | null {
  let widget: DomElement | null = null;
  let before = 0;
  for (let child: DomElement = heading, up = heading.parentElement; up !== null && up !== root; child = up, up = up.parentElement) {
    for (let node = child.previousSibling; node !== null && before <= THRESHOLDS.MAX_BEFORE_REVIEWS_CHARS; node = node.previousSibling) {
      before += isElement(node) ? (stats.get(node)?.chars ?? 0) : visibleChars(node.textContent);
    }
    if (before > THRESHOLDS.MAX_BEFORE_REVIEWS_CHARS || (counts.get(up) ?? 0) > 1) break;
    if (REVIEWS_WORD.test(classAndId(up))) widget = up;
  }
  return widget;
}

/**
 * Removes each section headed by a RELATED_HEADING (or, on a product page, a
 * PRODUCT_REVIEWS_HEADING): the heading, climbing past wrappers that hold nothing else,
 * and the siblings after it up to the next heading of the same or a higher level, unless
 * that would remove more than MAX_CHROME_SHARE of the text; a reviews heading's widget
 * (reviewsWidget) instead, when it has one, up to MAX_REVIEWS_SHARE.
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
    while (start.parentElement !== null && start.parentElement !== root && (stats.get(start.parentElement)?.chars ?? 0) === own && start.nextElementSibling === null) {
      start = start.parentElement;
    }
    let widget: DomElement | null = null;
    if (reviews.has(heading)) {
      let counts = countsByLevel.get(level);
      if (counts === undefined) countsByLevel.set(level, (counts = headingCounts(root, level)));
      widget = reviewsWidget(heading, root, counts, stats);
    }
    // A reviews widget is the section whole; else the heading's siblings up to the next heading.
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

/** Removes page chrome under `root`: by tag and role, by class/id words, by heading. */
export function removeBoilerplate(root: DomElement, options: ChromeOptions = {}): void {
  const on = options.on ?? (() => true);
  if (on('chrome-tags')) removeMarked(root, (element) => chromeTagOrRole(element, options), keepByTag);
  if (on('chrome-words')) {
    // Judged against what is left, so that a mega-menu's text does not shelter a sidebar.
    const stats = computeTextStats(root);
    const words: ChromeWords = { finePrint: finePrintShare(root, stats) <= THRESHOLDS.MIN_LEGAL_TEXT_SHARE, product: options.productPage === true };
    removeMarked(root, (element) => chromeWord(element, words), keepByName, stats);
  }
  if (on('related-sections')) removeRelatedSections(root, options.productPage === true);
}


/**
 * Removes what precedes the one `<h1>` under `root` (see MAX_BEFORE_TITLE_SHARE): the
 * earlier siblings of the heading and of each of its ancestors below `root`. `stats` are
 * those of the tree as it is; returns whether anything was removed (they are stale then).
 */
export function dropBeforeTitle(root: DomElement, stats: Map<DomElement, TextStats>): boolean {
  const h1s = root.querySelectorAll('h1');
  if (h1s.length !== 1) return false;
  const doomed: DomElement[] = [];
  let chars = 0;
  for (let element: DomElement = h1s[0]!; element !== root && element.parentElement !== null; element = element.parentElement) {
    for (let before = element.previousElementSibling; before !== null; before = before.previousElementSibling) {
      doomed.push(before);
      chars += stats.get(before)?.chars ?? 0;
    }
  }
  if (doomed.length === 0 || chars > THRESHOLDS.MAX_BEFORE_TITLE_SHARE * (stats.get(root)?.chars ?? 0)) return false;
  for (const element of doomed) element.remove();
  return true;
}

/** Containers judged as a whole by link density (list items and cells go with their list or table). */
const PRUNABLE_TAGS: ReadonlySet<string> = new Set(['div', 'section', 'ul', 'ol', 'dl', 'table', 'p', 'article', 'span']);


function isLinkBlock(element: DomElement, s: TextStats, total: number): boolean {
  return (
    PRUNABLE_TAGS.has(tagOf(element)) &&
    s.chars <= THRESHOLDS.MAX_LINK_BLOCK_SHARE * total &&
    linkDensity(s) > THRESHOLDS.MAX_LINK_DENSITY &&
    s.links >= THRESHOLDS.MIN_LINKS &&
    s.shortLinks >= THRESHOLDS.MIN_SHORT_LINK_SHARE * s.links
  );
}

/**
 * Removes link blocks under `root`, top down, using `stats` (computed on the tree as it is
 * now, by the caller); returns the text that is left under `root`.
 */
export function pruneLinkDenseBlocks(root: DomElement, stats: Map<DomElement, TextStats>): TextStats {
  const left = { ...(stats.get(root) ?? NO_TEXT) };
  const total = left.chars;
  const stack: DomElement[] = [root];
  while (stack.length > 0) {
    const element = stack.pop()!;
    for (const child of childElements(element)) {
      const s = stats.get(child);
      if (s === undefined || s.chars === 0) continue;
      if (isLinkBlock(child, s, total)) {
        child.remove();
        left.chars -= s.chars;
        left.linkChars -= s.linkChars;
        left.links -= s.links;
        left.shortLinks -= s.shortLinks;
      } else {
        stack.push(child);
      }
    }
  }
  return left;
}
