/**
 * Turndown escapes the characters that open a block construct (`-`, `+ `, `=`, `# `,
 * `~~~`, `>`, `1. `) at the start of every text node, because it does not know where a
 * line starts. Most text nodes start mid-line, after a link or bold text in the same
 * paragraph, where those characters open nothing (CommonMark 4 and 5: block markers count
 * only at the start of a line, after the container prefixes), so the Markdown read
 * `$\-0.07`, `see **this**\- or that`.
 *
 * Before conversion, each text node that starts mid-line and with one of those characters
 * gets MID_LINE_MARK in front of that character: Turndown's patterns, anchored at the
 * start of the node's text, then do not match, and the escape step (markdown.ts) takes the
 * mark out again. A text node starts mid-line when visible text comes before it in the
 * same line: earlier in its block, with no block boundary and no `<br>` in between, and
 * only inline elements (whose Turndown output is their text, with delimiters) around.
 * Anything else counts as a line break, so that an escape is only ever left out where it
 * is certainly not needed; a needless escape is harmless, a missing one changes what the
 * Markdown says.
 */

import type { DomElement, DomNode } from './dom.js';
import { TEXT_NODE, VERBATIM_TAGS, isElement, tagOf } from './dom.js';
import { INVISIBLE } from './tidy.js';

/** A Unicode noncharacter (never text a page means to show) marking a mid-line start. */
export const MID_LINE_MARK = '\uFDD0';
const MARKS = /\uFDD0/g;

/**
 * Elements Turndown writes inline, as their content (with delimiters at most): the text
 * around them stays on one line. Every other element is taken for a line break.
 */
const INLINE_TAGS: ReadonlySet<string> = new Set([
  'a', 'abbr', 'acronym', 'b', 'bdi', 'bdo', 'big', 'cite', 'data', 'del', 'dfn', 'em', 'font', 'i', 'ins',
  'label', 'mark', 'nobr', 'q', 's', 'small', 'span', 'strike', 'strong', 'sub', 'sup', 'time', 'tt', 'u', 'var',
]);

/** The starts Turndown escapes (its patterns, after the white space it collapses away). */
const ESCAPED_START = /^[ \t\r\n]*(?:-|\+ |=|#{1,6} |>|\d+\. )/;

/** Text that shows: anything but white space and the invisible characters tidy.ts removes. */
function shows(text: string): boolean {
  return text.replace(INVISIBLE, '').trim() !== '';
}

/**
 * A link Turndown drops though it has text: a symbol-only permalink (markdown.ts's link
 * rule). Its text is not on the line.
 */
function isDroppedLink(element: DomElement): boolean {
  const href = element.getAttribute('href')?.trim();
  return href !== undefined && href.startsWith('#') && !/[\p{L}\p{N}]/u.test(element.textContent ?? '');
}

/** Elements markdown.ts writes between emphasis delimiters (`delimit`). */
const EMPHASIS_TAGS: ReadonlySet<string> = new Set(['b', 'strong', 'em', 'i']);

/**
 * Whether `delimit` (markdown.ts) writes a delimiter before the element's first text: it
 * shows text and holds no code block (content with a fence is written undelimited).
 */
function writesDelimiter(element: DomElement): boolean {
  return shows(element.textContent ?? '') && element.querySelector('pre, textarea') === null;
}

/**
 * Marks the text nodes under `root` that start mid-line with a block marker (see above),
 * after joining runs of adjacent text nodes. `mark` false only joins them, leaving
 * Turndown's escaping as it is (the tests compare the two).
 */
export function markMidLineStarts(root: DomElement, mark = true): void {
  let lineHasText = false;
  // Iterative document-order walk; `exiting` frames reset the line after a block element.
  const stack: { node: DomNode; exiting: boolean }[] = [];
  const pushChildren = (parent: DomElement): void => {
    mergeTextRuns(parent);
    for (let child = parent.lastChild; child !== null; child = child.previousSibling) stack.push({ node: child, exiting: false });
  };
  pushChildren(root);
  while (stack.length > 0) {
    const { node, exiting } = stack.pop()!;
    if (exiting) {
      lineHasText = false;
      continue;
    }
    if (node.nodeType === TEXT_NODE) {
      const text = node.textContent ?? '';
      if (text.includes(MID_LINE_MARK)) node.textContent = text.replace(MARKS, '');
      const value = node.textContent ?? '';
      if (!shows(value)) continue;
      if (lineHasText && mark) {
        const start = ESCAPED_START.exec(value);
        if (start !== null) {
          const at = start[0].length - start[0].trimStart().length;
          node.textContent = value.slice(0, at) + MID_LINE_MARK + value.slice(at);
        }
      }
      lineHasText = true;
      continue;
    }
    if (!isElement(node)) continue;
    const tag = tagOf(node);
    if (VERBATIM_TAGS.has(tag)) {
      // Code is written as it is (never escaped); inline code is text on the line, a block breaks it.
      if (tag === 'pre' || tag === 'textarea') lineHasText = false;
      else if (shows(node.textContent ?? '')) lineHasText = true;
      continue;
    }
    if (tag === 'a' && isDroppedLink(node)) continue;
    const inline = INLINE_TAGS.has(tag);
    if (!inline) {
      lineHasText = false;
      stack.push({ node, exiting: true });
    } else if (!lineHasText && EMPHASIS_TAGS.has(tag) && writesDelimiter(node)) {
      // Bold or italics opening the line: its delimiter comes first (`**1. Step**`).
      lineHasText = true;
    }
    pushChildren(node);
  }
}

/**
 * Joins each run of adjacent text nodes under `parent` into one. The parser leaves a run
 * wherever the source has a character reference (`Use &lt;div&gt;` is five nodes), and
 * Turndown escapes each node on its own: at every node's start, and without seeing a `<`
 * that ends one node and the tag name that starts the next.
 */
function mergeTextRuns(parent: DomElement): void {
  for (let child = parent.firstChild; child !== null; child = child.nextSibling) {
    if (child.nodeType !== TEXT_NODE) continue;
    let next = child.nextSibling;
    if (next === null || next.nodeType !== TEXT_NODE) continue;
    let text = child.textContent ?? '';
    while (next !== null && next.nodeType === TEXT_NODE) {
      text += next.textContent ?? '';
      const after: DomNode | null = next.nextSibling;
      next.remove();
      next = after;
    }
    child.textContent = text;
  }
}

/** Takes the marks out of Turndown's output (escaped text, and any text a rule read itself). */
export function unmark(text: string): string {
  return text.includes(MID_LINE_MARK) ? text.replace(MARKS, '') : text;
}
