/**
 * Long runs of white space bounded before Turndown, whose final trim (`/[\t\r\n\s]+$/`) is
 * quadratic in each run it did not collapse: outside code to one space, in code to
 * MAX_VERBATIM_RUN. docs/extraction.md, "Long runs of white space".
 */

import type { DomElement, DomNode } from '../dom.js';
import { CDATA_SECTION_NODE, TEXT_NODE, VERBATIM_TAGS, nextInTree, tagOf, walk } from '../dom.js';
import { THRESHOLDS } from '../thresholds.js';

/** White space other than the space, tab and line breaks that Turndown collapses. */
const OTHER_SPACE = /[^\S \t\r\n]/;
const RUN = /\s{2,}/g;
// From the start of a run only (the look-behind): tried at every character, the pattern
// would cost the bound at each.
const LONG_RUN = new RegExp(`(?<!\\s)\\s{${THRESHOLDS.MAX_VERBATIM_RUN + 1},}`, 'g');
const ANY_LONG_RUN = new RegExp(`(?<!\\s)\\s{${THRESHOLDS.MAX_VERBATIM_RUN + 1}}`);
const ONLY_SPACE = /^\s+$/;
const WHITE_SPACE_CHAR = /\s/;

function boundedRun(run: string): string {
  const lastBreak = run.lastIndexOf('\n');
  const breaks = lastBreak === -1 ? 0 : (run.slice(0, lastBreak + 1).match(/\n/g)?.length ?? 0);
  const indentation = run.slice(lastBreak + 1);
  return '\n'.repeat(Math.min(breaks, THRESHOLDS.MAX_VERBATIM_RUN)) + indentation.slice(0, THRESHOLDS.MAX_VERBATIM_RUN);
}

function boundedProse(text: string): string {
  if (!OTHER_SPACE.test(text)) return text;
  if (ONLY_SPACE.test(text)) return ' ';
  return text.replace(RUN, (run) => (OTHER_SPACE.test(run) ? ' ' : run));
}

/** `text` as `element`'s, in its first text node (its elements stay, emptied). */
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
 * Inline code: each run cut to MAX_VERBATIM_RUN across its text nodes (a highlighter's
 * spans), its markup kept.
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
 * Bounds the runs of white space under `root`: prose a run of text nodes at a time (split
 * at each `&nbsp;`), a `<pre>` whole (as Turndown reads it), inline code across its nodes.
 */
export function boundWhiteSpaceRuns(root: DomElement): void {
  // Most pages have neither kind of run: one look at the whole text decides.
  const all = root.textContent ?? '';
  if (!OTHER_SPACE.test(all) && !ANY_LONG_RUN.test(all)) return;
  walk(root, (node) => {
    if (tagOf(node) === 'pre') {
      const code = node.textContent ?? '';
      if (ANY_LONG_RUN.test(code)) keepText(node, code.replace(LONG_RUN, boundedRun));
      return false;
    }
    if (VERBATIM_TAGS.has(tagOf(node))) {
      if (ANY_LONG_RUN.test(node.textContent ?? '')) boundAcross(node);
      return false;
    }
    for (let child = node.firstChild; child !== null; child = child.nextSibling) {
      if (child.nodeType !== TEXT_NODE) continue;
      const run: DomNode[] = [child];
      while (child.nextSibling !== null && child.nextSibling.nodeType === TEXT_NODE)
        run.push((child = child.nextSibling));
      const text = run.map((part) => part.textContent ?? '').join('');
      const next = boundedProse(text);
      if (next === text) continue;
      run[0]!.textContent = next;
      for (const part of run.slice(1)) part.remove();
      child = run[0]!;
    }
    return true;
  });
}
