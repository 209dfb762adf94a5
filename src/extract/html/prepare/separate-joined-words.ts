/**
 * Words only CSS keeps apart (`<span>Gregory</span><span>Paragon</span>`): where an element
 * boundary joins a lowercase letter to a capital, a space goes between them, except in
 * code, at a superscript, subscript or `<wbr>`. docs/extraction.md, "Words kept apart by
 * layout only".
 */

import type { DomElement, DomNode } from '../dom.js';
import { ELEMENT_NODE, TEXT_NODE, VERBATIM_TAGS, nextInTree, tagOf } from '../dom.js';

/**
 * Text in these belongs to the word before it. Not bold or italics: shops glue bold labels
 * to their text far more often.
 */
const IN_WORD: ReadonlySet<string> = new Set(['sup', 'sub']);

/** Whether a text node sits directly in an element that stays inside a word. */
function inWord(text: DomNode): boolean {
  const parent = text.parentNode;
  return parent !== null && IN_WORD.has(tagOf(parent as DomElement));
}

/** Whether `next` follows `previous` in the same run of text: adjacent, or only `<wbr>`s between. */
function sameRun(previous: DomNode, next: DomNode): boolean {
  let sibling = previous.nextSibling;
  while (
    sibling !== null &&
    sibling !== next &&
    sibling.nodeType === ELEMENT_NODE &&
    tagOf(sibling as DomElement) === 'wbr'
  )
    sibling = sibling.nextSibling;
  return sibling === next;
}

/** ASCII `a`-`z` / `A`-`Z` (char codes; cheaper than a regular expression per text node). */
const isLower = (code: number): boolean => code >= 97 && code <= 122;
const isUpper = (code: number): boolean => code >= 65 && code <= 90;

/** Puts a space where an element boundary joins a lowercase letter to a capital under `root`. */
export function separateJoinedWords(root: DomElement): void {
  let previous: DomNode | null = null;
  let previousLast = 0;
  for (let node: DomNode | null = root.firstChild; node !== null;) {
    if (node.nodeType === TEXT_NODE) {
      const text = node.textContent ?? '';
      if (text !== '') {
        // Adjacent text nodes of one parent are one run of text, not a boundary; nor is
        // the edge of a superscript or subscript.
        if (
          previous !== null &&
          isUpper(text.charCodeAt(0)) &&
          isLower(previousLast) &&
          !sameRun(previous, node) &&
          !inWord(node) &&
          !inWord(previous)
        ) {
          node.textContent = ` ${text}`;
        }
        previous = node;
        previousLast = text.charCodeAt(text.length - 1);
      }
      node = nextInTree(node, root, true);
    } else if (node.nodeType === ELEMENT_NODE && VERBATIM_TAGS.has(tagOf(node as DomElement))) {
      previous = null;
      node = nextInTree(node, root, true);
    } else {
      node = nextInTree(node, root, false);
    }
  }
}
