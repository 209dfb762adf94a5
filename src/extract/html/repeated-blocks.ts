/**
 * A block the page shows twice in a row: responsive pages ship one copy of a section for
 * wide screens and one for narrow ones (a tab strip and an accordion, a desktop and a
 * mobile price box), sliders clone their slides, and only the style sheet, which we do not
 * apply, hides all but one. Read as text, each sentence comes twice.
 *
 * Within the chosen content, an element whose previous element sibling (with nothing but
 * white space between them) has the same tag, the same text (with a letter in it), and
 * links and images to the same places, is dropped. Only sections (two or more children
 * with text) and runs of text of MIN_LONE_CHARS or more: a poem's or a song's line, a
 * grid's "Yes" cell can repeat. Blocks (`div`, `section`, `p`, lists as a whole,
 * headings ...) and other elements whose text runs to three words or more: a word split
 * into per-letter `<span>`s ("Je<span>n</span><span>n</span>ifer") or "had had" in word
 * spans keep both. Never table rows and cells, list items, definitions or code, where a
 * repeated value is data.
 *
 * Measured on the WCXB dev split: WCXB F1 0.8729 -> 0.8734 (collection 0.727 -> 0.732,
 * product 0.698 -> 0.700, service 0.832 -> 0.833), scrapinghub unchanged. Comparing text
 * alone and any line gained 0.0003 more, but dropped poem lines, grid cells and the second
 * of two download buttons (same label, other file). The ground truth of one service page
 * keeps a tab strip and its accordion copy both; a reader wants it once.
 *
 * Also an element whose text repeats the text just before it, in the same parent
 * (`GBP 0.00<span class="clipped">GBP 0.00</span>`): a copy for screen readers beside the
 * visible text, which the style sheet hides. Without it the Markdown read "GBP 0.00GBP
 * 0.00". Only from MIN_SCREEN_READER_COPY_CHARS characters with a letter or digit ("Ha<b>ha</b>"
 * differs, and a short cry repeated, "No<b>No</b>", is left alone), and not in code.
 */

import type { DomElement } from './dom.js';
import { ELEMENT_NODE, TEXT_NODE, VERBATIM_TAGS, normalizeSpace, tagOf } from './dom.js';
import type { TextStats } from './text-stats.js';
import { computeTextStats } from './text-stats.js';
import { THRESHOLDS } from './thresholds.js';

/** Blocks: compared whatever their number of words. */
const BLOCK_TAGS: ReadonlySet<string> = new Set([
  'div', 'section', 'article', 'aside', 'main', 'header', 'footer', 'p', 'ul', 'ol', 'dl', 'figure', 'blockquote', 'details',
  'h1', 'h2', 'h3', 'h4', 'h5', 'h6',
]);

/** Never compared: a repeated value there is data. */
const DATA_TAGS: ReadonlySet<string> = new Set([
  'table', 'thead', 'tbody', 'tfoot', 'tr', 'td', 'th', 'caption', 'li', 'dt', 'dd', 'pre', 'code', 'kbd', 'samp', 'var',
]);



const LETTER = /\p{L}/u;


const LETTER_OR_DIGIT = /[\p{L}\p{N}]/u;

/** Whether `element` repeats `before`, the text just before it (see above). */
function repeatsText(element: DomElement, chars: number, before: string | null): boolean {
  if (before === null || chars < THRESHOLDS.MIN_SCREEN_READER_COPY_CHARS) return false;
  const text = normalizeSpace(before);
  return text.replace(/\s/g, '').length === chars && LETTER_OR_DIGIT.test(text) && normalizeSpace(element.textContent) === text;
}

/**
 * What two siblings are compared by (their text, the targets of their links and the
 * sources and alt texts of their images), or null when this one is never dropped.
 */
function comparable(element: DomElement, chars: number, stats: Map<DomElement, TextStats>): string | null {
  const tag = tagOf(element);
  if (DATA_TAGS.has(tag)) return null;
  const text = normalizeSpace(element.textContent);
  if (!LETTER.test(text)) return null;
  if (!BLOCK_TAGS.has(tag) && text.split(' ').length < THRESHOLDS.MIN_INLINE_WORDS) return null;
  if (chars < THRESHOLDS.MIN_LONE_CHARS && textChildren(element, stats) < 2) return null;
  const targets = Array.from(element.querySelectorAll('a[href], img'), (e) => `${e.getAttribute('href') ?? ''} ${e.getAttribute('src') ?? ''} ${e.getAttribute('alt') ?? ''}`);
  return `${text}\u0000${targets.join('\u0000')}`;
}

/** Element children with text (up to two): a section of several blocks, not a line. */
function textChildren(element: DomElement, stats: Map<DomElement, TextStats>): number {
  let n = 0;
  for (let child = element.firstElementChild; child !== null && n < 2; child = child.nextElementSibling) {
    if ((stats.get(child)?.chars ?? 0) > 0) n++;
  }
  return n;
}

/** Drops the second of two adjacent sibling elements that show the same text (see above). */
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
    for (let child = parent.firstChild; child !== null; ) {
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
        if (!dropped && previous !== null && chars > 0 && tagOf(previous) === tag && (stats.get(previous)?.chars ?? 0) === chars) {
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
