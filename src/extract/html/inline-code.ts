/**
 * Inline code (`<code>` outside `<pre>`) made into what a Markdown code span can hold.
 *
 * A code span shows its content literally (CommonMark 6.1): Turndown writes the Markdown
 * of the code's children inside the backticks, so `<code><strong>if</strong></code>`
 * read "`**if**`", a linked name `<code><a href>spawn()</a></code>` read
 * "`[spawn()](…)`", and a widget a page wrapped in `<code>` (a feed of images and links)
 * became one code span thousands of characters long. Before conversion:
 *   - a `<code>` holding blocks or embedded media is not code: it gives way to its children;
 *   - a `<code>` whose whole text is one link becomes the link around the code
 *     (`[`spawn()`](…)`, as CommonMark writes a linked code span);
 *   - any other markup inside a `<code>` is flattened to its text (a `<br>` to a space,
 *     as a code span's line ending is one): the words stay, the delimiters that would
 *     have shown literally go.
 */

import type { DomDocument, DomElement } from './dom.js';
import { childElements, descendants, normalizeSpace, tagOf } from './dom.js';

/** Elements a code span cannot hold: blocks, and media whose Markdown is an image. */
const NOT_INLINE: ReadonlySet<string> = new Set([
  'address', 'article', 'aside', 'blockquote', 'details', 'dialog', 'div', 'dl', 'fieldset', 'figure', 'footer',
  'form', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'header', 'hr', 'li', 'main', 'nav', 'ol', 'p', 'pre', 'section',
  'table', 'ul', 'img', 'picture', 'svg', 'video', 'audio', 'iframe', 'canvas', 'object',
]);

const CODE: ReadonlySet<string> = new Set(['code']);

/** The link that carries all of `code`'s text, if one does. */
function wholeLink(code: DomElement): DomElement | null {
  const links = code.getElementsByTagName('a');
  if (links.length !== 1) return null;
  const link = links[0]!;
  if (!link.hasAttribute('href')) return null;
  return normalizeSpace(link.textContent) === normalizeSpace(code.textContent) ? link : null;
}

/** `code`'s text with each `<br>` read as a space. */
function flatText(doc: DomDocument, code: DomElement): string {
  for (const br of Array.from(code.getElementsByTagName('br'))) br.replaceWith(doc.createTextNode(' '));
  return code.textContent ?? '';
}

/** Whether `node` is still in the tree under `root` (a flattened code's inner codes are not). */
function isUnder(node: DomElement, root: DomElement): boolean {
  let at: DomElement | null = node;
  while (at !== null && at !== root) at = at.parentElement;
  return at === root;
}

export function normalizeInlineCode(doc: DomDocument, root: DomElement): void {
  // Document order: an unwrapped code's inner codes are met after it, still in the tree.
  for (const code of descendants(root, CODE)) {
    if (childElements(code).length === 0 || !isUnder(code, root) || code.closest('pre') !== null) continue;
    if (Array.from(code.querySelectorAll('*')).some((el) => NOT_INLINE.has(tagOf(el)))) {
      code.replaceWith(...Array.from(code.childNodes));
      continue;
    }
    const link = wholeLink(code);
    code.textContent = flatText(doc, code);
    if (link !== null) {
      const anchor = link.cloneNode(false) as DomElement;
      code.replaceWith(anchor);
      anchor.appendChild(code);
    }
  }
}
