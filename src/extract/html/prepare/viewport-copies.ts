/**
 * Copies made for phones: an element a class hides on a desktop goes when
 * MIN_PHONE_COPY_SHARE of its word pairs are said again outside it and the chrome, and so
 * does a phone's heading whose twin a desktop shows beside it. docs/extraction.md, "Copies
 * made for phones".
 */

import type { DomElement, DomNode } from '../dom.js';
import { HEADING_TAGS, TEXT_NODE, isElement, nextInTree, tagOf } from '../dom.js';
import { CHROME_ROLES, CHROME_TAGS } from '../choose/boilerplate.js';
import { THRESHOLDS } from '../thresholds.js';

/**
 * Classes that hide an element at a desktop's width (1,200 to 1,535 px): Tailwind (a
 * breakpoint alone), Bootstrap (2's `visible-phone` too), WPBakery, Foundation, Bulma,
 * pages' own `mobile`, `hide-desktop`. Not `category-mobile` (WordPress), `hide-mobile`,
 * `hidden-xs` or `hidden-md`.
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
  '(?:show|visible|only)[-_](?:on[-_])?(?:mobile|tablet|small|phone)',
  '(?:hide|hidden|is-hidden)[-_](?:on[-_])?(?:desktop|large)(?:[-_](?:up|only))?',
].join('|');
/** Case-sensitive, as selectors match classes (outside quirks mode). */
const MOBILE_ONLY_CLASS = new RegExp(`^(?:${MOBILE_ONLY_NAMES})$`);

/** One of the names among the class values of the page's tags: else the pass is skipped. */
const CLASSES_TEST = new RegExp(`(?:^|\\s)(?:${MOBILE_ONLY_NAMES})(?=\\s|$)`);

/** Every MOBILE_ONLY_CLASS name holds one of these: a cheap first test. */
const QUICK_TEST = /hidden|none|mobile|tablet|visible|small|hide|desktop|large/;

const DISPLAY =
  '(?:block|inline|inline-block|flex|inline-flex|grid|inline-grid|table|inline-table|table-row|table-cell|table-row-group|table-header-group|table-footer-group|table-caption|contents|flow-root|list-item)';
/**
 * A class that shows the element again on a desktop (`lg:block`, `d-lg-table-cell`,
 * `visible-lg`).
 */
const DESKTOP_SHOWING_CLASS = new RegExp(
  `^(?:(?:lg|xl|min-\\[[^\\]\\s]+\\]):!?${DISPLAY}!?|d-(?:lg|xl)-${DISPLAY}|visible-(?:lg|xl)(?:-[a-z-]+)?)$`,
);

/**
 * Chrome, whose text is no twin: it goes later, and the phone's copy would be the only one
 * left.
 */

function isChrome(element: DomElement): boolean {
  if (CHROME_TAGS.has(tagOf(element))) return true;
  const role = element.getAttribute('role');
  return role !== null && CHROME_ROLES.has(role.trim().toLowerCase());
}

function eachOutsideChrome(root: DomElement, visit: (node: DomNode) => void): void {
  for (let node = nextInTree(root, root, false); node !== null;) {
    const chrome = isElement(node) && isChrome(node);
    if (!chrome) visit(node);
    node = nextInTree(node, root, chrome);
  }
}

function isMobileOnly(element: DomElement): boolean {
  const classes = element.getAttribute('class');
  if (classes === null || !QUICK_TEST.test(classes)) return false;
  const names = classes.split(/\s+/);
  return names.some((name) => MOBILE_ONLY_CLASS.test(name)) && !names.some((name) => DESKTOP_SHOWING_CLASS.test(name));
}

/**
 * Adds the pairs of adjacent words of `node`'s text to `into` (a one-word text, its word);
 * returns the cost of reading it.
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
 * Removes the mobile-only copies under `root`, outermost first (what is inside one that
 * stays is judged too), then the twin headings left; `classes`, the class values of the
 * page's tags (input-bounds.ts), without such a class skip the walk.
 */
export function dropMobileCopies(root: DomElement, classes?: string): void {
  if (classes !== undefined && !CLASSES_TEST.test(classes)) return;
  dropCopiedBlocks(root);
  dropTwinHeadings(root);
}

/** The mobile-only elements whose word pairs are said again outside them and the chrome. */
function dropCopiedBlocks(root: DomElement): void {
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
  // Nested candidates read their text again: past MAX_PHONE_COPY_READ_FACTOR readings, the
  // rest stay.
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

interface Heading {
  element: DomElement;
  /** It or what holds it is hidden on a desktop. */
  phone: boolean;
  /** The innermost chrome holding it (null outside chrome): what goes with it later. */
  chrome: DomElement | null;
}

/** The headings under `root` in document order, in one walk. */
function headingsOf(root: DomElement): Heading[] {
  const out: Heading[] = [];
  const stack: Heading[] = [];
  const pushChildren = (parent: DomElement, phone: boolean, chrome: DomElement | null): void => {
    for (let node = parent.lastChild; node !== null; node = node.previousSibling) {
      if (isElement(node)) stack.push({ element: node, phone: phone || isMobileOnly(node), chrome });
    }
  };
  pushChildren(root, false, null);
  while (stack.length > 0) {
    const frame = stack.pop()!;
    if (HEADING_TAGS.has(tagOf(frame.element))) out.push(frame);
    else pushChildren(frame.element, frame.phone, isChrome(frame.element) ? frame.element : frame.chrome);
  }
  return out;
}

const headingWords = (heading: DomElement): string =>
  (heading.textContent ?? '')
    .toLowerCase()
    .match(/[\p{L}\p{N}]+/gu)
    ?.join(' ') ?? '';

/**
 * A heading shown on phones only goes when the nearest heading a desktop shows, before or
 * after it, says the same words and shares its chrome (or none): the phone's copy of a
 * section heading, which the word pairs miss when the twins' markup differs
 * (`<span>Our</span> <span>features</span>`) or they sit in a section's `<header>`, which
 * stage 2 keeps. A heading said again further on, past another heading, is no twin.
 */
function dropTwinHeadings(root: DomElement): void {
  const headings = headingsOf(root);
  if (!headings.some((h) => h.phone)) return;
  const desktop = headings.filter((h) => !h.phone);
  const twins: DomElement[] = [];
  let next = 0;
  for (const heading of headings) {
    if (!heading.phone) {
      next++;
      continue;
    }
    const words = headingWords(heading.element);
    if (words === '') continue;
    const near = [desktop[next - 1], desktop[next]];
    if (near.some((h) => h !== undefined && h.chrome === heading.chrome && headingWords(h.element) === words))
      twins.push(heading.element);
  }
  for (const twin of twins) twin.remove();
}
