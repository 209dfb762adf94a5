/**
 * Inline code made into what a code span can hold (it shows its content literally,
 * CommonMark 6.1): blocks unwrapped, a whole-text link put around the code, other markup
 * flattened. docs/extraction.md, "Inline code that a code span can hold".
 */

import type { DomDocument, DomElement } from '../dom.js';
import { childElements, descendants, normalizeSpace, tagOf } from '../dom.js';

/** Elements a code span cannot hold: blocks, and media whose Markdown is an image. */
const NOT_INLINE: ReadonlySet<string> = new Set([
  'address',
  'article',
  'aside',
  'blockquote',
  'details',
  'dialog',
  'div',
  'dl',
  'fieldset',
  'figure',
  'footer',
  'form',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'header',
  'hr',
  'li',
  'main',
  'nav',
  'ol',
  'p',
  'pre',
  'section',
  'table',
  'ul',
  'img',
  'picture',
  'svg',
  'video',
  'audio',
  'iframe',
  'canvas',
  'object',
]);

/** The elements under `root` that hold a NOT_INLINE element. */
function holdingBlocks(root: DomElement): Set<DomElement> {
  const holding = new Set<DomElement>();
  const all = descendants(root);
  for (let i = all.length - 1; i >= 0; i--) {
    const element = all[i]!;
    const parent = element.parentElement;
    if (parent !== null && (NOT_INLINE.has(tagOf(element)) || holding.has(element))) holding.add(parent);
  }
  return holding;
}

function wholeLink(code: DomElement): DomElement | null {
  const links = code.querySelectorAll('a[href]');
  if (links.length !== 1) return null;
  const link = links[0]!;
  return normalizeSpace(link.textContent) === normalizeSpace(code.textContent) ? link : null;
}

/** A superscript in caret notation, `^9` or `^(a b)`: as markdown.ts writes it outside code. */
export function caretSuperscript(text: string): string {
  return /\s/.test(text) ? `^(${text})` : `^${text}`;
}

function flatText(doc: DomDocument, code: DomElement): string {
  for (const br of Array.from(code.getElementsByTagName('br'))) br.replaceWith(doc.createTextNode(' '));
  // Innermost first: a superscript's own superscripts are written before it is read.
  const sups = Array.from(code.getElementsByTagName('sup'));
  for (let i = sups.length - 1; i >= 0; i--) {
    const text = normalizeSpace(sups[i]!.textContent);
    sups[i]!.replaceWith(doc.createTextNode(text === '' ? '' : caretSuperscript(text)));
  }
  return code.textContent ?? '';
}

export function normalizeInlineCode(doc: DomDocument, root: DomElement): void {
  const codes = root.getElementsByTagName('code');
  if (!Array.from(codes).some((code) => code.firstElementChild !== null)) return;
  const holding = holdingBlocks(root);
  // [element, inside a <pre>, inside a link]
  const stack: Array<[DomElement, boolean, boolean]> = childElements(root).map((child) => [child, false, false]);
  while (stack.length > 0) {
    const [element, inPre, inLink] = stack.pop()!;
    const tag = tagOf(element);
    if (tag === 'code' && !inPre && element.firstElementChild !== null) {
      if (holding.has(element)) {
        // No code: its children take its place and are walked as they would have been.
        const children = childElements(element);
        element.replaceWith(...Array.from(element.childNodes));
        for (const child of children) stack.push([child, inPre, inLink]);
        continue;
      }
      const link = inLink ? null : wholeLink(element);
      element.textContent = flatText(doc, element);
      if (link !== null) {
        const anchor = link.cloneNode(false) as DomElement;
        element.replaceWith(anchor);
        anchor.appendChild(element);
      }
      continue;
    }
    const link = inLink || (tag === 'a' && element.hasAttribute('href'));
    for (const child of childElements(element)) stack.push([child, inPre || tag === 'pre', link]);
  }
}
