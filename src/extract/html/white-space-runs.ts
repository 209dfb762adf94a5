/**
 * Long runs of white space, bounded before Turndown sees them. Turndown trims its output
 * with `/[\t\r\n\s]+$/`, which a regular-expression engine tries from every position of
 * every run of white space: the cost grows with the square of the longest run. Turndown
 * collapses ordinary spaces, tabs and newlines outside `<pre>` first, but not the other
 * white space (`&nbsp;`, the Unicode spaces) nor anything inside `<pre>`: 50,000 `&nbsp;`
 * in one paragraph took 2.6 s, 100,000 took 8 s, and a 10 MB page of them would hold the
 * process for hours. So, before conversion:
 *
 * - outside verbatim elements, a run of two or more white-space characters that holds a
 *   no-break or other Unicode space becomes one space, and a text of white space alone
 *   that holds one becomes a plain space, which Turndown then collapses with its
 *   neighbours (`<i>&nbsp;</i>` repeated 50,000 times). A single `&nbsp;` between two words
 *   ("10&nbsp;km") stays;
 * - inside verbatim elements (`<pre>`, `<code>`, ...), where white space is the layout of
 *   code, a run of more than MAX_VERBATIM_RUN characters keeps at most that many line
 *   breaks and that many characters of the indentation that follows the last one.
 *
 * A reader loses nothing: a browser shows such runs as blank space.
 */

import type { DomElement, DomNode } from './dom.js';
import { CDATA_SECTION_NODE, TEXT_NODE, VERBATIM_TAGS, isElement, nextInTree, tagOf } from './dom.js';
import { THRESHOLDS } from './thresholds.js';


/** White space other than the space, tab and line breaks that Turndown collapses. */
const OTHER_SPACE = /[^\S \t\r\n]/;
const RUN = /\s{2,}/g;
// From the start of a run only (the look-behind): tried at every character of a run, the
// pattern would cost the bound at each of them.
const LONG_RUN = new RegExp(`(?<!\\s)\\s{${THRESHOLDS.MAX_VERBATIM_RUN + 1},}`, 'g');
const ANY_LONG_RUN = new RegExp(`(?<!\\s)\\s{${THRESHOLDS.MAX_VERBATIM_RUN + 1}}`);
const ONLY_SPACE = /^\s+$/;
const WHITE_SPACE_CHAR = /\s/;

/** A run of white space in code, bounded: its line breaks, then the last line's indentation. */
function boundedRun(run: string): string {
  const lastBreak = run.lastIndexOf('\n');
  const breaks = lastBreak === -1 ? 0 : (run.slice(0, lastBreak + 1).match(/\n/g)?.length ?? 0);
  const indentation = run.slice(lastBreak + 1);
  return '\n'.repeat(Math.min(breaks, THRESHOLDS.MAX_VERBATIM_RUN)) + indentation.slice(0, THRESHOLDS.MAX_VERBATIM_RUN);
}

/** Text outside code with its runs that hold other white space made one space. */
function boundedProse(text: string): string {
  if (!OTHER_SPACE.test(text)) return text;
  if (ONLY_SPACE.test(text)) return ' ';
  return text.replace(RUN, (run) => (OTHER_SPACE.test(run) ? ' ' : run));
}

/** `text` as the text of `element`, in its first text node (its elements stay, emptied). */
function keepText(element: DomElement, text: string): void {
  let first: DomNode | null = null;
  for (let node = nextInTree(element, element, false); node !== null; node = nextInTree(node, element, false)) {
    if (node.nodeType !== TEXT_NODE && node.nodeType !== CDATA_SECTION_NODE) continue;
    if (first === null) first = node;
    else node.textContent = '';
  }
  if (first !== null) first.textContent = text;
}

/**
 * Inline code (`<code>`, `<kbd>` outside a `<pre>`): each run of white space cut to
 * MAX_VERBATIM_RUN characters across the text nodes it spans (a highlighter's spans, a
 * hostile page's thousands of one-space `<span>`s), its markup (links) left in place.
 */
function boundAcross(element: DomElement): void {
  let run = 0;
  for (let node = nextInTree(element, element, false); node !== null; node = nextInTree(node, element, false)) {
    if (node.nodeType !== TEXT_NODE && node.nodeType !== CDATA_SECTION_NODE) continue;
    const text = node.textContent ?? '';
    let out = '';
    let cut = false;
    for (const char of text) {
      if (!WHITE_SPACE_CHAR.test(char)) {
        run = 0;
        out += char;
      } else if (run++ < THRESHOLDS.MAX_VERBATIM_RUN) {
        out += char;
      } else {
        cut = true;
      }
    }
    if (cut) node.textContent = out;
  }
}

/**
 * Bounds the runs of white space in the text under `root` (see the module comment). Text
 * is read a run of adjacent text nodes at a time (the parser splits text at each
 * `&nbsp;`); a `<pre>` is read whole (Turndown takes a code block's text whole, across
 * the spans of a highlighter) and, when it holds a long run, keeps its text in one node;
 * inline code is bounded across its text nodes and keeps its markup (boundAcross).
 */
export function boundWhiteSpaceRuns(root: DomElement): void {
  // Most pages have neither kind of run: one look at the whole text decides.
  const all = root.textContent ?? '';
  if (!OTHER_SPACE.test(all) && !ANY_LONG_RUN.test(all)) return;
  const stack: DomNode[] = [root];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (isElement(node) && tagOf(node) === 'pre') {
      const code = node.textContent ?? '';
      if (ANY_LONG_RUN.test(code)) keepText(node, code.replace(LONG_RUN, boundedRun));
      continue;
    }
    if (isElement(node) && VERBATIM_TAGS.has(tagOf(node))) {
      if (ANY_LONG_RUN.test(node.textContent ?? '')) boundAcross(node);
      continue;
    }
    for (let child = node.firstChild; child !== null; child = child.nextSibling) {
      if (isElement(child)) {
        stack.push(child);
        continue;
      }
      if (child.nodeType !== TEXT_NODE) continue;
      const run: DomNode[] = [child];
      while (child.nextSibling !== null && child.nextSibling.nodeType === TEXT_NODE) run.push((child = child.nextSibling));
      const text = run.map((part) => part.textContent ?? '').join('');
      const next = boundedProse(text);
      if (next === text) continue;
      run[0]!.textContent = next;
      for (const part of run.slice(1)) part.remove();
      child = run[0]!;
    }
  }
}
