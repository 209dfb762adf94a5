/**
 * Whether the page controls can use a CSS selector: one rule for include_selectors,
 * exclude_selectors and wait_for_selector (docs/decisions.md, "Page controls"). Chromium's
 * querySelector must read it (wait_for_selector runs there), and css-select, the engine
 * linkedom's `querySelectorAll` matches include/exclude with on the server, must run it,
 * so that a selector means the same on every field; and its shape must stay within
 * SELECTOR_LIMITS (standard-css-selector.ts). Pure; no document needed.
 */
import { compile } from 'css-select';
import { standardSelectorProblem } from './standard-css-selector.js';

/** Why a page control cannot use `selector`, in a line that names the part or the limit; null when it can. */
export function cssSelectorProblem(selector: string): string | null {
  const problem = standardSelectorProblem(selector);
  if (problem !== null) return `${problem.kind}: ${problem.message}`;
  try {
    compile(selector);
    return null;
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return `css-select, which matches the selectors on the server, cannot run it: ${reason}`;
  }
}
