/**
 * The closing line of a page read a slice at a time (max_chars / start_char; docs/decisions.md,
 * "Gaps in part 4 (endpoints)"), one wording for every text face: where the slice was cut and
 * how to read on, or that the page ends in it.
 */
import type { ExtractResult } from '../core/schemas.js';

/**
 * `[Cut at character B of N. For the rest <readOn(B)>.]`, or `[End of page: it has N
 * characters.]` for a slice that reaches the end; undefined when the page was not sliced
 * (or, with a query, only its passages are shown).
 */
export function sliceNote(
  result: Pick<ExtractResult, 'total_chars' | 'next_start_char' | 'passages' | 'markdown'>,
  readOn: (nextStartChar: number) => string,
): string | undefined {
  if (result.next_start_char !== undefined)
    return `[Cut at character ${result.next_start_char} of ${result.total_chars}. For the rest ${readOn(result.next_start_char)}.]`;
  // A slice that reaches the end (or starts past it, and is empty) says so: nothing is left to ask for.
  if (result.total_chars !== undefined && (result.passages === undefined || result.markdown !== ''))
    return `[End of page: it has ${result.total_chars} characters.]`;
  return undefined;
}
