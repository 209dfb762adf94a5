/**
 * Labels of page controls and placeholders, which are never content: a spinner's
 * "Loading...", a quote's "Click to expand...", a card's "Read more", a "Back to top" link,
 * an ad slot's "Sponsored", a share bar's "Share", "Tweet" and "Print", an account strip's
 * "Sign in" and "Subscribe", a panel's "Close". Written as text in ordinary elements (not `<button>`s, which
 * noise.ts removes), they survive every stage and end up as lines of their own in the
 * Markdown: on the WCXB dev split such lines stood in the output of some 35 pages and in
 * the ground truth of two.
 *
 * A label goes when it is the whole of what a block shows (a paragraph, a `<div>`, a list
 * item, through the links and spans around it), with that block, so that no empty list
 * item or paragraph is left behind. A label inside a sentence ("you can <a>subscribe</a>
 * to ..."), beside an image, or naming a table column, a heading or a defined term is
 * part of the content and stays.
 *
 * This runs on the chosen content only, just before the Markdown: the decision rule of the
 * cascade reads link text and alike cards, of which "Read more" links are part. Run before
 * the cascade, it changed the stage of two pages (a listing -0.28 F1, a forum thread
 * -0.14); run here, scrapinghub +0.0003, WCXB +0.0001, no stage changed.
 */

import type { DomElement, DomNode } from './dom.js';
import { ELEMENT_NODE, TEXT_NODE, VERBATIM_TAGS, nextInTree, normalizeSpace, tagOf } from './dom.js';
import { holdsOnlyText, visibleChars } from './text-stats.js';
import { THRESHOLDS } from './thresholds.js';

/** The whole text of a control label, case aside, trailing dots, ellipsis or arrows aside. */
const CONTROL_LABEL = new RegExp(
  '^(?:loading|working|please wait|click to expand|click to shrink|read more|read less|read more less|show more|show less|' +
    'see more|see less|load more|view more|back to top|top of page|sponsored|advertisement|' +
    'subscribe|subscribe now|sign up|sign in|log in|login|share|share this|print|copy link|tweet|pin it|close|dismiss|' +
    // "Loading" and "Read more" in the other languages of the web's largest shares.
    'chargement|chargement en cours|cargando|carregando|caricamento|caricamento in corso|wird geladen|laden|lädt|ładowanie|загрузка|' +
    'lire la suite|en savoir plus|leer más|ver más|leia mais|saiba mais|continua a leggere|leggi tutto|weiterlesen|mehr lesen|mehr anzeigen|czytaj dalej|читать далее)' +
    '\\s*(?:\\.{1,3}|…)?\\s*[›»→↑]?$',
  'i',
);
/** Inline wrappers a label may sit in (a link, a span, emphasis). */
const INLINE_WRAPPERS: ReadonlySet<string> = new Set(['a', 'span', 'em', 'i', 'b', 'strong', 'small', 'label', 'font', 'u']);
/**
 * Blocks a label may be the whole text of. Not table cells, headings or terms: there the
 * word is a column's, a section's or a definition's name ("Share" over market shares,
 * "Print" as an edition), not a control.
 */
const BLOCKS: ReadonlySet<string> = new Set(['p', 'div', 'li']);

/**
 * The block that shows only the label `text` (of `chars` visible characters): up through
 * inline wrappers and blocks that hold nothing else, ending at a block; null when the
 * label is part of a sentence, a heading, a table cell or anything else.
 */
function labelBlock(text: DomNode, chars: number, root: DomElement): DomElement | null {
  let block: DomElement | null = null;
  let parent = text.parentNode;
  for (let level = 0; parent !== null && parent !== root && level < THRESHOLDS.MAX_CONTROL_LABEL_DEPTH; level++, parent = parent.parentNode) {
    const tag = tagOf(parent);
    if ((!INLINE_WRAPPERS.has(tag) && !BLOCKS.has(tag)) || !holdsOnlyText(parent, chars, THRESHOLDS.MAX_CONTROL_LABEL_NODES)) break;
    if (BLOCKS.has(tag)) block = parent;
  }
  return block;
}

/** Removes the labels of page controls and placeholders under `root` (see the module comment). */
export function removeControlLabels(root: DomElement): void {
  const doomed: DomNode[] = [];
  for (let node: DomNode | null = root.firstChild; node !== null; ) {
    if (node.nodeType === TEXT_NODE) {
      const text = node.textContent ?? '';
      // Text of at most a label's length, once the white space of indented markup is off.
      if (text.length <= THRESHOLDS.MAX_CONTROL_LABEL_CHARS || text.trim().length <= THRESHOLDS.MAX_CONTROL_LABEL_CHARS) {
        const label = normalizeSpace(text);
        if (label !== '' && CONTROL_LABEL.test(label)) {
          const block = labelBlock(node, visibleChars(label), root);
          if (block !== null) doomed.push(block);
        }
      }
      node = nextInTree(node, root, true);
    } else {
      node = nextInTree(node, root, node.nodeType === ELEMENT_NODE && VERBATIM_TAGS.has(tagOf(node as DomElement)));
    }
  }
  for (const node of doomed) node.remove();
}
