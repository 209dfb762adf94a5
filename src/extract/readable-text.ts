/**
 * Whether a conversion yielded anything a reader could read: a letter or a digit in the
 * Markdown, or, for format html, in the page's visible text (scripts, styles and
 * templates are not visible, neither is markup; a <noscript> is, to a reader without
 * scripts). A page whose text a script would write has none, and is no success to
 * charge for.
 */
import type { ConvertOutput } from './types.js';

const READABLE = /[\p{L}\p{N}]/u;
/**
 * One token at a time, each character consumed once: text, a comment (to its end or the
 * page's), the opening tag of a hidden block, or any other tag (to its `>` or the end).
 */
const TOKEN = /[^<]+|<!--[\s\S]*?(?:-->|$)|<(script|style|template)(?=[\s>/])[^>]*>?|<[^>]*>?/giy;

export function hasReadableText(output: Pick<ConvertOutput, 'markdown' | 'html'>): boolean {
  return output.html === undefined ? READABLE.test(output.markdown) : htmlHasReadableText(output.html);
}

function htmlHasReadableText(html: string): boolean {
  const lower = html.toLowerCase();
  TOKEN.lastIndex = 0;
  while (TOKEN.lastIndex < html.length) {
    const token = TOKEN.exec(html);
    if (token === null) return false;
    if (token[0][0] !== '<') {
      if (READABLE.test(token[0])) return true;
    } else if (token[1] !== undefined) {
      // A hidden block runs to its closing tag; an unclosed one hides the rest, as in a browser.
      const end = lower.indexOf(`</${token[1].toLowerCase()}`, TOKEN.lastIndex);
      const after = end === -1 ? -1 : html.indexOf('>', end);
      if (after === -1) return false;
      TOKEN.lastIndex = after + 1;
    }
  }
  return false;
}
