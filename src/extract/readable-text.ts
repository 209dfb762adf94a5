/**
 * Whether a conversion yielded anything a reader could read: a letter or a digit in the
 * Markdown, or, for format html, in the page's visible text (scripts, styles and
 * templates are not visible, neither is markup; a <noscript> is, to a reader without
 * scripts). A page whose text a script would write has none, and is no success to
 * charge for.
 */
import type { ConvertOutput } from './types.js';

const READABLE = /[\p{L}\p{N}]/u;
const READABLE_ALL = /[\p{L}\p{N}]/gu;
/**
 * One token at a time, each character consumed once: text, a comment (to its end or the
 * page's), the opening tag of a hidden block, or any other tag (to its `>` or the end).
 */
const TOKEN =
  /[^<]+|<!--[\s\S]*?(?:-->|$)|<(script|style|template)(?=[\s>/])[^>]*>?|<(\/?)noscript(?=[\s>/])[^>]*>?|<[^>]*>?/giy;

export function hasReadableText(output: Pick<ConvertOutput, 'markdown' | 'html'>): boolean {
  if (output.html === undefined) return READABLE.test(output.markdown);
  let found = false;
  scanText(output.html, (text) => (found = READABLE.test(text)));
  return found;
}

/** How many letters and digits `text` holds, counted no further than `atMost`. */
export function countReadable(text: string, atMost = Number.POSITIVE_INFINITY): number {
  // A threshold test needs no array of every letter of a long page.
  READABLE_ALL.lastIndex = 0;
  let count = 0;
  while (count < atMost && READABLE_ALL.exec(text) !== null) count++;
  return count;
}

/**
 * The text of a page as two readers see it: `visible` with scripts running (no
 * <noscript>), `noscript` what only a reader without scripts gets. Linear, like the scan.
 */
export function pageText(html: string): { visible: string; noscript: string } {
  const visible: string[] = [];
  const noscript: string[] = [];
  scanText(html, (text, inNoscript) => {
    (inNoscript ? noscript : visible).push(text);
    return false;
  });
  return { visible: visible.join(' '), noscript: noscript.join(' ') };
}

/** Calls `visit` with each run of text a reader would see, until it returns true. */
function scanText(html: string, visit: (text: string, inNoscript: boolean) => boolean): void {
  const lower = html.toLowerCase();
  let inNoscript = false;
  TOKEN.lastIndex = 0;
  while (TOKEN.lastIndex < html.length) {
    const token = TOKEN.exec(html);
    if (token === null) return;
    if (token[0][0] !== '<') {
      if (visit(token[0], inNoscript)) return;
    } else if (token[1] !== undefined) {
      // A hidden block runs to its closing tag; an unclosed one hides the rest, as in a browser.
      const end = lower.indexOf(`</${token[1].toLowerCase()}`, TOKEN.lastIndex);
      const after = end === -1 ? -1 : html.indexOf('>', end);
      if (after === -1) return;
      TOKEN.lastIndex = after + 1;
    } else if (token[2] !== undefined) {
      inNoscript = token[2] === '';
    }
  }
}
