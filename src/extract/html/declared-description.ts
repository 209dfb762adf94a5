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
import { THRESHOLDS } from './thresholds.js';


/** The few entities shops leave in JSON-LD text, decoded before markup is stripped. */
const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };

function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]{1,6}|#[0-9]{1,7}|[a-z]{2,8});/gi, (whole, name: string) => {
    if (name[0] !== '#') return ENTITIES[name.toLowerCase()] ?? ' ';
    const code = name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
    return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : ' ';
  });
}

/** The declared description as plain text (entities and markup some shops leave in it removed). */
export function declaredText(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  // Entities twice (`&amp;lt;p&amp;gt;`), then tags: `[^<>]` keeps the pattern linear on "<<<<".
  const text = decodeEntities(decodeEntities(value))
    .replace(/<[^<>]*>/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return visibleChars(text) >= THRESHOLDS.MIN_DECLARED_CHARS ? text : null;
}

/** The words of `text` (letters and digits), lower case. */
function wordsOf(text: string): string[] {
  return text.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter((word) => word !== '');
}

/**
 * A pattern for the declared description's opening words, as they appear in a page's
 * text: anything but letters and digits between them, case aside (no word boundaries at
 * the ends: the text of adjacent blocks is joined without a space, "$22The Arrival").
 * One native search, linear in the text.
 */
function probeOf(declared: string): RegExp | null {
  const words = wordsOf(declared).slice(0, THRESHOLDS.DECLARED_PROBE_WORDS);
  if (words.length === 0) return null;
  return new RegExp(words.join('[^\\p{L}\\p{N}]+'), 'iu');
}

/** Whether the text under `root` has the declared description's opening words. */
export function mentions(root: DomElement, declared: string): boolean {
  return probeOf(declared)?.test(root.textContent ?? '') ?? false;
}

/**
 * The element under `body` (a de-noised body) that holds the declared description: the
 * smallest one around its opening words, grown while it holds at most MAX_DECLARED_GROWTH
 * times the declared text; null when the words are not there.
 */
export function findDeclared(body: DomElement, declared: string): DomElement | null {
  const probe = probeOf(declared);
  if (probe === null) return null;
  const nodes: DomNode[] = [];
  const starts: number[] = [];
  let text = '';
  for (let node = nextInTree(body, body, false); node !== null; node = nextInTree(node, body, false)) {
    if (node.nodeType !== TEXT_NODE) continue;
    nodes.push(node);
    starts.push(text.length);
    text += node.textContent ?? '';
  }
  const match = probe.exec(text);
  if (match === null) return null;
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
  const first = nodeAt(match.index);
  const last = nodeAt(match.index + match[0].length - 1);
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
  const declaredChars = visibleChars(declared);
  const limit = THRESHOLDS.MAX_DECLARED_GROWTH * declaredChars;
  while (element.parentElement !== null && element.parentElement !== body && charsUpTo(element.parentElement, limit) <= limit) {
    element = element.parentElement;
  }
  // A card or teaser that quotes the opening words is not the description: the element
  // must hold most of the declared text, and no more than its growth allows.
  const chars = charsUpTo(element, limit);
  return chars >= THRESHOLDS.MIN_DECLARED_SHARE * declaredChars && chars <= limit ? element : null;
}
