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
 *   that holds one (adjacent text nodes read as one) becomes a plain space (which Turndown then collapses with its
 *   neighbours: `<i>&nbsp;</i>` repeated 50,000 times). A single `&nbsp;` between two
 *   words ("10&nbsp;km") stays;
 * - inside verbatim elements (`<pre>`, `<code>`, ...), where white space is the layout of
 *   code, a run longer than MAX_VERBATIM_RUN characters is cut to that length.
 *
 * A reader loses nothing: a browser shows such runs as blank space.
 */

import type { DomElement, DomNode } from './dom.js';
import { TEXT_NODE, VERBATIM_TAGS, isElement, tagOf } from './dom.js';

/** Longest run of white space kept inside code (indentation never comes near it). */
export const MAX_VERBATIM_RUN = 256;

/** White space other than the space, tab and line breaks that Turndown collapses. */
const OTHER_SPACE = /[^\S \t\r\n]/;
const RUN = /\s{2,}/g;
const LONG_RUN = new RegExp(`\\s{${MAX_VERBATIM_RUN + 1},}`, 'g');
const ONLY_SPACE = /^\s+$/;
const ANY_LONG_RUN = new RegExp(`\\s{${MAX_VERBATIM_RUN + 1}}`);

function bounded(text: string, verbatim: boolean): string {
  if (verbatim) return text.length > MAX_VERBATIM_RUN ? text.replace(LONG_RUN, (run) => run.slice(0, MAX_VERBATIM_RUN)) : text;
  if (!OTHER_SPACE.test(text)) return text;
  if (ONLY_SPACE.test(text)) return ' ';
  return text.replace(RUN, (run) => (OTHER_SPACE.test(run) ? ' ' : run));
}

/** Bounds the runs of white space in the text under `root` (see the module comment). */
export function boundWhiteSpaceRuns(root: DomElement): void {
  // Most pages have neither kind of run: one look at the whole text decides.
  const all = root.textContent ?? '';
  if (!OTHER_SPACE.test(all) && !ANY_LONG_RUN.test(all)) return;
  const stack: [DomNode, boolean][] = [[root, VERBATIM_TAGS.has(tagOf(root))]];
  while (stack.length > 0) {
    const [node, verbatim] = stack.pop()!;
    for (let child = node.firstChild; child !== null; child = child.nextSibling) {
      if (isElement(child)) {
        stack.push([child, verbatim || VERBATIM_TAGS.has(tagOf(child))]);
        continue;
      }
      if (child.nodeType !== TEXT_NODE) continue;
      // Adjacent text nodes read as one (the parser splits text at each `&nbsp;`).
      const run: DomNode[] = [child];
      while (child.nextSibling !== null && child.nextSibling.nodeType === TEXT_NODE) run.push((child = child.nextSibling));
      const text = run.map((part) => part.textContent ?? '').join('');
      const next = bounded(text, verbatim);
      if (next === text) continue;
      run[0]!.textContent = next;
      for (const part of run.slice(1)) part.remove();
      child = run[0]!;
    }
  }
}
