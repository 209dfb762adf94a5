/**
 * A block shown twice in a row (a responsive page's two copies, a slider's clones) written
 * once, and a screen-reader copy of the text just before it ("GBP 0.00GBP 0.00") dropped;
 * never in table parts, list items, definitions or code. docs/extraction.md, "A block shown
 * twice in a row".
 */

import type { DomElement } from '../dom.js';
import { ELEMENT_NODE, TEXT_NODE, VERBATIM_TAGS, normalizeSpace, tagOf } from '../dom.js';
import type { TextStats } from '../text-stats.js';
import { computeTextStats } from '../text-stats.js';
import { THRESHOLDS } from '../thresholds.js';

/** Blocks: compared whatever their number of words. */
const BLOCK_TAGS: ReadonlySet<string> = new Set([
  'div',
  'section',
  'article',
  'aside',
  'main',
  'header',
  'footer',
  'p',
  'ul',
  'ol',
  'dl',
  'figure',
  'blockquote',
  'details',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
]);

/** Never compared: a repeated value there is data. */
const DATA_TAGS: ReadonlySet<string> = new Set([
  'table',
  'thead',
  'tbody',
  'tfoot',
  'tr',
  'td',
  'th',
  'caption',
  'li',
  'dt',
  'dd',
  'pre',
  'code',
  'kbd',
  'samp',
  'var',
]);

const LETTER = /\p{L}/u;

const LETTER_OR_DIGIT = /[\p{L}\p{N}]/u;

function repeatsText(element: DomElement, chars: number, before: string | null): boolean {
  if (before === null || chars < THRESHOLDS.MIN_SCREEN_READER_COPY_CHARS) return false;
  const text = normalizeSpace(before);
  return (
    text.replace(/\s/g, '').length === chars &&
    LETTER_OR_DIGIT.test(text) &&
    normalizeSpace(element.textContent) === text
  );
}

/**
 * What two siblings are compared by (text, link targets, image sources and alts); null when
 * never dropped.
 */
function comparable(element: DomElement, chars: number, stats: Map<DomElement, TextStats>): string | null {
  const tag = tagOf(element);
  if (DATA_TAGS.has(tag)) return null;
  const text = normalizeSpace(element.textContent);
  if (!LETTER.test(text)) return null;
  if (!BLOCK_TAGS.has(tag) && text.split(' ').length < THRESHOLDS.MIN_INLINE_WORDS) return null;
  if (chars < THRESHOLDS.MIN_LONE_CHARS && textChildren(element, stats) < 2) return null;
  const targets = Array.from(
    element.querySelectorAll('a[href], img'),
    (e) => `${e.getAttribute('href') ?? ''} ${e.getAttribute('src') ?? ''} ${e.getAttribute('alt') ?? ''}`,
  );
  return `${text}\u0000${targets.join('\u0000')}`;
}

/** Element children with text, up to two: a section, not a line. */
function textChildren(element: DomElement, stats: Map<DomElement, TextStats>): number {
  let n = 0;
  for (let child = element.firstElementChild; child !== null && n < 2; child = child.nextElementSibling) {
    if ((stats.get(child)?.chars ?? 0) > 0) n++;
  }
  return n;
}

export function dropRepeatedBlocks(root: DomElement): void {
  // Visible character counts rule out almost every pair before any text is read.
  const stats = computeTextStats(root);
  // [parent, inside code (pre, code, kbd, samp), where a repeated text is the code's]
  const stack: Array<[DomElement, boolean]> = [[root, false]];
  while (stack.length > 0) {
    const [parent, verbatim] = stack.pop()!;
    let previous: DomElement | null = null;
    let previousText: string | null | undefined;
    // The text node just before the current child, if that is what comes before it.
    let textBefore: string | null = null;
    for (let child = parent.firstChild; child !== null;) {
      const next = child.nextSibling;
      if (child.nodeType === TEXT_NODE) {
        if (normalizeSpace(child.textContent) !== '') previous = null;
        textBefore = child.textContent;
      } else if (child.nodeType === ELEMENT_NODE) {
        const element = child as DomElement;
        const tag = tagOf(element);
        const chars = stats.get(element)?.chars ?? 0;
        const inCode = verbatim || VERBATIM_TAGS.has(tag);
        let dropped = !inCode && repeatsText(element, chars, textBefore);
        textBefore = null;
        if (
          !dropped &&
          previous !== null &&
          chars > 0 &&
          tagOf(previous) === tag &&
          (stats.get(previous)?.chars ?? 0) === chars
        ) {
          if (previousText === undefined) previousText = comparable(previous, chars, stats);
          dropped = previousText !== null && comparable(element, chars, stats) === previousText;
        }
        if (dropped) {
          element.remove();
        } else {
          previous = element;
          previousText = undefined;
          stack.push([element, inCode]);
        }
      }
      child = next;
    }
  }
}
