/**
 * Task lists. A rendered Markdown task list is a list whose items open with a checkbox:
 * GitHub, GitLab and markdown-it write `<li class="task-list-item"><input type="checkbox"
 * disabled checked> Ship it</li>`. noise.ts drops form controls (and Readability drops
 * inputs too), so the items came out as plain bullets and lost whether they were done.
 *
 * Before noise removal, each checkbox that opens its list item (nothing with text before it
 * in the item, comments and scripts aside) and is marked as a task's (`disabled`, as
 * rendered Markdown writes it, or a class word `task`, `todo` or `checklist` on it, its
 * item or its list: `task-list-item`, not `multitasking`) becomes a placeholder holding
 * `[x]` or `[ ]`: markdown.ts writes it as it is, so that the item reads `- [x] Ship it`
 * (GFM's task list item). An enabled checkbox without such a class is a form's (a shop's
 * filter, a settings page) and goes with the other controls.
 *
 * Only the first checkbox of an item can open it, and the item is looked for at most
 * MAX_TASK_DEPTH levels up (`li > label > span > input`): each item is read once, however
 * many checkboxes a page has or however deep they sit.
 */

import type { DomDocument, DomElement, DomNode } from './dom.js';
import { ELEMENT_NODE, TEXT_NODE, descendants, nextInTree, tagOf } from './dom.js';
import { TASK_MARK } from './marks.js';
import { THRESHOLDS } from './thresholds.js';


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
export function markTaskItems(doc: DomDocument, root: DomElement, source: string): void {
  if (!/checkbox/i.test(source)) return;
  const seen = new Set<DomElement>();
  for (const input of descendants(root, INPUT_TAG)) {
    if ((input.getAttribute('type') ?? '').trim().toLowerCase() !== 'checkbox') continue;
    const item = itemOf(input);
    if (item === null || seen.has(item)) continue;
    seen.add(item);
    if (!(input.hasAttribute('disabled') || taskClass(input) || taskClass(item) || taskClass(item.parentElement))) continue;
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
