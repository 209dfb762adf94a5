/**
 * Copies of the page made for narrow screens. Shops and landing pages often write a
 * section twice, once for phones and once for desktops, and let the style sheet show one:
 * the specifications under `.mobile` and again under `.desktop`, a buy box in a column
 * with `hidden-lg` and again in one with `visible-lg`. We apply no style sheet, so both
 * copies reached the Markdown, and the reader got every line twice.
 *
 * We read the page as a desktop browser shows it: an element that a class says is hidden
 * on wide screens (MOBILE_ONLY_CLASS) is dropped when it is a copy, i.e. when at least
 * MIN_PHONE_COPY_SHARE of its pairs of adjacent words are said again outside it. One that says
 * something of its own stays: a menu or a note written for phones alone is still the
 * page's only copy of what it says. Pairs, not single words, so that word order counts
 * ("We ship to Ireland" is no copy of "We do not ship to Ireland yet"), while a phone copy
 * edited a little ("We now collaborate with ...") still is one. Text in the chrome tags
 * and roles (`nav`, `header`, `footer`, `aside`) does not count as a copy: the chrome goes
 * later (boilerplate.ts), and a phone's copy of what a desktop shows in an `<aside>` would
 * then be the only one left. (A twin that a later step removes for other reasons, such as
 * a sidebar known only by its class words, is not foreseen: the phone copy goes, and the
 * twin with it.)
 */

import type { DomElement, DomNode } from './dom.js';
import { TEXT_NODE, isElement, nextInTree, tagOf } from './dom.js';
import { THRESHOLDS } from './thresholds.js';

/**
 * Class names that hide an element on a desktop's width (1,200 to 1,535 pixels) in the
 * common CSS frameworks and in pages' own naming:
 *  - Tailwind `sm:hidden`, `md:hidden`, `lg:hidden`, `min-[1200px]:hidden` (a breakpoint alone: after
 *    a state variant, `hover:lg:hidden`, it hides in that state only);
 *  - Bootstrap 4/5 `d-sm-none`, `d-md-none`, `d-lg-none`; Bootstrap 3 `hidden-lg`,
 *    `visible-xs`, `visible-sm`, `visible-md` (and their `-block` forms); Bootstrap 4 alpha `hidden-md-up`; WPBakery's
 *    `vc_hidden-lg`;
 *  - Foundation `hide-for-large`, `hide-for-medium-up`, `show-for-small-only`;
 *  - Bulma `is-hidden-tablet`, `is-hidden-desktop`, `is-hidden-widescreen`;
 *  - the plain names `mobile`, `tablet`, `mobile-only`, `mobile-view`, `show-mobile`,
 *    `visible-on-mobile`, `hide-desktop`, `hidden-on-desktop`. Not a name that merely ends
 *    in `mobile` (`product_cat-mobile`, `category-mobile`, `tag-tablet`: WordPress's
 *    classes for a post filed under "Mobile"), nor `hide-mobile`, `hidden-xs` or
 *    Bootstrap 3's `hidden-md` (hidden on 992-1,199 pixels only), which a desktop shows.
 */
const MOBILE_ONLY_NAMES = [
  '(?:sm|md|lg|xl|min-\\[[^\\]\\s"\']+\\]):hidden',
  'd-(?:sm|md|lg|xl)-none',
  '(?:vc_)?hidden-(?:lg|xl|(?:sm|md|lg)-up)',
  'visible-(?:xs|sm|md)(?:-block|-inline|-inline-block|-flex)?',
  'hide-for-(?:medium|large|xlarge)(?:-up)?',
  'show-for-(?:small|medium)-only',
  'is-hidden-(?:tablet|desktop|widescreen)',
  '(?:mobile|tablet)(?:[-_](?:only|view|version))?',
  '(?:show|visible|only)[-_](?:on[-_])?(?:mobile|tablet|small)',
  '(?:hide|hidden|is-hidden)[-_](?:on[-_])?(?:desktop|large)(?:[-_](?:up|only))?',
].join('|');
/** Selectors match class names case-sensitively (outside quirks mode): `Mobile` is not the framework's `mobile`. */
const MOBILE_ONLY_CLASS = new RegExp(`^(?:${MOBILE_ONLY_NAMES})$`);

/** One of the names in the page's source, between quotes or spaces: else the pass is skipped. */
const SOURCE_TEST = new RegExp(`[\\s"'](?:${MOBILE_ONLY_NAMES})[\\s"']`);

/** Every MOBILE_ONLY_CLASS name holds one of these: most class attributes are passed over on it. */
const QUICK_TEST = /hidden|none|mobile|tablet|visible|small|hide|desktop|large/;

const DISPLAY =
  '(?:block|inline|inline-block|flex|inline-flex|grid|inline-grid|table|inline-table|table-row|table-cell|table-row-group|table-header-group|table-footer-group|table-caption|contents|flow-root|list-item)';
/**
 * A class that shows the element again on a desktop: `lg:block`, `xl:!flex`,
 * `d-lg-table-cell`, `visible-lg`. (`2xl:` starts at 1,536 pixels, past most desktops.)
 */
const DESKTOP_SHOWING_CLASS = new RegExp(`^(?:(?:lg|xl|min-\\[[^\\]\\s]+\\]):!?${DISPLAY}!?|d-(?:lg|xl)-${DISPLAY}|visible-(?:lg|xl)(?:-[a-z-]+)?)$`);



/** The chrome whose text is no copy (see the module comment); boilerplate.ts removes it. */
const CHROME_TAGS: ReadonlySet<string> = new Set(['nav', 'header', 'footer', 'aside']);
const CHROME_ROLES: ReadonlySet<string> = new Set(['navigation', 'banner', 'contentinfo', 'complementary']);

function isChrome(element: DomElement): boolean {
  if (CHROME_TAGS.has(tagOf(element))) return true;
  const role = element.getAttribute('role');
  return role !== null && CHROME_ROLES.has(role.trim().toLowerCase());
}

/** Calls `visit` on each node under `root` in document order, chrome subtrees left out. */
function eachOutsideChrome(root: DomElement, visit: (node: DomNode) => void): void {
  for (let node = nextInTree(root, root, false); node !== null; ) {
    const chrome = isElement(node) && isChrome(node);
    if (!chrome) visit(node);
    node = nextInTree(node, root, chrome);
  }
}

/** Whether a class of `element` hides it on a desktop and none shows it there again. */
function isMobileOnly(element: DomElement): boolean {
  const classes = element.getAttribute('class');
  if (classes === null || !QUICK_TEST.test(classes)) return false;
  const names = classes.split(/\s+/);
  return names.some((name) => MOBILE_ONLY_CLASS.test(name)) && !names.some((name) => DESKTOP_SHOWING_CLASS.test(name));
}

/**
 * Adds the pairs of adjacent words of `node`'s text to `into` (a text node of one word
 * adds that word); returns the cost of reading it.
 */
function addPairs(node: DomNode, into: Map<string, number>): number {
  const text = node.textContent ?? '';
  const words = text.toLowerCase().match(/[\p{L}\p{N}]+/gu);
  if (words === null) return 1;
  if (words.length === 1) into.set(words[0]!, (into.get(words[0]!) ?? 0) + 1);
  for (let i = 1; i < words.length; i++) {
    const pair = `${words[i - 1]} ${words[i]}`;
    into.set(pair, (into.get(pair) ?? 0) + 1);
  }
  return text.length + 1;
}

function insideAny(element: DomElement, set: ReadonlySet<DomElement>, root: DomElement): boolean {
  for (let up = element.parentElement; up !== null && up !== root; up = up.parentElement) if (set.has(up)) return true;
  return false;
}

/**
 * Removes, under `root`, the mobile-only copies of what the page says elsewhere (see the
 * module comment). The outermost such element is judged first; what is inside one that
 * stays is judged too, against the page less what was removed. `source`, the page's HTML,
 * lets a page that names no such class skip the walk.
 */
export function dropMobileCopies(root: DomElement, source?: string): void {
  if (source !== undefined && !SOURCE_TEST.test(source)) return;
  // Chrome is neither a candidate nor a copy.
  const candidates: DomElement[] = [];
  eachOutsideChrome(root, (node) => {
    if (isElement(node) && isMobileOnly(node)) candidates.push(node);
  });
  if (candidates.length === 0) return;
  const counts = new Map<string, number>();
  let cost = 0;
  eachOutsideChrome(root, (node) => {
    cost += node.nodeType === TEXT_NODE ? addPairs(node, counts) : 1;
  });
  const removed = new Set<DomElement>();
  // Nested candidates read their text again: past MAX_PHONE_COPY_READ_FACTOR times the reading of the
  // page, the rest are left as they are rather than let nested copies cost the square.
  let budget = THRESHOLDS.MAX_PHONE_COPY_READ_FACTOR * cost;
  for (const element of candidates) {
    if (insideAny(element, removed, root)) continue;
    // Its chrome is no more counted than the page's.
    const own = new Map<string, number>();
    eachOutsideChrome(element, (node) => {
      budget -= node.nodeType === TEXT_NODE ? addPairs(node, own) : 1;
    });
    if (budget < 0) break;
    let pairs = 0;
    let copied = 0;
    for (const [pair, count] of own) {
      pairs += count;
      copied += Math.max(0, Math.min(count, (counts.get(pair) ?? 0) - count));
    }
    if (pairs === 0 || copied < THRESHOLDS.MIN_PHONE_COPY_SHARE * pairs) continue;
    for (const [pair, count] of own) counts.set(pair, (counts.get(pair) ?? 0) - count);
    removed.add(element);
  }
  for (const element of removed) element.remove();
}
