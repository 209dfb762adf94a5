/**
 * Task lists. A rendered Markdown task list is a list whose items open with a checkbox:
 * GitHub, GitLab and markdown-it write `<li class="task-list-item"><input type="checkbox"
 * disabled checked> Ship it</li>`. noise.ts drops form controls (and Readability drops
 * inputs too), so the items came out as plain bullets and lost whether they were done.
 *
 * Before noise removal, each checkbox that opens its list item (nothing with text before it
 * in the item) and is marked as a task's (`disabled`, as rendered Markdown writes it, or a
 * `task`, `todo` or `checklist` class on it, its item or its list) becomes a placeholder
 * holding `[x]` or `[ ]`: markdown.ts writes it as it is, so that the item reads
 * `- [x] Ship it` (GFM's task list item). An enabled checkbox without such a class is a
 * form's (a shop's filter, a settings page) and goes with the other controls.
 */

import type { DomDocument, DomElement } from './dom.js';
import { descendants } from './dom.js';

/** The attribute of a placeholder: `x` for a checked box, a space for an empty one. */
export const TASK_ATTRIBUTE = 'data-md-task';

const TASK_CLASS = /task|todo|checklist/i;

/** Whether any element before `element` within `item` (its ancestor) holds text. */
function textBefore(element: DomElement, item: DomElement): boolean {
  for (let node: DomElement = element; node !== item && node.parentElement !== null; node = node.parentElement) {
    for (let before = node.previousSibling; before !== null; before = before.previousSibling) {
      if ((before.textContent ?? '').trim() !== '') return true;
    }
  }
  return false;
}

const INPUT_TAG: ReadonlySet<string> = new Set(['input']);

/** Whether `input` is a task's checkbox at the start of its list item (see the module comment). */
function isTaskCheckbox(input: DomElement): boolean {
  if ((input.getAttribute('type') ?? '').trim().toLowerCase() !== 'checkbox') return false;
  const item = input.closest('li');
  if (item === null) return false;
  const marked =
    input.hasAttribute('disabled') ||
    [input, item, item.parentElement].some((element) => element !== null && TASK_CLASS.test(element.getAttribute('class') ?? ''));
  return marked && !textBefore(input, item);
}

/** Replaces the task checkboxes under `root` by placeholders (see the module comment). */
export function markTaskItems(doc: DomDocument, root: DomElement, source: string): void {
  if (!/checkbox/i.test(source)) return;
  for (const input of descendants(root, INPUT_TAG)) {
    if (!isTaskCheckbox(input)) continue;
    const state = input.hasAttribute('checked') ? 'x' : ' ';
    const marker = doc.createElement('span');
    marker.setAttribute(TASK_ATTRIBUTE, state);
    marker.textContent = `[${state}]`;
    input.replaceWith(marker);
  }
}
