/**
 * Repeated items, the sign of a listing: the largest run of sibling cards built alike (same
 * tag and classes), each with a link and text, which `rank` compares with Readability's
 * pick.
 */

import type { DomElement } from '../dom.js';
import { childElements, tagOf, walk } from '../dom.js';
import type { TextStats } from '../text-stats.js';
import { THRESHOLDS } from '../thresholds.js';

/** Tag and sorted class list: siblings built alike share it. */
export function signature(element: DomElement): string {
  const classes = (element.getAttribute('class') ?? '').trim().split(/\s+/).sort().join('.');
  return `${tagOf(element)}.${classes}`;
}

/** Characters of text in the largest run of alike items under `root` (0 when none); `stats`: of `root`'s tree as it is. */
export function largestItemRun(root: DomElement, stats: Map<DomElement, TextStats>): number {
  let best = 0;
  walk(root, (element) => {
    const runs = new Map<string, { count: number; chars: number; linkChars: number }>();
    for (const child of childElements(element)) {
      const s = stats.get(child);
      if (s === undefined || s.chars < THRESHOLDS.MIN_ITEM_CHARS || s.links === 0) continue;
      const key = signature(child);
      const run = runs.get(key) ?? { count: 0, chars: 0, linkChars: 0 };
      run.count += 1;
      run.chars += s.chars;
      run.linkChars += s.linkChars;
      runs.set(key, run);
    }
    for (const run of runs.values())
      if (
        run.count >= THRESHOLDS.MIN_ITEMS &&
        run.linkChars >= THRESHOLDS.MIN_ITEM_LINK_SHARE * run.chars &&
        run.chars > best
      )
        best = run.chars;
  });
  return best;
}
