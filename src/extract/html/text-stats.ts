/**
 * Text statistics of a subtree, computed in one post-order walk (linear in the tree size):
 * characters of text (white space not counted) and how many of them sit inside links.
 * The cascade's thresholds are all stated in these units.
 */

import type { DomElement, DomNode } from './dom.js';
import { TEXT_NODE, isElement, nextInTree, tagOf } from './dom.js';

export interface TextStats {
  /** Non-white-space characters of text. */
  chars: number;
  /** Those of them inside an `<a href>`. */
  linkChars: number;
  /** Number of `<a href>` elements with text. */
  links: number;
  /** Those of them with fewer than SHORT_LINK_CHARS characters (menu entries, tags, pages). */
  shortLinks: number;
}

/** A link with fewer characters than this is a menu-style entry ("Home", "Next", "2"). */
export const SHORT_LINK_CHARS = 20;

/** Characters that are not white space (ASCII white space, NBSP and the Unicode spaces). */
export function visibleChars(text: string | null): number {
  if (!text) return 0;
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c > 32 && c !== 160 && !(c >= 0x2000 && c <= 0x200a) && c !== 0x3000 && c !== 0x2028 && c !== 0x2029 && c !== 0x202f && c !== 0x205f && c !== 0x1680 && c !== 0xfeff) n++;
  }
  return n;
}

/**
 * Stats of every element under (and including) `root`. Iterative (an explicit stack, each
 * element visited before and after its children), so that absurdly deep pages cannot
 * exhaust the call stack.
 */
export function computeTextStats(root: DomElement): Map<DomElement, TextStats> {
  const stats = new Map<DomElement, TextStats>();
  interface Frame {
    element: DomElement;
    inLink: boolean;
    isLink: boolean;
    own: TextStats;
    next: DomNode | null;
  }
  const open = (element: DomElement, inLink: boolean): Frame => ({
    element,
    inLink,
    isLink: !inLink && tagOf(element) === 'a' && element.hasAttribute('href'),
    own: { chars: 0, linkChars: 0, links: 0, shortLinks: 0 },
    next: element.firstChild,
  });
  const stack: Frame[] = [open(root, false)];
  while (stack.length > 0) {
    const frame = stack[stack.length - 1]!;
    const child = frame.next;
    if (child !== null) {
      frame.next = child.nextSibling;
      if (child.nodeType === TEXT_NODE) {
        const n = visibleChars(child.textContent);
        frame.own.chars += n;
        if (frame.inLink || frame.isLink) frame.own.linkChars += n;
      } else if (isElement(child)) {
        stack.push(open(child, frame.inLink || frame.isLink));
      }
      continue;
    }
    stack.pop();
    const own = frame.own;
    if (frame.isLink && own.chars > 0) {
      own.links += 1;
      if (own.chars < SHORT_LINK_CHARS) own.shortLinks += 1;
    }
    stats.set(frame.element, own);
    const parent = stack[stack.length - 1];
    if (parent !== undefined) {
      parent.own.chars += own.chars;
      parent.own.linkChars += own.linkChars;
      parent.own.links += own.links;
      parent.own.shortLinks += own.shortLinks;
    }
  }
  return stats;
}

/**
 * The non-white-space characters under `root`, counted in document order and no further
 * than just past `limit`: whether a block is short needs no walk of all of a long one.
 */
export function charsUpTo(root: DomNode, limit: number): number {
  let n = 0;
  for (let node: DomNode | null = root.firstChild; node !== null; node = nextInTree(node, root, !isElement(node))) {
    if (node.nodeType !== TEXT_NODE) continue;
    n += visibleChars(node.textContent);
    if (n > limit) return n;
  }
  return n;
}

/**
 * Elements that show something without text: a label beside one is not all its parent
 * shows (SVG is left out: next to a label it is an icon, a chevron or a spinner).
 */
const SHOWS_WITHOUT_TEXT: ReadonlySet<string> = new Set(['img', 'picture', 'video', 'audio', 'canvas', 'iframe', 'object', 'embed', 'table', 'input', 'select', 'textarea']);

/**
 * Whether `root` shows nothing but `chars` visible characters of text (the text it is known
 * to hold): no more text, no image or table. The walk stops past `maxNodes` nodes (then
 * the answer is no), so that the test costs a few steps however large `root` is.
 */
export function holdsOnlyText(root: DomNode, chars: number, maxNodes: number): boolean {
  let n = 0;
  let nodes = 0;
  for (let node: DomNode | null = root.firstChild; node !== null; node = nextInTree(node, root, !isElement(node))) {
    if (++nodes > maxNodes) return false;
    if (node.nodeType === TEXT_NODE) {
      n += visibleChars(node.textContent);
      if (n > chars) return false;
    } else if (isElement(node) && SHOWS_WITHOUT_TEXT.has(tagOf(node))) {
      return false;
    }
  }
  return true;
}

export function linkDensity(stats: TextStats | undefined): number {
  return stats === undefined || stats.chars === 0 ? 0 : stats.linkChars / stats.chars;
}
