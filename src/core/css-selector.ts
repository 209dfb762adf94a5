/**
 * Whether a CSS selector can be matched: compiled by css-select, the engine linkedom
 * matches with (its `querySelectorAll`), so that a selector the request accepts is one the
 * extraction can run. Pure; no document needed.
 */
import { compile } from 'css-select';

/** Why `selector` cannot be matched, in a line; null when it can. */
export function cssSelectorProblem(selector: string): string | null {
  try {
    compile(selector);
    return null;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}
