/**
 * Placeholder text: a block of text and inline markup holding only "Lorem ipsum dolor sit
 * amet ..." goes (a cell is emptied), unless the page is about the placeholder.
 * docs/extraction.md, "Placeholder text".
 */

import type { DomDocument, DomElement } from '../dom.js';
import { INLINE_TAGS, TEXT_NODE, VERBATIM_TAGS, isElement, nextInTree, normalizeSpace, tagOf } from '../dom.js';
import type { SourceWords } from '../read/source-words.js';

/** The passage's opening (from Cicero's "... dolorem ipsum ..."), as typesetters cut it. */
const PLACEHOLDER = /^lorem ipsum dolor sit amet\b/i;

/**
 * The words of the placeholder's forms (the printed passage, the generators' list, Cicero's
 * text): any other word is the page's own.
 */
const PLACEHOLDER_WORDS: ReadonlySet<string> = new Set(
  (
    'a ab ac accumsan accusantium ad adipisci adipiscing aenean aliqua aliquam aliquet aliquip amet anim ante aperiam arcu architecto ' +
    'aspernatur at auctor augue aut aute autem beatae bibendum blandit cillum commodi commodo condimentum congue consectetur ' +
    'consequat consequatur consequuntur convallis corporis cras culpa cum cupidatat curabitur cursus dapibus deserunt diam dicta ' +
    'dictum dictumst dignissim dis do dolor dolore dolorem doloremque dolores donec dui duis ea eaque egestas eget eiusmod eius ' +
    'eleifend elementum elit enim eos erat eros error esse est et etiam eu euismod ex exercitation excepteur explicabo facilisi ' +
    'facilisis fames faucibus felis fermentum feugiat fringilla fugiat fugit fusce gravida habitant habitasse hac hendrerit iaculis ' +
    'id illo imperdiet in incidunt incididunt integer interdum inventore ipsa ipsam ipsum irure iste iure justo labore laboriosam ' +
    'laboris laborum lacinia lacus laoreet laudantium lectus leo libero ligula lobortis lorem luctus maecenas magna magnam magni ' +
    'magnis malesuada massa mattis mauris metus mi minim minima modi molestie mollis mollit montes morbi mus nam nascetur natoque ' +
    'natus nec nemo neque nesciunt netus nibh nihil nisi nisl non nostrud nostrum nulla nullam numquam nunc occaecat odio odit ' +
    'officia omnis orci ornare pariatur parturient pellentesque penatibus perspiciatis pharetra phasellus placerat platea porro ' +
    'porta porttitor posuere potenti praesent pretium proident proin pulvinar purus quaerat quam quasi qui quia quis quisquam ' +
    'quisque quo ratione reprehenderit rem rhoncus ridiculus risus rutrum sagittis sapien scelerisque sed sem semper senectus ' +
    'sequi sint sit sociis sodales sollicitudin sunt suscipit suspendisse tellus tempor tempora tempus tincidunt tortor totam ' +
    'tristique turpis ullam ullamco ullamcorper ultrices ultricies unde urna ut varius vel velit venenatis veniam veritatis ' +
    'vestibulum vitae vivamus viverra voluptas voluptate voluptatem volutpat vulputate'
  ).split(' '),
);

const FIRST_WORD = /^[\s\u00a0]*lorem(?![\p{L}\p{N}])/iu;

/** A page about the placeholder names it in its title or an `<h1>`. */
const ABOUT_IT = /lorem ipsum/i;

/**
 * The blocks a placeholder fills; not a term or a definition (a term without its definition
 * reads as the next one's).
 */
const TEXT_BLOCKS: ReadonlySet<string> = new Set([
  'p',
  'li',
  'td',
  'th',
  'blockquote',
  'figcaption',
  'caption',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'div',
  'section',
  'article',
]);

/** A cell is emptied, not removed: else the cells after it move under the wrong header. */
const CELLS: ReadonlySet<string> = new Set(['td', 'th']);

function blockOf(element: DomElement, root: DomElement): DomElement | null {
  for (let up: DomElement | null = element; up !== null && up !== root; up = up.parentElement) {
    if (TEXT_BLOCKS.has(tagOf(up))) return up;
  }
  return null;
}

function holdsOtherContent(block: DomElement): boolean {
  for (let node = nextInTree(block, block, false); node !== null; node = nextInTree(node, block, false)) {
    if (isElement(node) && !INLINE_TAGS.has(tagOf(node))) return true;
  }
  return false;
}

function isPlaceholder(text: string): boolean {
  if (!PLACEHOLDER.test(text)) return false;
  for (const word of text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []) if (!PLACEHOLDER_WORDS.has(word)) return false;
  return true;
}

/**
 * Removes the blocks under `body` that hold placeholder text only (cells emptied); the
 * words of the page's source (`words`) gate the pass. Such blocks do not nest: the text is
 * read at most once.
 */
export function dropPlaceholderText(doc: DomDocument, body: DomElement, words: SourceWords): void {
  // The source must hold the word (a search of it is far cheaper than a walk).
  if (!words.has('lorem')) return;
  const title = doc.querySelector('title')?.textContent ?? '';
  if (ABOUT_IT.test(title) || Array.from(body.querySelectorAll('h1')).some((h1) => ABOUT_IT.test(h1.textContent ?? '')))
    return;
  const judged = new Set<DomElement>();
  const doomed: DomElement[] = [];
  for (let node = nextInTree(body, body, false); node !== null;) {
    // Code is the page's, whatever it says: a sample's input, a highlighter's lines.
    if (isElement(node) && VERBATIM_TAGS.has(tagOf(node))) {
      node = nextInTree(node, body, true);
      continue;
    }
    if (node.nodeType === TEXT_NODE && FIRST_WORD.test(node.textContent ?? '')) {
      const parent = node.parentNode;
      const block = parent === null ? null : blockOf(parent, body);
      if (block !== null && !judged.has(block)) {
        judged.add(block);
        if (!holdsOtherContent(block) && isPlaceholder(normalizeSpace(block.textContent))) doomed.push(block);
      }
    }
    node = nextInTree(node, body, false);
  }
  for (const block of doomed) {
    if (!CELLS.has(tagOf(block))) block.remove();
    else while (block.firstChild !== null) block.firstChild.remove();
  }
}
