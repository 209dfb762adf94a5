/**
 * Last pass over the Markdown text: no trailing white space, at most one blank line in a
 * row (outside fenced code), no zero-width characters, no blank lines at either end.
 */

const FENCE = /^\s*(`{3,}|~{3,})/;
// An alternation, not a class: a class holding U+200D reads as one joined character.
export const INVISIBLE = /\u200b|\u200c|\u200d|\u2060|\ufeff|\u00ad/g;

/**
 * The fence open after `line` (CommonMark 4.5), given the one open before it (null outside
 * fenced code): a closing line has the opening's character, at least its length, and
 * nothing else. A line is code when a fence is open before it.
 */
export function fenceAfter(line: string, open: string | null): string | null {
  const marker = FENCE.exec(line)?.[1];
  if (open === null) return marker ?? null;
  return marker !== undefined && marker[0] === open[0] && marker.length >= open.length && line.trim() === marker
    ? null
    : open;
}

export function tidyMarkdown(markdown: string): string {
  const out: string[] = [];
  let fence: string | null = null;
  let blank = 0;
  for (const rawLine of markdown.replace(/\r\n?/g, '\n').replace(INVISIBLE, '').split('\n')) {
    const line = rawLine.trimEnd();
    const code = fence !== null;
    fence = fenceAfter(line, fence);
    if (code) {
      out.push(line);
      continue;
    }
    if (line.trim() === '') {
      blank++;
      if (blank === 1 && out.length > 0) out.push('');
      continue;
    }
    blank = 0;
    out.push(line);
  }
  while (out.length > 0 && out[out.length - 1] === '') out.pop();
  return out.join('\n');
}
