/**
 * Task lists: a checkbox that opens its list item and is marked as a task's (`disabled`, or
 * a class word `task`, `todo`, `checklist`) becomes a `[x]` or `[ ]` placeholder, before
 * the noise removal drops form controls. docs/extraction.md, "Task lists".
 */

import type { DomDocument, DomElement, DomNode } from '../dom.js';
import { ELEMENT_NODE, TEXT_NODE, descendants, nextInTree, tagOf } from '../dom.js';
import { TASK_MARK } from '../marks.js';
import type { SourceWords } from '../read/source-words.js';
import { THRESHOLDS } from '../thresholds.js';

const TASK_CLASS = /(?:^|\s|[-_])(?:task|todo|checklist)s?(?=$|\s|[-_])/i;
const INPUT_TAG: ReadonlySet<string> = new Set(['input']);
/** Elements whose text is not shown. */
const UNSHOWN: ReadonlySet<string> = new Set(['script', 'style', 'template', 'noscript']);

function taskClass(element: DomElement | null): boolean {
  return element !== null && TASK_CLASS.test(element.getAttribute('class') ?? '');
}

/** The list item within MAX_TASK_DEPTH levels above `input`, if any. */
function itemOf(input: DomElement): DomElement | null {
  let up: DomElement | null = input.parentElement;
  for (let level = 0; up !== null && level < THRESHOLDS.MAX_TASK_DEPTH; level++, up = up.parentElement) {
    if (tagOf(up) === 'li') return up;
  }
  return null;
}

/** Whether anything shown with text comes before `input` in `item` (its ancestor). */
function textBefore(input: DomElement, item: DomElement): boolean {
  for (let node: DomElement = input; node !== item; node = node.parentElement!) {
    for (let before: DomNode | null = node.previousSibling; before !== null; before = before.previousSibling) {
      const type = before.nodeType;
      const shown = type === TEXT_NODE || (type === ELEMENT_NODE && !UNSHOWN.has(tagOf(before as DomElement)));
      if (shown && (before.textContent ?? '').trim() !== '') return true;
    }
  }
  return false;
}

/** The first text node after `node` inside `item`, in tree order. */
function textAfter(node: DomNode, item: DomElement): DomNode | null {
  for (let next = nextInTree(node, item, true); next !== null; next = nextInTree(next, item, false)) {
    if (next.nodeType === TEXT_NODE) return next;
  }
  return null;
}

/** Replaces the task checkboxes under `root` by placeholders (see the module comment). */
export function markTaskItems(doc: DomDocument, root: DomElement, words: SourceWords): void {
  if (!words.has('checkbox')) return;
  const seen = new Set<DomElement>();
  for (const input of descendants(root, INPUT_TAG)) {
    if ((input.getAttribute('type') ?? '').trim().toLowerCase() !== 'checkbox') continue;
    const item = itemOf(input);
    if (item === null || seen.has(item)) continue;
    seen.add(item);
    if (!(input.hasAttribute('disabled') || taskClass(input) || taskClass(item) || taskClass(item.parentElement)))
      continue;
    if (textBefore(input, item)) continue;
    const state = input.hasAttribute('checked') ? 'x' : ' ';
    const marker = doc.createElement('span');
    marker.setAttribute(TASK_MARK, state);
    marker.textContent = `[${state}]`;
    input.replaceWith(marker);
    // markdown.ts writes the marker with its space: the item's own leading space would double it.
    const after = textAfter(marker, item);
    if (after !== null) after.textContent = (after.textContent ?? '').replace(/^[\s\u00a0]+/, '');
  }
}
