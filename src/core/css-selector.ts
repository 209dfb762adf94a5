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

/**
 * What css-select matches but a browser's querySelector refuses (each checked against
 * Chromium): its jQuery-style pseudo-classes, a combinator with nothing on one side, and an
 * attribute compared with an empty unquoted value. wait_for_selector runs in the browser.
 */
const CSS_SELECT_ONLY_PSEUDOS =
  /:(contains|icontains|matches|selected|checkbox|file|password|radio|reset|image|submit|parent|header|button|input|text)(?![-\w])/i;

/**
 * Whether a combinator (>, +, ~) has no selector on one side: the selector or its group
 * ends on one, or one begins it outside `:has(`, where a relative selector may.
 */
function danglingCombinator(bare: string): boolean {
  const relative: boolean[] = [];
  let last: 'start' | 'combinator' | 'selector' = 'start';
  for (let i = 0; i < bare.length; i++) {
    const ch = bare[i] as string;
    if (/\s/.test(ch)) continue;
    if (ch === '>' || ch === '+' || ch === '~') {
      if (last === 'start' && relative.at(-1) !== true) return true;
      last = 'combinator';
    } else if (ch === ',' || ch === '(' || ch === ')') {
      if (last === 'combinator') return true;
      if (ch === '(') relative.push(/:has$/i.test(bare.slice(0, i)));
      if (ch === ')') relative.pop();
      last = ch === ')' ? 'selector' : 'start';
    } else last = 'selector';
  }
  return last === 'combinator';
}

/** Why the headless browser cannot wait for `selector`, in a line; null when it can. */
export function browserSelectorProblem(selector: string): string | null {
  const problem = cssSelectorProblem(selector);
  if (problem !== null) return problem;
  // Escaped characters and quoted strings hold no syntax.
  const bare = selector.replace(/\\[\s\S]/g, '_').replace(/"[^"]*"|'[^']*'/g, '""');
  if (/=\s*\]/.test(bare)) return 'an attribute value after = is empty (quote it: [name=""])';
  const pseudo = CSS_SELECT_ONLY_PSEUDOS.exec(bare);
  if (pseudo !== null) return `:${pseudo[1]} is an extension of css-select that browsers do not support`;
  // Attribute tests (~= is no combinator) and An+B arguments (+ is none there) aside.
  const structure = bare.replace(/\[[^\]]*\]/g, '[]').replace(/(:nth-[\w-]+)\([^)]*\)/gi, '$1()');
  if (danglingCombinator(structure)) return 'a combinator (>, + or ~) needs a selector on each side';
  return null;
}
