/**
 * Picture captions. A caption belongs to its picture: in the Markdown it becomes the
 * image's title, `![alt](src "caption")` (and its alt text when the image has none), not a
 * paragraph of the text. Read as prose, captions and photo credits ("Photo: Getty Images",
 * "1 of 4 ...") interrupt the article and repeat it, and neither benchmark counts them as
 * main content: on the scrapinghub dev split, rendering them as paragraphs cost 0.013 F1.
 * A picture whose image is not rendered (no usable source) loses its caption with it.
 *
 * What counts as a picture caption (found before any cascade stage, because Readability
 * drops the class names that mark them):
 *   - a `<figcaption>` of a `<figure>` that holds a picture (see `imageIn`) and no
 *     table, code block or quotation (the caption of those is the content's own heading);
 *   - an element whose class/id marks it as a caption or credit (`wp-caption-text`,
 *     `image-credit`, `story-image-copyright`, `newsCaption` ...) in a picture's frame:
 *     its parent holds an image and at most MAX_CAPTION_CHARS of other text, or the
 *     element just before it is a picture with at most that much text. It must itself be
 *     short (at most MAX_CAPTION_CHARS) and mostly not link text, as captions are, so
 *     that a product card's "caption" of links and prices is not mistaken for one.
 */

import type { DomElement, DomNode } from './dom.js';
import { CAPTION_MARK } from './marks.js';
import { TEXT_NODE, classAndId, descendants, isElement, normalizeSpace, tagOf } from './dom.js';
import { charsUpTo, computeTextStats, linkDensity } from './text-stats.js';
import { THRESHOLDS } from './thresholds.js';


const CAPTION_WORDS = /(?:^|[-_\s])(?:caption|captions|credit|credits|copyright)(?=$|[-_\s])/i;
/** The same as the last part of a camel-case name (`newsCaption`, `imageCredit`). */
const CAMEL_CAPTION_WORDS = /[a-z](?:Caption|Credit|Copyright)s?(?=$|[-_\s])/;
const NOT_PICTURE_FIGURE = 'table, pre, blockquote';
const FIGCAPTION: ReadonlySet<string> = new Set(['figcaption']);

/**
 * The image of a picture container: an `<img>` (a `<picture>` renders through its own),
 * or the placeholder a lazy-loading script fills in (an element with `data-src`), which is
 * not rendered, so that its caption goes with it.
 */
function imageIn(container: DomElement | null): DomElement | null {
  return container === null ? null : (container.querySelector('img') ?? container.querySelector('[data-src], [data-srcset]'));
}

/** Whether `element` is still in the tree under `root` (it goes with a removed ancestor). */
function isUnder(root: DomElement, element: DomElement): boolean {
  for (let node: DomElement | null = element; node !== null; node = node.parentElement) if (node === root) return true;
  return false;
}

function isMarkedCaption(element: DomElement): boolean {
  const words = classAndId(element);
  return words !== '' && (CAPTION_WORDS.test(words) || CAMEL_CAPTION_WORDS.test(words));
}

/** Elements whose text starts a new line: a space goes between them in the title. */
const BLOCKS: ReadonlySet<string> = new Set(['p', 'div', 'br', 'li', 'figcaption', 'section', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'blockquote', 'cite']);

/** The caption's text on one line, its blocks (a caption and a credit paragraph) spaced. */
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

/** A class or id attribute with a caption word, in the page's source. */
// An unquoted value ends at white space, a quote, `=`, `<`, `>` or a backtick (HTML
// 13.2.5.38): bounding it so keeps the search linear on a script full of `?id=` strings.
const MARKED_IN_SOURCE = /(?:class|id)\s*=\s*(?:"[^"]*|'[^']*|[^\s"'=<>`]*)(?:caption|credit|copyright)/i;

/**
 * Moves every picture caption under `root` onto its image (see the module comment).
 * `source`, the page's HTML, tells which of the two walks can find anything: a page
 * without `<figcaption>` or caption words in its class and id attributes (the larger
 * part) needs neither (each walk of every element costs about 0.6 ms on a typical page).
 */
export function attachPictureCaptions(root: DomElement, source?: string): void {
  if (source === undefined || /<figcaption/i.test(source)) attachFigcaptions(root);
  if (source === undefined || MARKED_IN_SOURCE.test(source)) attachMarkedCaptions(root);
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
    // Counted per candidate, and no further than the limits need: most marked elements
    // are footers' "copyright" lines far from any picture.
    const chars = charsUpTo(element, THRESHOLDS.MAX_CAPTION_CHARS);
    if (chars === 0 || chars > THRESHOLDS.MAX_CAPTION_CHARS) continue;
    // Inside a link it is all link text (a card's title), whatever its own markup.
    if (element.closest('a[href]') !== null || linkDensity(computeTextStats(element).get(element)) > THRESHOLDS.MAX_CAPTION_LINK_DENSITY) continue;
    if (element.querySelector('img, h1, h2, h3, h4, h5, h6') !== null) continue;
    // It must sit in a picture's frame: its parent holds an image and little text besides
    // the caption, or the element just before it is a picture with little text.
    const parent = element.parentElement;
    const before = element.previousElementSibling;
    let img: DomElement | null = null;
    if (parent !== null && charsUpTo(parent, THRESHOLDS.MAX_CAPTION_CHARS + chars) - chars <= THRESHOLDS.MAX_CAPTION_CHARS) img = imageIn(parent);
    if (img === null && before !== null && charsUpTo(before, THRESHOLDS.MAX_CAPTION_CHARS) <= THRESHOLDS.MAX_CAPTION_CHARS) img = imageIn(before);
    if (img !== null) attach(element, img);
  }
}
