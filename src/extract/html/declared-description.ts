/**
 * The description a product page declares for search engines (schema.org
 * `Product.description` in JSON-LD), found again in the page when the chrome removal took
 * it out. Shops built as script apps keep the description in a sheet or drawer that a
 * "Description" button opens (`role="dialog"`, `<aside>`), which is chrome on every other
 * page; the product description stage then finds no named description, and the cleaned
 * body and Readability are left with the buy box, review filters and carousels. When the
 * declared text is nowhere in the cleaned body but is in the de-noised page, the element
 * that holds it (with the product's name above it) is the product description.
 *
 * The declared text is only an anchor: what is extracted is the page's own element, with
 * its paragraphs and lists. A declared text that is not in the page (many are a summary
 * written for search results) or is short changes nothing; used as the anchor of every
 * product page instead, it cost product pages 0.17 F1 (WCXB dev: the ground truth keeps
 * more of the page than the declared summary).
 */

import type { DomElement, DomNode } from './dom.js';
import { TEXT_NODE, isElement, nextInTree } from './dom.js';
import { charsUpTo, visibleChars } from './text-stats.js';

/** A declared description shorter than this (visible characters) is a tag line, not an anchor. */
export const MIN_DECLARED_CHARS = 200;
/** The declared text is looked for by its first words ... */
const PROBE_WORDS = 12;
/**
 * ... and the element around them grows while it holds at most this many times the
 * declared text (the description's paragraphs and lists, not the page around them).
 */
export const MAX_DECLARED_GROWTH = 1.5;

const WORD_CHAR = /[\p{L}\p{N}]/u;

/** The declared description as plain text (markup and entities some shops leave in it removed). */
export function declaredText(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const text = value
    .replace(/<[^>]*>/g, ' ')
    .replace(/&[a-z]+;|&#x?[0-9a-f]+;/gi, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return visibleChars(text) >= MIN_DECLARED_CHARS ? text : null;
}

/**
 * `text` as lower-case words separated by single spaces, and for each character of that
 * the index of the character of `text` it comes from.
 */
function words(text: string): { words: string; from: number[] } {
  let out = '';
  const from: number[] = [];
  let gap = false;
  for (let i = 0; i < text.length; i++) {
    const char = text[i]!;
    if (WORD_CHAR.test(char)) {
      if (gap && out !== '') {
        out += ' ';
        from.push(i);
      }
      gap = false;
      const lower = char.toLowerCase();
      out += lower;
      for (let k = 0; k < lower.length; k++) from.push(i);
    } else {
      gap = true;
    }
  }
  return { words: out, from };
}

/** The first words of the declared text, as they are looked for. */
function probeOf(declared: string): string {
  return words(declared).words.split(' ').slice(0, PROBE_WORDS).join(' ');
}

/** Whether the text under `root` has the declared description's opening words. */
export function mentions(root: DomElement, declared: string): boolean {
  return words(root.textContent ?? '').words.includes(probeOf(declared));
}

/**
 * The element under `body` (a de-noised body) that holds the declared description: the
 * smallest one around its opening words, grown while it holds at most MAX_DECLARED_GROWTH
 * times the declared text; null when the words are not there.
 */
export function findDeclared(body: DomElement, declared: string): DomElement | null {
  const nodes: DomNode[] = [];
  const starts: number[] = [];
  let text = '';
  for (let node = nextInTree(body, body, false); node !== null; node = nextInTree(node, body, false)) {
    if (node.nodeType !== TEXT_NODE) continue;
    nodes.push(node);
    starts.push(text.length);
    text += node.textContent ?? '';
  }
  const probe = probeOf(declared);
  const { words: all, from } = words(text);
  const at = all.indexOf(probe);
  if (probe === '' || at === -1) return null;
  const nodeAt = (offset: number): DomNode => {
    let low = 0;
    let high = starts.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if (starts[middle]! <= offset) low = middle;
      else high = middle - 1;
    }
    return nodes[low]!;
  };
  const first = nodeAt(from[at]!);
  const last = nodeAt(from[at + probe.length - 1]!);
  const around = new Set<DomNode>();
  for (let node: DomNode | null = first; node !== null; node = node.parentNode) around.add(node);
  let element: DomElement | null = null;
  for (let node: DomNode | null = last; node !== null; node = node.parentNode) {
    if (around.has(node) && isElement(node)) {
      element = node;
      break;
    }
  }
  if (element === null || element === body) return null;
  const limit = MAX_DECLARED_GROWTH * visibleChars(declared);
  while (element.parentElement !== null && element.parentElement !== body && charsUpTo(element.parentElement, limit) <= limit) {
    element = element.parentElement;
  }
  return element;
}
