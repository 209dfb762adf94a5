/**
 * Labels of page controls and placeholders, which are never content: a spinner's
 * "Loading...", a quote's "Click to expand...", a card's "Read more", a "Back to top" link,
 * an ad slot's "Sponsored", a share bar's "Share", "Tweet" and "Print", an account strip's
 * "Sign in" and "Subscribe". Written as text in ordinary elements (not `<button>`s, which
 * noise.ts removes), they survive every stage and end up as lines of their own in the
 * Markdown: on the WCXB dev split such lines stood in the output of some 35 pages and in
 * the ground truth of two.
 *
 * A text node whose whole text is one of these labels goes, with the wrappers that hold
 * nothing else (so that no empty list item or paragraph is left behind). A label inside a
 * sentence ("read more about it in ...") is part of the sentence and stays.
 *
 * This runs on the chosen content only, just before the Markdown: the decision rule of the
 * cascade reads link text and alike cards, of which "Read more" links are part. Run before
 * the cascade, it changed the stage of two pages (a listing -0.28 F1, a forum thread
 * -0.14); run here, scrapinghub +0.0004, WCXB +0.0003 (listing +0.002), no stage changed.
 */

import type { DomElement, DomNode } from './dom.js';
import { ELEMENT_NODE, TEXT_NODE, nextInTree, normalizeSpace, tagOf } from './dom.js';
import { charsUpTo, visibleChars } from './text-stats.js';

/** The whole text of a control label, case aside, trailing dots, ellipsis or arrows aside. */
const CONTROL_LABEL = new RegExp(
  '^(?:loading|working|please wait|click to expand|click to shrink|read more|read less|read more less|show more|show less|' +
    'see more|see less|load more|view more|back to top|top of page|sponsored|advertisement|' +
    'subscribe|subscribe now|sign up|sign in|log in|login|share|share this|print|copy link|tweet|pin it)' +
    '\\s*(?:\\.{1,3}|…)?\\s*[›»→↑]?$',
  'i',
);
/** Longer text is never just a label (a cheap test before the expression). */
const MAX_LABEL_CHARS = 40;
/** Elements whose text is code or a form value, left as written. */
const VERBATIM: ReadonlySet<string> = new Set(['pre', 'code', 'kbd', 'samp', 'textarea']);
/** Wrappers removed with a label when it is all they hold; a section or the body never is. */
const WRAPPERS: ReadonlySet<string> = new Set(['a', 'span', 'p', 'div', 'li', 'em', 'i', 'b', 'strong', 'small', 'label', 'font', 'u', 'dt', 'dd']);

/** Wrappers are looked for this many levels up at most (a label sits in a link in an item in a list). */
const MAX_WRAPPER_DEPTH = 6;

/**
 * The outermost wrapper of `text` (up to, not including, `root`) that holds only it: its
 * visible characters are the label's, counted no further than one past them (charsUpTo),
 * so that a label under a long block costs a few steps, not a walk of the block.
 */
function outermostWrapper(text: DomNode, chars: number, root: DomElement): DomNode {
  let node: DomNode = text;
  let parent = node.parentNode as DomElement | null;
  for (let level = 0; parent !== null && parent !== root && level < MAX_WRAPPER_DEPTH; level++, parent = parent.parentNode as DomElement | null) {
    if (!WRAPPERS.has(tagOf(parent)) || charsUpTo(parent, chars) > chars) break;
    node = parent;
  }
  return node;
}

/** Removes the labels of page controls and placeholders under `root` (see the module comment). */
export function removeControlLabels(root: DomElement): void {
  const doomed: DomNode[] = [];
  for (let node: DomNode | null = root.firstChild; node !== null; ) {
    if (node.nodeType === TEXT_NODE) {
      const text = node.textContent ?? '';
      if (text.length <= MAX_LABEL_CHARS * 2) {
        const label = normalizeSpace(text);
        if (label !== '' && label.length <= MAX_LABEL_CHARS && CONTROL_LABEL.test(label)) doomed.push(outermostWrapper(node, visibleChars(label), root));
      }
      node = nextInTree(node, root, true);
    } else {
      node = nextInTree(node, root, node.nodeType === ELEMENT_NODE && VERBATIM.has(tagOf(node as DomElement)));
    }
  }
  for (const node of doomed) node.remove();
}
