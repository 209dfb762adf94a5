/**
 * The caller's CSS selectors (`include_selectors`, `exclude_selectors`), matched with
 * linkedom's own engine (css-select), the one the request's validation compiles them with
 * (core/css-selector.ts), under the conversion's budget of steps (selector-budget.ts):
 * excluded elements are removed before any pass reads the page; included ones, in page
 * order and each once (a match inside another is part of it), become the whole body.
 */

import type { DomElement } from '../dom.js';
import { walk } from '../dom.js';
import { closestPasses, compileSelector, descendantsPassing, type MatchBudget } from './selector-budget.js';

/** The elements of `root` (itself or an ancestor included) that match any of `selectors`, outermost only, in page order. */
export function outermostMatches(root: DomElement, selectors: readonly string[], budget: MatchBudget): DomElement[] {
  const matched = new Set<DomElement>();
  for (const selector of selectors) {
    const test = compileSelector(selector, root, budget);
    // The root inside a match (`body`, `html`, `:root`) is matched whole.
    if (closestPasses(root, test)) return [root];
    for (const element of descendantsPassing(root, test, budget)) matched.add(element);
  }
  if (matched.size === 0) return [];
  const out: DomElement[] = [];
  walk(root, (element) => {
    if (!matched.has(element)) return true;
    out.push(element);
    return false;
  });
  return out;
}

/** Removes every element of `body` that matches one of `selectors`. */
export function removeMatching(body: DomElement, selectors: readonly string[], budget: MatchBudget): void {
  for (const element of outermostMatches(body, selectors, budget)) {
    // The body itself stays: a selector that names it leaves nothing to extract, not a broken tree.
    if (element === body) {
      while (body.firstChild !== null) body.firstChild.remove();
    } else element.remove();
  }
}

/** Makes the outermost matches of `selectors` the body's only children, in page order; how many there were. */
export function keepOnlyMatching(body: DomElement, selectors: readonly string[], budget: MatchBudget): number {
  const kept = outermostMatches(body, selectors, budget);
  if (kept.length === 1 && kept[0] === body) return 1;
  for (const element of kept) element.remove();
  while (body.firstChild !== null) body.firstChild.remove();
  for (const element of kept) body.appendChild(element);
  return kept.length;
}
