/**
 * Picture captions onto their image as its title (`![alt](src "caption")`): a picture's
 * `<figcaption>`, or a class-marked caption or credit in a picture's frame; found before
 * any stage, as Readability drops class names. docs/extraction.md, "Picture captions".
 */

import type { DomElement, DomNode } from '../dom.js';
import { CAPTION_MARK } from '../marks.js';
import { TEXT_NODE, classAndId, descendants, isElement, normalizeSpace, tagOf } from '../dom.js';
import type { SourceWords } from '../read/source-words.js';
import { charsUpTo, computeTextStats, linkDensity } from '../text-stats.js';
import { THRESHOLDS } from '../thresholds.js';

const CAPTION_WORDS = /(?:^|[-_\s])(?:caption|captions|credit|credits|copyright)(?=$|[-_\s])/i;
/** The same as the last part of a camel-case name (`newsCaption`, `imageCredit`). */
const CAMEL_CAPTION_WORDS = /[a-z](?:Caption|Credit|Copyright)s?(?=$|[-_\s])/;
const NOT_PICTURE_FIGURE = 'table, pre, blockquote';
const FIGCAPTION: ReadonlySet<string> = new Set(['figcaption']);

/**
 * A container's image: an `<img>`, or a lazy loader's unrendered placeholder (`data-src`),
 * whose caption goes with it.
 */
function imageIn(container: DomElement | null): DomElement | null {
  return container === null
    ? null
    : (container.querySelector('img') ?? container.querySelector('[data-src], [data-srcset]'));
}

function isUnder(root: DomElement, element: DomElement): boolean {
  for (let node: DomElement | null = element; node !== null; node = node.parentElement) if (node === root) return true;
  return false;
}

function isMarkedCaption(element: DomElement): boolean {
  const words = classAndId(element);
  return words !== '' && (CAPTION_WORDS.test(words) || CAMEL_CAPTION_WORDS.test(words));
}

/** Elements whose text starts a new line: a space goes between them in the title. */
const BLOCKS: ReadonlySet<string> = new Set([
  'p',
  'div',
  'br',
  'li',
  'figcaption',
  'section',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'blockquote',
  'cite',
]);

/** The caption's text on one line, its blocks spaced. */
function captionText(caption: DomElement): string {
  const parts: string[] = [];
  const stack: DomNode[] = [caption];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (node.nodeType === TEXT_NODE) {
      parts.push(node.textContent ?? '');
      continue;
    }
    if (!isElement(node)) continue;
    if (BLOCKS.has(tagOf(node))) parts.push(' ');
    for (let child = node.lastChild; child !== null; child = child.previousSibling) stack.push(child);
  }
  return normalizeSpace(parts.join(''));
}

function attach(caption: DomElement, img: DomElement): void {
  const text = captionText(caption);
  if (text !== '') {
    const previous = img.getAttribute(CAPTION_MARK);
    img.setAttribute(CAPTION_MARK, previous ? `${previous} ${text}` : text);
  }
  caption.remove();
}

/** A caption word anywhere in a class or id value (what isMarkedCaption looks for, and more). */
const CAPTION_NAMED = /caption|credit|copyright/i;

/**
 * Moves every picture caption under `root` onto its image; what the page's source holds
 * (its words, its tags' class and id values: input-bounds.ts) skips the walks that can find
 * nothing.
 */
export function attachPictureCaptions(
  root: DomElement,
  source?: { words: SourceWords; classes: string; ids: string },
): void {
  if (source === undefined || source.words.has('<figcaption')) attachFigcaptions(root);
  if (source === undefined || CAPTION_NAMED.test(source.classes) || CAPTION_NAMED.test(source.ids))
    attachMarkedCaptions(root);
}

function attachFigcaptions(root: DomElement): void {
  for (const figcaption of descendants(root, FIGCAPTION)) {
    const figure = figcaption.closest('figure');
    if (figure === null || figure.querySelector(NOT_PICTURE_FIGURE) !== null) continue;
    const img = imageIn(figure);
    if (img !== null) attach(figcaption, img);
  }
}

function attachMarkedCaptions(root: DomElement): void {
  const marked = descendants(root).filter((el) => tagOf(el) !== 'img' && isMarkedCaption(el));
  for (const element of marked) {
    if (!isUnder(root, element)) continue;
    // Counted no further than the limits need: most marked elements are footers'
    // "copyright" lines.
    const chars = charsUpTo(element, THRESHOLDS.MAX_CAPTION_CHARS);
    if (chars === 0 || chars > THRESHOLDS.MAX_CAPTION_CHARS) continue;
    // Inside a link it is all link text (a card's title), whatever its own markup.
    if (
      element.closest('a[href]') !== null ||
      linkDensity(computeTextStats(element).get(element)) > THRESHOLDS.MAX_CAPTION_LINK_DENSITY
    )
      continue;
    if (element.querySelector('img, h1, h2, h3, h4, h5, h6') !== null) continue;
    // In a picture's frame: its parent holds an image and little other text, or it follows
    // a picture with little text.
    const parent = element.parentElement;
    const before = element.previousElementSibling;
    let img: DomElement | null = null;
    if (
      parent !== null &&
      charsUpTo(parent, THRESHOLDS.MAX_CAPTION_CHARS + chars) - chars <= THRESHOLDS.MAX_CAPTION_CHARS
    )
      img = imageIn(parent);
    if (
      img === null &&
      before !== null &&
      charsUpTo(before, THRESHOLDS.MAX_CAPTION_CHARS) <= THRESHOLDS.MAX_CAPTION_CHARS
    )
      img = imageIn(before);
    if (img !== null) attach(element, img);
  }
}
