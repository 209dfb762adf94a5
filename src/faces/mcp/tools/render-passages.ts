/**
 * The passages of one page in a tool's text block (extract_urls with query, web_search
 * with content_mode "passages"): each under its headings with its offsets, then how to
 * read on, since the passages are all an agent sees of the page.
 */
import type { PassageResult } from '../../../core/schemas.js';

function renderPassage(passage: PassageResult): string {
  const where = passage.heading_path.length > 0 ? ` section="${passage.heading_path.join(' › ')}"` : '';
  const lines = [`<passage start_char="${passage.start_char}" end_char="${passage.end_char}"${where}>`];
  if (passage.lead_in !== undefined) {
    // A table's header rows run straight on into its rows; a list's lead-in line is marked as cut.
    lines.push(passage.lead_in.includes('\n') ? passage.lead_in : `${passage.lead_in}\n…`);
  }
  lines.push(passage.text, '</passage>');
  return lines.join('\n');
}

/** `url`'s passages, and the call that reads on after the last one (or the whole page when none matched). */
/** `carry`: options the read-on call must repeat (those of the extract_urls call the passages came from). */
export function renderPassages(
  url: string,
  passages: PassageResult[],
  totalChars: number | undefined,
  carry: object = {},
): string {
  const size = totalChars !== undefined ? ` of ${totalChars} characters` : '';
  if (passages.length === 0) {
    const whole = JSON.stringify({ urls: [url], ...carry, max_chars: 30_000 });
    return `_No passage of this page${size} matches the query. To read it whole call extract_urls with ${whole}._`;
  }
  // The example call reads on after the last passage that does not end the page: reading
  // from the page's end answers an empty slice.
  const open = passages.filter((p) => totalChars === undefined || p.end_char < totalChars);
  const from = open[open.length - 1];
  const endsPage = open.length < passages.length ? ' The last passage ends the page.' : '';
  const readOn =
    from === undefined
      ? '[This passage ends the page.]'
      : `[To read on after a passage call extract_urls with its end_char as start_char, e.g. ${JSON.stringify({ urls: [url], ...carry, start_char: from.end_char, max_chars: 3_000 })}.${endsPage}]`;
  return [
    `The ${passages.length} passage(s) of this page${size} that best match the query, in page order:`,
    '',
    ...passages.map(renderPassage),
    '',
    readOn,
  ].join('\n');
}
