/**
 * Code blocks: a `<pre>`'s language from highlighters' class names or `data-lang`, recorded
 * before any stage (Readability strips classes); line-number gutters dropped.
 */

import type { DomDocument, DomElement } from '../dom.js';
import { childElements, descendants, tagOf } from '../dom.js';
import { LANGUAGE_MARK } from '../marks.js';

const CLASS_LANGUAGE = /(?:^|\s)(?:language|lang|highlight(?:-source|-text)?)-([A-Za-z0-9_+#.-]+)/;
const BRUSH_LANGUAGE = /(?:^|\s|;)brush\s*:\s*([A-Za-z0-9_+#.-]+)/;
/** Class values that name no language. */
const NOT_A_LANGUAGE: ReadonlySet<string> = new Set([
  'none',
  'plain',
  'plaintext',
  'text',
  'nohighlight',
  'undefined',
  'null',
]);

function languageOf(element: DomElement | null | undefined): string | undefined {
  if (!element) return undefined;
  const data = element.getAttribute('data-lang') ?? element.getAttribute('data-language');
  const cls = element.getAttribute('class') ?? '';
  const raw = data?.trim() || CLASS_LANGUAGE.exec(cls)?.[1] || BRUSH_LANGUAGE.exec(cls)?.[1];
  if (!raw || !/^[A-Za-z0-9_+#.-]{1,30}$/.test(raw)) return undefined;
  const language = raw.toLowerCase();
  return NOT_A_LANGUAGE.has(language) ? undefined : language;
}

/** Whether `text` is a run of consecutive line numbers (at least two): `1 2 3`, `10\n11`. */
function isLineNumberRun(text: string): boolean {
  const numbers = text.trim().split(/\s+/);
  if (numbers.length < 2 || !numbers.every((n) => /^\d{1,6}$/.test(n))) return false;
  return numbers.every((n, i) => i === 0 || Number(n) === Number(numbers[i - 1]) + 1);
}

/**
 * A line-number gutter: a `<pre>` of consecutive numbers in a table cell beside the code's
 * cell (Pygments, Chroma, Rouge); alone it would be a code block of bare numbers.
 */
function isGutter(pre: DomElement): boolean {
  const cell = pre.closest('td, th');
  if (cell === null || !isLineNumberRun(pre.textContent ?? '')) return false;
  const row = cell.parentElement;
  return row !== null && childElements(row).some((other) => other !== cell && other.querySelector('pre') !== null);
}

/** Records each pre's language on it; turns `<br>` inside pre into newlines; drops line-number gutters. */
export function annotateCodeBlocks(doc: DomDocument, root: DomElement): void {
  for (const pre of descendants(root, new Set(['pre']))) {
    for (const br of descendants(pre, new Set(['br']))) br.replaceWith(doc.createTextNode('\n'));
    if (isGutter(pre)) {
      pre.remove();
      continue;
    }
    const code = childElements(pre).find((el) => tagOf(el) === 'code');
    const language = languageOf(pre) ?? languageOf(code) ?? languageOf(pre.parentElement);
    if (language !== undefined) pre.setAttribute(LANGUAGE_MARK, language);
  }
}

/** A fence longer than any backtick run in the code (CommonMark 4.5). */
export function fenceFor(code: string): string {
  let longest = 0;
  for (const run of code.match(/`{3,}/g) ?? []) longest = Math.max(longest, run.length);
  return '`'.repeat(Math.max(3, longest + 1));
}
