/**
 * Turndown escapes the characters that open a block construct (`-`, `+ `, `=`, `# `,
 * `~~~`, `>`, `1. `) at the start of every text node, because it does not know where a
 * line starts. Most text nodes start mid-line, after a link or bold text in the same
 * paragraph, where those characters open nothing (CommonMark 4 and 5: block markers count
 * only at the start of a line, after the container prefixes), so the Markdown read
 * `$\-0.07`, `see **this**\- or that`, `Zoom \> Window`.
 *
 * Before conversion, each text node that starts mid-line with one of those characters
 * gets MID_LINE_MARK in front of that character: Turndown's patterns, anchored at the
 * start of the node's text, then do not match, and markdown.ts takes the mark out of the
 * output. A text node starts mid-line when the line so far is SAFE: what is written on it
 * already holds a character no block marker or container prefix is made of (a letter,
 * say), or it opens with an emphasis delimiter (`**`, `_`), with no block boundary and no
 * `<br>` since, and only inline elements around. Text of digits and punctuation alone does
 * not make a line safe: `2` then `1. j` would read `21. j`, `1) ` then `- x` a list inside
 * a list item, `:` then `--` a table's delimiter row. Any element not known to be written
 * inline counts as a line break, so that an escape is only ever left out where it is
 * certainly not needed: a needless escape is harmless, a missing one changes what the
 * Markdown says.
 *
 * The same walk joins runs of adjacent text nodes (the parser leaves one wherever the
 * source has a character reference, and Turndown escapes each node on its own) and takes
 * out the invisible characters tidy.ts would remove afterwards (before, a zero-width space
 * hid a `- ` or a `<` from every escape, and tidy.ts then put it at the line's start).
 */

import type { DomElement, DomNode } from './dom.js';
import { ELEMENT_NODE, TEXT_NODE, tagOf } from './dom.js';
import { INVISIBLE } from './tidy.js';
import { isPermalinkSign } from './urls.js';

/** A Unicode noncharacter (never text a page means to show) marking a mid-line start. */
export const MID_LINE_MARK = '\uFDD0';
/** Another, standing for a backslash that escapes the marker after it (see LINE_START_MARKER). */
export const ESCAPE_MARK = '\uFDD1';
const MARKS = /[\uFDD0\uFDD1]/g;

/**
 * A block marker at the start of a text node on a line not yet safe, where Turndown's own
 * patterns miss it: after white space (`+` then ` > x` reads `+ > x`, a quote in a list
 * item), or with the space that completes it in the next node (`<span>#</span> Title`,
 * `1.` then ` - x`); also a `~` (`~` then `~~` open a fence). White space includes the
 * no-break space, which the rules' trimming takes away (`#&nbsp;` alone read as an empty
 * heading). Group 1 is what precedes the escape's place. `1.5` and `-5` are not markers;
 * Turndown's own escape still takes the latter.
 */
const LINE_START_MARKER = /^(\s*(?:\d{1,9}(?=[.)](?:\s|$)))?)(?:[.)]|-(?=[\s-]|$)|\+(?=\s|$)|=+\s*$|#{1,6}(?=\s|$)|>|~)/;

/**
 * Elements Turndown writes inline, as their content (with delimiters at most): the text
 * around them stays on one line. Every other element is taken for a line break. (`kbd`
 * and `samp` are ordinary inline elements to Turndown: their text is escaped as any.)
 */
export const INLINE_TAGS: ReadonlySet<string> = new Set([
  'a', 'abbr', 'acronym', 'b', 'bdi', 'bdo', 'big', 'cite', 'data', 'del', 'dfn', 'em', 'font', 'i', 'ins', 'kbd',
  'label', 'mark', 'nobr', 'q', 's', 'samp', 'small', 'span', 'strike', 'strong', 'sub', 'sup', 'time', 'tt', 'u', 'var',
]);

/**
 * The starts Turndown escapes (its patterns, after the white space it collapses away),
 * and `1) `, which markdown.ts escapes where Turndown does not. Not `~~~`: beside GFM
 * strikethrough's `~~` a bare run changes what the tildes pair with.
 */
const ESCAPED_START = /^[ \t\r\n]*(?:-|\+ |=|#{1,6} |>|\d+\. |\d{1,9}\) )/;

/**
 * A character that makes a line safe: not white space, not a digit, not ASCII
 * punctuation (which block markers, container prefixes and table rows are made of).
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

/**
 * Inside these, `delimit` may write emphasis without its delimiters: content with a line
 * that starts a fence (a code span of three backticks, `~~~` from strikethrough beside a
 * `~`), or a code block.
 */
const UNDELIMITING_TAGS: ReadonlySet<string> = new Set(['pre', 'textarea', 'code', 's', 'del', 'strike']);

/**
 * First characters of emphasis content that `delimit` may take for a block and leave
 * undelimited (a table row's `|`, a fence's `~`), or that need their escape anyway.
 */
const UNDELIMITING_FIRST: ReadonlySet<string> = new Set(['|', '~', '`']);

/**
 * A link Turndown drops though it has text: a symbol-only permalink (markdown.ts's link
 * rule). Its text is not on the line.
 */
function isDroppedLink(element: DomElement): boolean {
  const href = element.getAttribute('href')?.trim();
  return href !== undefined && isPermalinkSign(href, element.textContent ?? '');
}

/** What an emphasis element's delimiter depends on, per element, computed once. */
interface DelimiterFacts {
  /** A letter or digit in its text (outside dropped permalinks). */
  wordy: boolean;
  /** The first character of its text that is not white space ('' when none). */
  first: string;
  /** An element inside that can make `delimit` leave the delimiters out. */
  undelimiting: boolean;
}

/** Facts of every element under `root` (and of `root`), in one post-order walk. */
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
        stack.push({ element, next: element.firstChild, own: { wordy: false, first: '', undelimiting: UNDELIMITING_TAGS.has(tagOf(element)) } });
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

/**
 * Whether markdown.ts writes this emphasis element's delimiter before its first text: its
 * text shows a letter or digit, does not start with what `delimit` takes for a block,
 * nothing inside can make `delimit` leave the delimiters out, and no emphasis of its kind
 * is around it (that one's delimiter counts).
 */
function opensWithDelimiter(element: DomElement, kind: string, root: DomElement, facts: Map<DomElement, DelimiterFacts>): boolean {
  const own = facts.get(element);
  return own !== undefined && own.wordy && !own.undelimiting && !UNDELIMITING_FIRST.has(own.first) && !insideEmphasis(element, kind, root);
}

/**
 * Whether emphasis of the same `kind` (its delimiter) encloses `element` below `root`:
 * markdown.ts then writes no delimiters of its own for it (`**a **b** c**` would not read
 * back as bold).
 */
export function insideEmphasis(element: DomElement, kind: string, root: DomElement): boolean {
  return enclosedBy(element, root, (tag) => EMPHASIS_KIND.get(tag) === kind);
}

/** Whether an element whose tag `matches` encloses `element`, up to `root` (included). */
export function enclosedBy(element: DomElement, root: DomElement, matches: (tag: string) => boolean): boolean {
  if (element === root) return false;
  for (let up = element.parentElement; up !== null; up = up.parentElement) {
    if (matches(tagOf(up))) return true;
    if (up === root) return false;
  }
  return false;
}

/**
 * Joins the text runs, takes out invisible characters, and marks the text nodes under
 * `root` that start mid-line with a block marker (see above). `mark` false does all but
 * the marking, leaving Turndown's escaping as it is (the tests compare the two).
 */
export function markMidLineStarts(root: DomElement, mark = true): void {
  const facts = delimiterFacts(root);
  let lineSafe = false;
  // Safe only by an opening delimiter so far (no safe character yet).
  let afterDelimiter = false;
  // Iterative document-order walk; `exiting` frames break the line after a block element.
  const stack: { node: DomNode; exiting: boolean }[] = [];
  const pushChildren = (parent: DomElement): void => {
    mergeTextRuns(parent);
    for (let child = parent.lastChild; child !== null; child = child.previousSibling) stack.push({ node: child, exiting: false });
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
        // After an opening delimiter, what Turndown would leave unescaped (`1.` before a
        // line break) would make `delimit` take the content for a block and drop it.
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
      // Written as a code span (`x`), never escaped, on the line. A span opening the line
      // makes it safe unless its text holds a backtick: then the span's delimiter can be
      // three backticks, a fence.
      stripMarks(element);
      const code = element.textContent ?? '';
      if (!lineSafe && code.replace(INVISIBLE, '').trim() !== '' && !code.includes('`') && element.querySelector('a') === null) lineSafe = true;
      continue;
    }
    if (tag === 'a' && isDroppedLink(element)) continue;
    if (tag === 'pre' || tag === 'textarea') {
      // Verbatim: read whole by its rule, never escaped; a block of its own.
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
 * Takes the noncharacters a page itself carries out of verbatim text, which the walk does
 * not otherwise visit: `unmark`, run over the whole output, would turn one into a backslash.
 */
function stripMarks(element: DomElement): void {
  const text = element.textContent ?? '';
  if (!text.includes(MID_LINE_MARK) && !text.includes(ESCAPE_MARK)) return;
  const stack: DomNode[] = [element];
  while (stack.length > 0) {
    const node = stack.pop()!;
    for (let child = node.firstChild; child !== null; child = child.nextSibling) {
      if (child.nodeType === TEXT_NODE) child.textContent = withoutMarks(child.textContent ?? '');
      else if (child.nodeType === ELEMENT_NODE) stack.push(child);
    }
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

/**
 * Takes the marks out of Turndown's output (escaped text, and any text a rule read
 * itself): an escape mark becomes the backslash it stands for.
 */
export function unmark(text: string): string {
  return text.includes(MID_LINE_MARK) || text.includes(ESCAPE_MARK) ? text.replace(MARKS, (mark) => (mark === ESCAPE_MARK ? '\\' : '')) : text;
}

/** Takes the marks out of text written as it is (code, an image's alt before escaping). */
export function withoutMarks(text: string): string {
  return text.replace(MARKS, '');
}
