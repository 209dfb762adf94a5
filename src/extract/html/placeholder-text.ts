/**
 * Placeholder text. Page builders and shop themes ship their blocks filled with "Lorem
 * ipsum dolor sit amet, consectetur adipiscing elit ...", the typesetters' dummy Latin,
 * and a page sometimes goes live with a block nobody filled in, or with a template's
 * spare copy of a section still holding it. Such a block says nothing about the page:
 * handed to a model, it reads as content in a language the page is not written in. A
 * shop's wallet page on WCXB dev held two such blocks among its specifications (57 of its
 * 669 words; none of the 684 dev pages' ground truths holds the words).
 *
 * Only a block whose whole text opens with the passage's first five words goes, and only
 * a block that holds no other block (a paragraph, a list item, a cell, a heading): a
 * section that opens with a dummy paragraph keeps its other paragraphs. "Lorem ipsum"
 * alone is a name as often ("Lorem ipsum generator", a font's sample). And a page about
 * the placeholder (its title or an `<h1>` names it) keeps its quotations of it.
 */

import type { DomDocument, DomElement } from './dom.js';
import { TEXT_NODE, isElement, nextInTree, normalizeSpace, tagOf } from './dom.js';

/** The opening of the passage (Cicero's "neque porro quisquam est qui dolorem ipsum ..."), as typesetters cut it. */
const PLACEHOLDER = /^lorem ipsum dolor sit amet\b/i;

/** The source must hold this (a string search is far cheaper than a walk of the tree). */
const SOURCE_TEST = /lorem ipsum dolor/i;

/** A page about the placeholder names it in its title or an `<h1>`. */
const ABOUT_IT = /lorem ipsum/i;

/** The elements a placeholder fills: blocks of text. */
const TEXT_BLOCKS: ReadonlySet<string> = new Set([
  'p', 'li', 'td', 'th', 'dd', 'dt', 'blockquote', 'figcaption', 'caption', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'div', 'section', 'article',
]);

/** The block around `element` (itself, or the nearest ancestor that is one), up to `root`. */
function blockOf(element: DomElement, root: DomElement): DomElement | null {
  for (let up: DomElement | null = element; up !== null && up !== root; up = up.parentElement) {
    if (TEXT_BLOCKS.has(tagOf(up))) return up;
  }
  return null;
}

/** Whether `block` holds another text block. */
function holdsBlock(block: DomElement): boolean {
  for (let node = nextInTree(block, block, false); node !== null; node = nextInTree(node, block, false)) {
    if (isElement(node) && TEXT_BLOCKS.has(tagOf(node))) return true;
  }
  return false;
}

/**
 * Removes the blocks under `body` that hold placeholder text only (see the module
 * comment); `source` is the page's HTML, which gates the pass.
 */
export function dropPlaceholderText(doc: DomDocument, body: DomElement, source: string): void {
  if (!SOURCE_TEST.test(source)) return;
  const title = doc.querySelector('title')?.textContent ?? '';
  if (ABOUT_IT.test(title) || Array.from(body.querySelectorAll('h1')).some((h1) => ABOUT_IT.test(h1.textContent ?? ''))) return;
  const doomed = new Set<DomElement>();
  for (let node = nextInTree(body, body, false); node !== null; node = nextInTree(node, body, false)) {
    if (node.nodeType !== TEXT_NODE || !PLACEHOLDER.test((node.textContent ?? '').trimStart())) continue;
    const parent = node.parentNode;
    const block = parent === null ? null : blockOf(parent, body);
    if (block !== null && !doomed.has(block) && PLACEHOLDER.test(normalizeSpace(block.textContent)) && !holdsBlock(block)) doomed.add(block);
  }
  for (const block of doomed) block.remove();
}
