/**
 * Stage 3: the text of an element, blocks as blank lines and `<br>` as line breaks;
 * iterative, so it also serves documents nested too deep for the other stages.
 */

import type { DomElement, DomNode } from '../dom.js';
import { TEXT_NODE, isElement, tagOf } from '../dom.js';

const BLOCK_TAGS: ReadonlySet<string> = new Set([
  'address',
  'article',
  'aside',
  'blockquote',
  'dd',
  'details',
  'div',
  'dl',
  'dt',
  'fieldset',
  'figcaption',
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
  'summary',
  'table',
  'tr',
  'ul',
  'caption',
  'center',
]);
const CELL_TAGS: ReadonlySet<string> = new Set(['td', 'th']);

export function plainText(root: DomElement): string {
  const parts: string[] = [];
  // Entries are nodes to visit, or strings to emit once a block's children are done.
  const stack: (DomNode | string)[] = [root];
  while (stack.length > 0) {
    const item = stack.pop()!;
    if (typeof item === 'string') {
      parts.push(item);
      continue;
    }
    if (item.nodeType === TEXT_NODE) {
      parts.push((item.textContent ?? '').replace(/[\s\u00a0]+/g, ' '));
      continue;
    }
    if (!isElement(item)) continue;
    const tag = tagOf(item);
    if (tag === 'br') {
      parts.push('\n');
      continue;
    }
    const separator = BLOCK_TAGS.has(tag) ? '\n\n' : CELL_TAGS.has(tag) ? ' ' : '';
    parts.push(separator);
    stack.push(separator);
    for (let child = item.lastChild; child !== null; child = child.previousSibling) stack.push(child);
  }
  return parts
    .join('')
    .split('\n')
    .map((line) => line.replace(/ {2,}/g, ' ').trim())
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}
