/**
 * Placeholder text. Page builders and shop themes ship their blocks filled with "Lorem
 * ipsum dolor sit amet, consectetur adipiscing elit ...", the typesetters' dummy Latin,
 * and a page sometimes goes live with a block nobody filled in, or with a template's
 * spare copy of a section still holding it. Such a block says nothing about the page:
 * handed to a model, it reads as content in a language the page is not written in. A
 * shop's wallet page on WCXB dev held two such blocks among its specifications (57 of its
 * 669 words; none of the 684 dev pages' ground truths holds the words).
 *
 * A block goes when all of it is the placeholder: a block of text and inline markup (a
 * paragraph, a list item, a cell, a heading, a `div` of text) whose text, white space
 * collapsed, opens with the passage's first five words and holds words and sentence
 * punctuation only (WORDS_ONLY). What is more stays whole: a block that holds other
 * blocks, a list, a table, an image or a line break; a block with a figure, a price or a
 * label after the dummy text ("Price: $49"); text in code (a sample's input is the
 * page's). A table cell is emptied, not removed, so that its row keeps its columns.
 * "Lorem ipsum" alone is a name as often ("Lorem ipsum generator"), and a page about the
 * placeholder (its title or an `<h1>` names it) keeps its quotations of it.
 */

import type { DomDocument, DomElement } from './dom.js';
import { TEXT_NODE, VERBATIM_TAGS, isElement, nextInTree, normalizeSpace, tagOf } from './dom.js';

/** The opening of the passage (Cicero's "neque porro quisquam est qui dolorem ipsum ..."), as typesetters cut it. */
const PLACEHOLDER = /^lorem ipsum dolor sit amet\b/i;

/**
 * A placeholder block holds words and sentence punctuation only: a figure, a price, a
 * label's colon ("Price: $49", "Warranty: 2 years") is the page's own, written after the
 * dummy text in the same block.
 */
const WORDS_ONLY = /^[\p{L}\s.,;!?'"’‘“”()\-–—]+$/u;

/** A text node that may open a placeholder: it starts with its first word. */
const FIRST_WORD = /^[\s\u00a0]*lorem(?![\p{L}\p{N}])/iu;

/** The source must hold this (a string search is far cheaper than a walk of the tree). */
const SOURCE_TEST = /lorem/i;

/** A page about the placeholder names it in its title or an `<h1>`. */
const ABOUT_IT = /lorem ipsum/i;

/** The elements a placeholder fills: blocks of text. */
const TEXT_BLOCKS: ReadonlySet<string> = new Set([
  'p', 'li', 'td', 'th', 'dd', 'dt', 'blockquote', 'figcaption', 'caption', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'div', 'section', 'article',
]);

/** What a block may hold besides text and inline markup, and then is more than a placeholder. */
const OTHER_CONTENT: ReadonlySet<string> = new Set([
  ...TEXT_BLOCKS, ...VERBATIM_TAGS, 'img', 'picture', 'figure', 'table', 'ul', 'ol', 'dl', 'br', 'hr', 'video', 'audio', 'iframe', 'object', 'embed', 'canvas', 'svg', 'math',
]);

/** A cell keeps its place in its row, emptied: else the cells after it move under the wrong header. */
const CELLS: ReadonlySet<string> = new Set(['td', 'th']);

/**
 * The block around `element` (itself, or the nearest ancestor that is one), up to `root`;
 * null inside code (a sample's text is the page's, whatever it says).
 */
function blockOf(element: DomElement, root: DomElement): DomElement | null {
  for (let up: DomElement | null = element; up !== null && up !== root; up = up.parentElement) {
    const tag = tagOf(up);
    if (VERBATIM_TAGS.has(tag)) return null;
    if (TEXT_BLOCKS.has(tag)) return up;
  }
  return null;
}

/** Whether `block` holds more than text and inline markup (the walk stops at the first such element). */
function holdsOtherContent(block: DomElement): boolean {
  for (let node = nextInTree(block, block, false); node !== null; node = nextInTree(node, block, false)) {
    if (isElement(node) && OTHER_CONTENT.has(tagOf(node))) return true;
  }
  return false;
}

/**
 * Removes the blocks under `body` that hold placeholder text only (see the module
 * comment), and empties such table cells; `source` is the page's HTML, which gates the
 * pass. Each block is judged once, and only a block of text and inline markup is read
 * whole: such blocks do not nest, so the page's text is read at most once.
 */
export function dropPlaceholderText(doc: DomDocument, body: DomElement, source: string): void {
  if (!SOURCE_TEST.test(source)) return;
  const title = doc.querySelector('title')?.textContent ?? '';
  if (ABOUT_IT.test(title) || Array.from(body.querySelectorAll('h1')).some((h1) => ABOUT_IT.test(h1.textContent ?? ''))) return;
  const judged = new Set<DomElement>();
  const doomed: DomElement[] = [];
  for (let node = nextInTree(body, body, false); node !== null; node = nextInTree(node, body, false)) {
    if (node.nodeType !== TEXT_NODE || !FIRST_WORD.test(node.textContent ?? '')) continue;
    const parent = node.parentNode;
    const block = parent === null ? null : blockOf(parent, body);
    if (block === null || judged.has(block)) continue;
    judged.add(block);
    if (holdsOtherContent(block)) continue;
    const text = normalizeSpace(block.textContent);
    if (PLACEHOLDER.test(text) && WORDS_ONLY.test(text)) doomed.push(block);
  }
  for (const block of doomed) {
    if (!CELLS.has(tagOf(block))) block.remove();
    else while (block.firstChild !== null) block.firstChild.remove();
  }
}
