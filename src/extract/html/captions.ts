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
 *   - a `<figcaption>` of a `<figure>` that holds a picture (`<img>` or `<picture>`) and no
 *     table, code block or quotation (the caption of those is the content's own heading);
 *   - an element whose class/id marks it as a caption or credit (`wp-caption-text`,
 *     `image-credit`, `newsCaption` ...) in a picture's frame (its parent holds an image
 *     and at most MAX_CAPTION_CHARS of other text), when it is itself short (at most
 *     MAX_CAPTION_CHARS) and mostly not link text, as captions are, so that a product
 *     card's "caption" of links and prices is not mistaken for one.
 */

import type { DomElement } from './dom.js';
import { descendants, normalizeSpace, tagOf } from './dom.js';
import { computeTextStats, linkDensity } from './text-stats.js';

/** The attribute on an `<img>` that carries its caption to the Markdown stage. */
export const CAPTION_ATTRIBUTE = 'data-md-caption';

/** A class/id-marked caption longer than this is prose, not a caption. */
export const MAX_CAPTION_CHARS = 300;
/** ... and one with more link text than this share is a card or a list of links. */
export const MAX_CAPTION_LINK_DENSITY = 0.5;

const CAPTION_WORDS = /(?:^|[-_\s])(?:caption|captions|credit|credits)(?=$|[-_\s])/i;
/** The same as the last part of a camel-case name (`newsCaption`, `imageCredit`). */
const CAMEL_CAPTION_WORDS = /[a-z](?:Caption|Credit)s?(?=$|[-_\s])/;
const NOT_PICTURE_FIGURE = 'table, pre, blockquote';

/** The image of a picture container (a `<picture>` renders through its `<img>`). */
function imageIn(container: DomElement | null): DomElement | null {
  return container === null ? null : container.querySelector('img');
}

/** Whether `element` is still in the tree under `root` (it goes with a removed ancestor). */
function isUnder(root: DomElement, element: DomElement): boolean {
  for (let node: DomElement | null = element; node !== null; node = node.parentElement) if (node === root) return true;
  return false;
}

function isMarkedCaption(element: DomElement): boolean {
  const words = `${element.getAttribute('class') ?? ''} ${element.getAttribute('id') ?? ''}`;
  return words.length > 1 && (CAPTION_WORDS.test(words) || CAMEL_CAPTION_WORDS.test(words));
}

function attach(caption: DomElement, img: DomElement): void {
  const text = normalizeSpace(caption.textContent);
  if (text !== '') {
    const previous = img.getAttribute(CAPTION_ATTRIBUTE);
    img.setAttribute(CAPTION_ATTRIBUTE, previous ? `${previous} ${text}` : text);
  }
  caption.remove();
}

/** Moves every picture caption under `root` onto its image (see the module comment). */
export function attachPictureCaptions(root: DomElement): void {
  for (const figcaption of descendants(root, new Set(['figcaption']))) {
    const figure = figcaption.closest('figure');
    if (figure === null || figure.querySelector(NOT_PICTURE_FIGURE) !== null) continue;
    const img = imageIn(figure);
    if (img !== null) attach(figcaption, img);
  }
  const marked = descendants(root).filter((el) => tagOf(el) !== 'img' && isMarkedCaption(el));
  if (marked.length === 0) return;
  const stats = computeTextStats(root);
  for (const element of marked) {
    if (!isUnder(root, element)) continue;
    const s = stats.get(element);
    if (s === undefined || s.chars === 0 || s.chars > MAX_CAPTION_CHARS || linkDensity(s) > MAX_CAPTION_LINK_DENSITY) continue;
    if (element.querySelector('img, h1, h2, h3, h4, h5, h6') !== null) continue;
    // Its parent must be a picture's frame: an image and little text besides the caption.
    const parent = element.parentElement;
    if (parent === null || (stats.get(parent)?.chars ?? 0) - s.chars > MAX_CAPTION_CHARS) continue;
    const img = imageIn(parent);
    if (img !== null) attach(element, img);
  }
}
