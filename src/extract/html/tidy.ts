/**
 * Last pass over the Markdown text: no trailing white space, no more than one blank line
 * in a row (outside fenced code, whose blank lines are the code's), no `<br>` left in table
 * rows (the GFM plugin writes one for a line break in a cell), no zero-width characters,
 * no blank lines at either end, no escapes of line-start characters in mid-line.
 */

const FENCE = /^\s*(`{3,}|~{3,})/;
// An alternation, not a class: a class holding U+200D reads as one joined character.
export const INVISIBLE = /\u200b|\u200c|\u200d|\u2060|\ufeff|\u00ad/g;

/**
 * Where a line's content starts: after indentation, quote markers, and a list item's or a
 * heading's marker.
 */
const LINE_PREFIX = /^[ \t]*(?:>[ \t]?)*[ \t]*(?:(?:[-*+]|\d{1,9}[.)])[ \t]+|#{1,6}[ \t]+)?/;
/** An escape that opens a line's content (there it keeps a list, heading or rule from forming). */
const OPENING_ESCAPE = /^(?:\\[-+=#>]|\d{1,9}\\\.)/;
/** Code spans, whose backslashes are the code's. */
const CODE_SPAN = /(?<!\\)(`+)[^`]*?\1/g;
/** Lines with more backticks than this keep their escapes (a bound on the code-span scan). */
const MAX_BACKTICKS = 1_000;

/**
 * Turndown escapes the characters that would open a block (`-`, `+`, `=`, `#`, `>`, a
 * number's `.`) at the start of every text node, which is mid-line as often as not:
 * `$\-0.07`, `**1\. High-protein**`, `**\# of heads**`. Mid-line they mark nothing, so the
 * backslash goes (outside code spans), except a `#` on a heading line (a closing sequence
 * there) and a `>` on a line with a `<` (`<Tale\>` would read as an HTML tag).
 */
function unescapeMidLine(line: string): string {
  if (!line.includes('\\')) return line;
  const prefix = LINE_PREFIX.exec(line)?.[0] ?? '';
  const content = line.slice(prefix.length);
  const opening = OPENING_ESCAPE.exec(content)?.[0] ?? '';
  const rest = content.slice(opening.length);
  if (!rest.includes('\\') || (rest.match(/`/g)?.length ?? 0) > MAX_BACKTICKS) return line;
  const kept = `${/#/.test(prefix) ? '#' : ''}${line.includes('<') ? '>' : ''}`;
  const unescape = (text: string): string =>
    text.replace(/\\([-+=#>])|(\d)\\\./g, (whole, char: string | undefined, digit: string | undefined) =>
      char === undefined ? `${digit}.` : kept.includes(char) ? whole : char,
    );
  let out = '';
  let last = 0;
  for (const span of rest.matchAll(CODE_SPAN)) {
    out += unescape(rest.slice(last, span.index)) + span[0];
    last = span.index + span[0].length;
  }
  return prefix + opening + out + unescape(rest.slice(last));
}

export function tidyMarkdown(markdown: string): string {
  const out: string[] = [];
  let fence: string | null = null;
  let blank = 0;
  for (const rawLine of markdown.replace(/\r\n?/g, '\n').replace(INVISIBLE, '').split('\n')) {
    let line = rawLine.trimEnd();
    const marker = FENCE.exec(line)?.[1];
    if (fence !== null) {
      if (marker !== undefined && marker[0] === fence[0] && marker.length >= fence.length && line.trim() === marker) fence = null;
      out.push(line);
      continue;
    }
    if (marker !== undefined) fence = marker;
    if (line.trim() === '') {
      blank++;
      if (blank === 1 && out.length > 0) out.push('');
      continue;
    }
    blank = 0;
    if (line.startsWith('|')) line = line.replace(/(?:\s*<br>\s*)+/g, ' ').trimEnd();
    out.push(unescapeMidLine(line));
  }
  while (out.length > 0 && out[out.length - 1] === '') out.pop();
  return out.join('\n');
}
