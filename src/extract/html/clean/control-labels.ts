/**
 * Labels of page controls ("Loading...", "Read more", "Close") go with the block they are
 * all of; in a sentence, a cell, a heading or a term they stay. Run on the chosen content
 * only: the listing rule counts "Read more" links. docs/extraction.md, "Labels of page
 * controls".
 */

import type { DomElement, DomNode } from '../dom.js';
import { ELEMENT_NODE, TEXT_NODE, VERBATIM_TAGS, nextInTree, normalizeSpace, tagOf } from '../dom.js';
import { holdsOnlyText, visibleChars } from '../text-stats.js';
import { THRESHOLDS } from '../thresholds.js';

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
const INLINE_WRAPPERS: ReadonlySet<string> = new Set([
  'a',
  'span',
  'em',
  'i',
  'b',
  'strong',
  'small',
  'label',
  'font',
  'u',
]);
/**
 * Blocks a label may be the whole of. Not cells, headings or terms: there the word is a
 * name ("Share" over market shares).
 */
const BLOCKS: ReadonlySet<string> = new Set(['p', 'div', 'li']);

/**
 * The block that shows only the label `text`, up through wrappers that hold nothing else;
 * null when it is part of more.
 */
function labelBlock(text: DomNode, chars: number, root: DomElement): DomElement | null {
  let block: DomElement | null = null;
  let parent = text.parentNode;
  for (
    let level = 0;
    parent !== null && parent !== root && level < THRESHOLDS.MAX_CONTROL_LABEL_DEPTH;
    level++, parent = parent.parentNode
  ) {
    const tag = tagOf(parent);
    if (
      (!INLINE_WRAPPERS.has(tag) && !BLOCKS.has(tag)) ||
      !holdsOnlyText(parent, chars, THRESHOLDS.MAX_CONTROL_LABEL_NODES)
    )
      break;
    if (BLOCKS.has(tag)) block = parent;
  }
  return block;
}

export function removeControlLabels(root: DomElement): void {
  const doomed: DomNode[] = [];
  for (let node: DomNode | null = root.firstChild; node !== null;) {
    if (node.nodeType === TEXT_NODE) {
      const text = node.textContent ?? '';
      // Text of at most a label's length, once the white space of indented markup is off.
      if (
        text.length <= THRESHOLDS.MAX_CONTROL_LABEL_CHARS ||
        text.trim().length <= THRESHOLDS.MAX_CONTROL_LABEL_CHARS
      ) {
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
