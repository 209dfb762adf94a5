/**
 * Block markers escaped only where a line starts: Turndown escapes `-`, `#`, `>`, `1. ` ...
 * at every text node's start, though most start mid-line (CommonMark 4, 5). A node starting
 * mid-line on a SAFE line gets MID_LINE_MARK before its marker, which Turndown's anchored
 * patterns do not get past. docs/extraction.md, "Escapes only where they mean something".
 */

import type { DomElement, DomNode } from '../dom.js';
import { ELEMENT_NODE, INLINE_TAGS, TEXT_NODE, tagOf, walk } from '../dom.js';
import { INVISIBLE } from '../write/tidy.js';
import { isPermalinkSign } from '../urls.js';

/** A noncharacter (never text a page means to show) marking a mid-line start. */
export const MID_LINE_MARK = '\uFDD0';
/** Another, standing for a backslash before the marker after it (see LINE_START_MARKER). */
export const ESCAPE_MARK = '\uFDD1';
const MARKS = /[\uFDD0\uFDD1]/g;

/**
 * A marker Turndown's patterns miss at a node's start on a line not yet safe: after white
 * space, completed by the next node (`<span>#</span> Title`), or a `~`. Group 1 precedes
 * the escape.
 */
const LINE_START_MARKER =
  /^(\s*(?:\d{1,9}(?=[.)](?:\s|$)))?)(?:[.)]|-(?=[\s-]|$)|\+(?=\s|$)|=+\s*$|#{1,6}(?=\s|$)|>|~)/;

/**
 * The starts Turndown escapes, and `1) ` (markdown.ts); not `~~~`, which pairs with
 * strikethrough's `~~`.
 */
const ESCAPED_START = /^[ \t\r\n]*(?:-|\+ |=|#{1,6} |>|\d+\. |\d{1,9}\) )/;

/**
 * A character no block marker, container prefix or table row is made of: it makes a line
 * safe.
 */
const SAFE_CHARACTER = /[^\s\d!-/:-@[-`{-~\uFDD0\uFDD1]/u;

const INVISIBLE_ONE = new RegExp(INVISIBLE.source);

/** Elements markdown.ts writes between emphasis delimiters (`delimit`), by delimiter. */
export const EMPHASIS_KIND: ReadonlyMap<string, string> = new Map([
  ['b', '**'],
  ['strong', '**'],
  ['em', '_'],
  ['i', '_'],
]);

/** Inside these `delimit` may leave emphasis undelimited (a fence-like line, a code block). */
const UNDELIMITING_TAGS: ReadonlySet<string> = new Set(['pre', 'textarea', 'code', 's', 'del', 'strike']);

/**
 * First characters `delimit` may take for a block (`|`, `~`) or that need their escape
 * anyway.
 */
const UNDELIMITING_FIRST: ReadonlySet<string> = new Set(['|', '~', '`']);

/** A symbol-only permalink, which Turndown drops: its text is not on the line. */
function isDroppedLink(element: DomElement): boolean {
  const href = element.getAttribute('href')?.trim();
  return href !== undefined && isPermalinkSign(href, element.textContent ?? '');
}

interface DelimiterFacts {
  /** A letter or digit in its text (outside dropped permalinks). */
  wordy: boolean;
  /** The first character of its text that is not white space ('' when none). */
  first: string;
  /** An element inside that can make `delimit` leave the delimiters out. */
  undelimiting: boolean;
}

function delimiterFacts(root: DomElement): Map<DomElement, DelimiterFacts> {
  const facts = new Map<DomElement, DelimiterFacts>();
  const stack: { element: DomElement; next: DomNode | null; own: DelimiterFacts }[] = [
    { element: root, next: root.firstChild, own: { wordy: false, first: '', undelimiting: false } },
  ];
  while (stack.length > 0) {
    const frame = stack[stack.length - 1]!;
    const child = frame.next;
    if (child !== null) {
      frame.next = child.nextSibling;
      if (child.nodeType === TEXT_NODE) {
        const text = child.textContent ?? '';
        if (!frame.own.wordy && /[\p{L}\p{N}]/u.test(text)) frame.own.wordy = true;
        if (frame.own.first === '') frame.own.first = text.replace(INVISIBLE, '').trimStart().charAt(0);
      } else if (child.nodeType === ELEMENT_NODE) {
        const element = child as DomElement;
        if (tagOf(element) === 'a' && isDroppedLink(element)) continue;
        stack.push({
          element,
          next: element.firstChild,
          own: { wordy: false, first: '', undelimiting: UNDELIMITING_TAGS.has(tagOf(element)) },
        });
      }
      continue;
    }
    stack.pop();
    facts.set(frame.element, frame.own);
    const parent = stack[stack.length - 1];
    if (parent !== undefined) {
      parent.own.wordy ||= frame.own.wordy;
      parent.own.undelimiting ||= frame.own.undelimiting;
      if (parent.own.first === '') parent.own.first = frame.own.first;
    }
  }
  return facts;
}

/** Whether markdown.ts writes this emphasis element's delimiter before its first text. */
function opensWithDelimiter(
  element: DomElement,
  kind: string,
  root: DomElement,
  facts: Map<DomElement, DelimiterFacts>,
): boolean {
  const own = facts.get(element);
  return (
    own !== undefined &&
    own.wordy &&
    !own.undelimiting &&
    !UNDELIMITING_FIRST.has(own.first) &&
    !insideEmphasis(element, kind, root)
  );
}

/**
 * Whether emphasis of the same `kind` encloses `element` below `root` (then it gets no
 * delimiters).
 */
export function insideEmphasis(element: DomElement, kind: string, root: DomElement): boolean {
  return enclosedBy(element, root, (tag) => EMPHASIS_KIND.get(tag) === kind);
}

export function enclosedBy(element: DomElement, root: DomElement, matches: (tag: string) => boolean): boolean {
  if (element === root) return false;
  for (let up = element.parentElement; up !== null; up = up.parentElement) {
    if (matches(tagOf(up))) return true;
    if (up === root) return false;
  }
  return false;
}

/**
 * Joins text runs, takes out invisible characters and marks the mid-line starts under
 * `root`; `mark` false does all but the marking (the tests compare the two).
 */
export function markMidLineStarts(root: DomElement, mark = true): void {
  const facts = delimiterFacts(root);
  let lineSafe = false;
  // Safe only by an opening delimiter so far (no safe character yet).
  let afterDelimiter = false;
  const stack: { node: DomNode; exiting: boolean }[] = [];
  const pushChildren = (parent: DomElement): void => {
    mergeTextRuns(parent);
    for (let child = parent.lastChild; child !== null; child = child.previousSibling)
      stack.push({ node: child, exiting: false });
  };
  pushChildren(root);
  while (stack.length > 0) {
    const { node, exiting } = stack.pop()!;
    if (exiting) {
      lineSafe = afterDelimiter = false;
      continue;
    }
    if (node.nodeType === TEXT_NODE) {
      let value = node.textContent ?? '';
      if (value.includes(MID_LINE_MARK) || value.includes(ESCAPE_MARK) || INVISIBLE_ONE.test(value)) {
        value = withoutMarks(value).replace(INVISIBLE, '');
        node.textContent = value;
      }
      const midLine = mark && lineSafe ? ESCAPED_START.exec(value) : null;
      if (midLine !== null) {
        const at = midLine[0].length - midLine[0].trimStart().length;
        node.textContent = value.slice(0, at) + MID_LINE_MARK + value.slice(at);
      } else if (mark && (!lineSafe || afterDelimiter)) {
        // After an opening delimiter an unescaped `1.` before a line break would make
        // `delimit` drop it.
        const start = LINE_START_MARKER.exec(value);
        if (start !== null) {
          const at = start[1]!.length;
          node.textContent = value.slice(0, at) + ESCAPE_MARK + value.slice(at);
        }
      }
      if (SAFE_CHARACTER.test(value)) {
        lineSafe = true;
        afterDelimiter = false;
      }
      continue;
    }
    if (node.nodeType !== ELEMENT_NODE) continue;
    const element = node as DomElement;
    const tag = tagOf(element);
    if (tag === 'code') {
      // A code span, never escaped; it makes the line safe unless a backtick could make a
      // fence.
      stripMarks(element);
      const code = element.textContent ?? '';
      if (
        !lineSafe &&
        code.replace(INVISIBLE, '').trim() !== '' &&
        !code.includes('`') &&
        element.querySelector('a') === null
      )
        lineSafe = true;
      continue;
    }
    if (tag === 'a' && isDroppedLink(element)) continue;
    if (tag === 'pre' || tag === 'textarea') {
      stripMarks(element);
      lineSafe = afterDelimiter = false;
      stack.push({ node, exiting: true });
      continue;
    }
    if (!INLINE_TAGS.has(tag)) {
      lineSafe = afterDelimiter = false;
      stack.push({ node, exiting: true });
    } else if (!lineSafe) {
      // Bold or italics opening the line: its delimiter comes first (`**1. Step**`).
      const kind = EMPHASIS_KIND.get(tag);
      if (kind !== undefined && opensWithDelimiter(element, kind, root, facts)) lineSafe = afterDelimiter = true;
    }
    pushChildren(element);
  }
}

/**
 * Takes a page's own noncharacters out of verbatim text (`unmark` would make them
 * backslashes).
 */
function stripMarks(element: DomElement): void {
  const text = element.textContent ?? '';
  if (!text.includes(MID_LINE_MARK) && !text.includes(ESCAPE_MARK)) return;
  walk(element, (node) => {
    for (let child = node.firstChild; child !== null; child = child.nextSibling) {
      if (child.nodeType === TEXT_NODE) child.textContent = withoutMarks(child.textContent ?? '');
    }
  });
}

/**
 * Joins runs of adjacent text nodes (split at character references), which Turndown escapes
 * one by one.
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

export function unmark(text: string): string {
  return text.includes(MID_LINE_MARK) || text.includes(ESCAPE_MARK)
    ? text.replace(MARKS, (mark) => (mark === ESCAPE_MARK ? '\\' : ''))
    : text;
}

export function withoutMarks(text: string): string {
  return text.replace(MARKS, '');
}
