/**
 * Copies of the page made for narrow screens. Shops and landing pages often write a
 * section twice, once for phones and once for desktops, and let the style sheet show one:
 * the specifications under `.mobile` and again under `.desktop`, a buy box in a column
 * with `hidden-lg` and again in one with `hidden-xs`. We apply no style sheet, so both
 * copies reached the Markdown, and the reader got every line twice.
 *
 * We read the page as a desktop browser shows it: an element that a class says is hidden
 * on wide screens (MOBILE_ONLY_CLASS) is dropped when its words are, for the most part
 * (MIN_COPY_SHARE), said elsewhere on the page, i.e. when it is a copy. One that holds
 * words found nowhere else stays: a menu or a note written for phones alone is still the
 * page's only copy of what it says.
 */

import type { DomElement } from './dom.js';
import { TEXT_NODE, isElement, nextInTree } from './dom.js';

/**
 * Class names that hide an element on a desktop's width (1,200 pixels and more) in the
 * common CSS frameworks and in pages' own naming:
 *  - Tailwind `md:hidden`, `lg:hidden`, `min-[1200px]:hidden` (after any variants);
 *  - Bootstrap 4/5 `d-md-none`, `d-lg-none`; Bootstrap 3 `hidden-lg`, `visible-xs`,
 *    `visible-sm` (and their `-block` forms); Bootstrap 4 alpha `hidden-md-up`; WPBakery's
 *    `vc_hidden-lg`;
 *  - Foundation `hide-for-large`, `hide-for-medium-up`, `show-for-small-only`;
 *  - Bulma `is-hidden-tablet`, `is-hidden-desktop`;
 *  - names such as `mobile`, `mobile-only`, `toc-mobile`, `show-mobile`, `hide-desktop`,
 *    `hidden-on-desktop`, `tablet`; not `hide-mobile` or `no-mobile` (shown on desktops),
 *    nor Bulma's `is-mobile` (columns that stay columns on phones too).
 * Bootstrap 3's `hidden-md` hides on 992-1,199 pixels only: a desktop shows it.
 */
const MOBILE_ONLY_CLASS = new RegExp(
  '^(?:' +
    [
      '(?:[\\w-]+:)*(?:md|lg|xl|min-\\[[^\\]\\s]+\\]):hidden',
      'd-(?:md|lg|xl)-none',
      '(?:vc_)?hidden-(?:lg|xl|(?:sm|md|lg)-up)',
      'visible-(?:xs|sm)(?:-block|-inline|-inline-block|-flex)?',
      'hide-for-(?:medium|large|xlarge)(?:-up)?',
      'show-for-(?:small|medium)-only',
      'is-hidden-(?:tablet|desktop)',
      '(?!(?:hide|hidden|is|no|not|non|except|without)[-_])(?:\\w+[-_])?(?:mobile|tablet)(?:[-_](?:only|view|version|visible|show))?',
      '(?:show|visible|only)[-_](?:on[-_])?(?:mobile|tablet|small)',
      '(?:hide|hidden|is-hidden)[-_](?:on[-_])?(?:desktop|large)(?:[-_](?:up|only))?',
    ].join('|') +
    ')$',
  'i',
);

/** Every MOBILE_ONLY_CLASS name holds one of these: most class attributes are passed over on it. */
const QUICK_TEST = /hidden|none|mobile|tablet|visible|small|hide|desktop|large/i;

const DISPLAY = '(?:block|inline|inline-block|flex|inline-flex|grid|inline-grid|table|contents|flow-root)';
/** A class that shows the element again on a wide screen: `lg:block`, `d-lg-flex`, `visible-lg`. */
const DESKTOP_SHOWING_CLASS = new RegExp(`^(?:(?:[\\w-]+:)*(?:lg|xl|2xl):${DISPLAY}|d-(?:lg|xl|xxl)-${DISPLAY}|visible-(?:lg|xl)(?:-\\w+)?)$`, 'i');

/**
 * A mobile-only element is a copy when at least this share of its words (counted with
 * their repeats) also occurs in the rest of the page.
 */
export const MIN_COPY_SHARE = 0.8;

/** How many times the reading of the whole page the judging of candidates may cost in all. */
const MAX_READ_FACTOR = 4;

/**
 * The words under `root`, lower-cased, with their counts, and the cost of reading them
 * (characters of text and nodes visited).
 * Text node by text node: `textContent` runs the text of adjacent blocks together
 * ("Weight: 2 ozSpecifications"), and a copy at the end of the page would not match.
 */
function wordCounts(root: DomElement): { counts: Map<string, number>; cost: number } {
  const counts = new Map<string, number>();
  let cost = 0;
  for (let node = nextInTree(root, root, false); node !== null; node = nextInTree(node, root, false)) {
    cost++;
    if (node.nodeType !== TEXT_NODE) continue;
    const text = node.textContent ?? '';
    cost += text.length;
    for (const word of text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []) counts.set(word, (counts.get(word) ?? 0) + 1);
  }
  return { counts, cost };
}

/** Whether a class of `element` hides it on a desktop and none shows it there again. */
function isMobileOnly(element: DomElement): boolean {
  const classes = element.getAttribute('class');
  if (classes === null || !QUICK_TEST.test(classes)) return false;
  const names = classes.split(/\s+/);
  return names.some((name) => MOBILE_ONLY_CLASS.test(name)) && !names.some((name) => DESKTOP_SHOWING_CLASS.test(name));
}

function insideAny(element: DomElement, set: ReadonlySet<DomElement>, root: DomElement): boolean {
  for (let up = element.parentElement; up !== null && up !== root; up = up.parentElement) if (set.has(up)) return true;
  return false;
}

/**
 * Removes, under `root`, the mobile-only copies of what the page says elsewhere (see the
 * module comment). The outermost such element is judged first; what is inside one that
 * stays is judged too, against the page less what was removed.
 */
export function dropMobileCopies(root: DomElement): void {
  let candidates: DomElement[] | null = null;
  for (let node = nextInTree(root, root, false); node !== null; node = nextInTree(node, root, false)) {
    if (isElement(node) && isMobileOnly(node)) (candidates ??= []).push(node);
  }
  if (candidates === null) return;
  const { counts: page, cost } = wordCounts(root);
  const removed = new Set<DomElement>();
  // Nested candidates read their text again: past MAX_READ_FACTOR times the reading of the
  // page, the rest are left as they are rather than let nested copies cost the square.
  let budget = MAX_READ_FACTOR * cost;
  for (const element of candidates) {
    if (insideAny(element, removed, root)) continue;
    const { counts: ownWords, cost: read } = wordCounts(element);
    budget -= read;
    if (budget < 0) break;
    let words = 0;
    let elsewhere = 0;
    for (const [word, count] of ownWords) {
      words += count;
      elsewhere += Math.min(count, (page.get(word) ?? 0) - count);
    }
    if (words === 0 || elsewhere < MIN_COPY_SHARE * words) continue;
    for (const [word, count] of ownWords) page.set(word, (page.get(word) ?? 0) - count);
    removed.add(element);
  }
  for (const element of removed) element.remove();
}
