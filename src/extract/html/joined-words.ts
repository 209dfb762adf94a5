/**
 * Words that only CSS keeps apart. Product cards, menus and tab strips put words in sibling
 * elements that the style sheet lays out as blocks or flex items: `<span>Gregory</span>
 * <span>Paragon 68 Pack</span>` with no white space between. A browser shows "Gregory" and
 * "Paragon 68 Pack" apart; without the style sheet the text reads "GregoryParagon 68 Pack",
 * one word that matches nothing a reader (or a search in the output) looks for.
 *
 * Where an element boundary joins a lowercase letter to a capital, a space is put between
 * them: in running text a word never changes to a capital there (a drop cap, `<b>T</b>he`,
 * goes the other way), so the join can only be layout. Code (`pre`, `code`, `kbd`, `samp`)
 * is left as written: `get<span>Name</span>` is one identifier; so are superscripts,
 * subscripts (`x<sup>N</sup>`) and a `<wbr>`. Digits are not taken as a word's end:
 * `H<sub>2</sub>O` is one formula. A brand written `Java<span>Script</span>` or
 * `i<b>Phone</b>` does come out as two words: the price of reading cards right.
 *
 * On the WCXB dev split this raised collection F1 by 0.002 (WCXB +0.0002), moving no page
 * type down; it is there for the text more than for the score.
 */

import type { DomElement, DomNode } from './dom.js';
import { ELEMENT_NODE, TEXT_NODE, VERBATIM_TAGS, nextInTree, tagOf } from './dom.js';

/**
 * Text in these is part of the word before it, never a layout box: raised and lowered
 * marks (`x<sup>N</sup>`, `a<sub>Max</sub>`). Bold and italics are not among them: shops
 * style a bold or italic label as a block glued to its text (`<i>G-Sync</i>Smooth...`,
 * measured: a product page lost 0.008 when they were), far more often than a word is
 * written `i<b>Phone</b>`.
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
  while (sibling !== null && sibling !== next && sibling.nodeType === ELEMENT_NODE && tagOf(sibling as DomElement) === 'wbr') sibling = sibling.nextSibling;
  return sibling === next;
}

/** ASCII `a`-`z` / `A`-`Z` (char codes; cheaper than a regular expression per text node). */
const isLower = (code: number): boolean => code >= 97 && code <= 122;
const isUpper = (code: number): boolean => code >= 65 && code <= 90;

/** Puts a space where an element boundary joins a lowercase letter to a capital under `root`. */
export function separateJoinedWords(root: DomElement): void {
  let previous: DomNode | null = null;
  let previousLast = 0;
  for (let node: DomNode | null = root.firstChild; node !== null; ) {
    if (node.nodeType === TEXT_NODE) {
      const text = node.textContent ?? '';
      if (text !== '') {
        // Adjacent text nodes of one parent are one run of text, not a boundary; nor is
        // the edge of a superscript or subscript.
        if (previous !== null && isUpper(text.charCodeAt(0)) && isLower(previousLast) && !sameRun(previous, node) && !inWord(node) && !inWord(previous)) {
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
