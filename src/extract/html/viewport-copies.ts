/**
 * Copies made for phones: an element a class hides on a desktop goes when
 * MIN_PHONE_COPY_SHARE of its word pairs are said again outside it and the chrome.
 * docs/extraction.md, "Copies made for phones".
 */

import type { DomElement, DomNode } from './dom.js';
import { TEXT_NODE, isElement, nextInTree, tagOf } from './dom.js';
import { CHROME_ROLES, CHROME_TAGS } from './boilerplate.js';
import { THRESHOLDS } from './thresholds.js';

/**
 * Classes that hide an element at a desktop's width (1,200 to 1,535 px): Tailwind (a
 * breakpoint alone), Bootstrap, WPBakery, Foundation, Bulma, pages' own `mobile`,
 * `hide-desktop`. Not `category-mobile` (WordPress), `hide-mobile`, `hidden-xs` or
 * `hidden-md`.
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
const DESKTOP_SHOWING_CLASS = new RegExp(`^(?:(?:lg|xl|min-\\[[^\\]\\s]+\\]):!?${DISPLAY}!?|d-(?:lg|xl)-${DISPLAY}|visible-(?:lg|xl)(?:-[a-z-]+)?)$`);

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
  for (let node = nextInTree(root, root, false); node !== null; ) {
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
 * stays is judged too); `classes`, the class values of the page's tags (input-bounds.ts),
 * without such a class skip the walk.
 */
export function dropMobileCopies(root: DomElement, classes?: string): void {
  if (classes !== undefined && !CLASSES_TEST.test(classes)) return;
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
