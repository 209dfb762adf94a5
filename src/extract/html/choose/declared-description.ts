/**
 * A product page's declared (JSON-LD) description, found again in the de-noised page when
 * the chrome removal took it; only the anchor: the page's own element comes out.
 * docs/extraction.md, "The declared description".
 */

import { decodeEntities } from '../../../core/entities.js';
import type { DomElement, DomNode } from '../dom.js';
import { TEXT_NODE, isElement, nextInTree } from '../dom.js';
import { charsUpTo, visibleChars } from '../text-stats.js';
import { THRESHOLDS } from '../thresholds.js';

/**
 * A declared (JSON-LD) text as plain text: the entities and markup some sites leave in it
 * removed. Also the structured-data reader's text values (read/structured-data/values.ts).
 */
export function declaredPlainText(value: string): string {
  // Entities twice (`&amp;lt;p&amp;gt;`), then tags: `[^<>]` keeps the pattern linear on "<<<<".
  // JSON text, not HTML source: only references with their semicolon.
  return decodeEntities(decodeEntities(value, 'strict'), 'strict')
    .replace(/<[^<>]*>/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

/** The declared description as plain text, when it is long enough to anchor on. */
export function declaredText(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const text = declaredPlainText(value);
  return visibleChars(text) >= THRESHOLDS.MIN_DECLARED_CHARS ? text : null;
}

function wordsOf(text: string): string[] {
  return text
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word !== '');
}

/**
 * The declared description's opening words as a pattern over a page's text: anything but
 * letters and digits between them, no word boundaries at the ends (adjacent blocks join:
 * "$22The Arrival").
 */
function probeOf(declared: string): RegExp | null {
  const words = wordsOf(declared).slice(0, THRESHOLDS.DECLARED_PROBE_WORDS);
  if (words.length === 0) return null;
  return new RegExp(words.join('[^\\p{L}\\p{N}]+'), 'iu');
}

export function mentions(root: DomElement, declared: string): boolean {
  return probeOf(declared)?.test(root.textContent ?? '') ?? false;
}

/**
 * The element under the de-noised `body` that holds the declared description: the smallest
 * around its opening words, grown within MAX_DECLARED_GROWTH times the declared text; null
 * without them.
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
  while (
    element.parentElement !== null &&
    element.parentElement !== body &&
    charsUpTo(element.parentElement, limit) <= limit
  ) {
    element = element.parentElement;
  }
  // A teaser quoting the opening words is not it: it must hold most of the declared text.
  const chars = charsUpTo(element, limit);
  return chars >= THRESHOLDS.MIN_DECLARED_SHARE * declaredChars && chars <= limit ? element : null;
}
