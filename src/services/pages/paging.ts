/**
 * `max_chars` / `start_char` paging of long content
 * (docs/decisions.md, "Gaps in part 4 (endpoints)"). Offsets count UTF-16 code units, as
 * JavaScript strings do, but a cut never splits a surrogate pair.
 */

export interface Page {
  text: string;
  /** Length of the whole content (present when paging was asked for). */
  totalChars?: number;
  /** Where the next page starts (present when the content was cut). */
  nextStartChar?: number;
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

/** Moves an offset back by one when it would fall between the halves of a surrogate pair. */
function safeOffset(text: string, offset: number): number {
  if (offset > 0 && offset < text.length && isHighSurrogate(text.charCodeAt(offset - 1))) return offset - 1;
  return offset;
}

export function pageContent(text: string, startChar: number, maxChars: number | undefined): Page {
  if (maxChars === undefined && startChar === 0) return { text };
  const start = safeOffset(text, Math.min(startChar, text.length));
  let end = maxChars === undefined ? text.length : Math.min(text.length, start + maxChars);
  end = safeOffset(text, end);
  // A one-character window on a surrogate pair would otherwise never advance.
  if (end === start && start < text.length) end = Math.min(text.length, start + 2);
  const page: Page = { text: text.slice(start, end), totalChars: text.length };
  if (end < text.length) page.nextStartChar = end;
  return page;
}
