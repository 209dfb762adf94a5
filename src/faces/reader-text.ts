/**
 * A page as a person reads it, for the command line's `extract` and the `GET /r/` reader:
 * its title and source (and page type), then its Markdown, or with a query the passages
 * that answer it, each after its offsets into the whole Markdown and its section; and
 * its links (include_links) as a list to put under it, and its structured data
 * (include_structured_data) as JSON.
 */
import type { ExtractResult } from '../core/schemas.js';

export type PageLink = NonNullable<ExtractResult['links']>[number];

export function readerText(result: ExtractResult): string {
  const header = [`Title: ${result.title ?? '(none)'}`, `URL: ${result.final_url ?? result.url}`];
  if (result.page_type) header.push(`Page type: ${result.page_type}`);
  if (result.authors !== undefined) header.push(`Authors: ${result.authors.join(', ')}`);
  const body = result.passages !== undefined ? passagesText(result) : (result.html ?? result.markdown);
  const data = result.structured_data === undefined ? '' : `\n${structuredDataText(result.structured_data)}\n`;
  return `${header.join('\n')}\n\n${body}\n${data}`;
}

/** The page's structured data (include_structured_data) as a section of JSON to follow the content. */
export function structuredDataText(data: NonNullable<ExtractResult['structured_data']>): string {
  return ['## Structured data', '', '```json', JSON.stringify(data, null, 2), '```'].join('\n');
}

/** The passages, with what reads on from each (`start_char`), or a line saying none matched. */
function passagesText(result: ExtractResult): string {
  const passages = result.passages ?? [];
  const size = result.total_chars !== undefined ? ` of ${result.total_chars} characters` : '';
  if (passages.length === 0) return `(no passage of this page${size} matches the query)`;
  const shown = passages.map((p) => {
    const section = p.heading_path.length > 0 ? ` ${p.heading_path.join(' › ')}` : '';
    const leadIn = p.lead_in !== undefined ? `${p.lead_in}\n…\n` : '';
    return `[${p.start_char}-${p.end_char}${size}]${section}\n${leadIn}${p.text}`;
  });
  // A max_chars slice asked for beside the query follows the passages.
  if (result.markdown !== '') shown.push(`---\n\n${result.markdown}`);
  return shown.join('\n\n');
}

/** One link as a Markdown list item, its text as the label (the URL when it has none), marked when inside the content. */
export function linkItem(link: PageLink): string {
  const label = link.text.replace(/[[\]]/g, '').trim();
  return `- ${link.in_content ? '(in content) ' : ''}[${label === '' ? link.url : label}](${link.url})`;
}

/**
 * The page's links (include_links) as a "Links" section to follow the content: each a
 * Markdown link with its text; `truncated` (links_truncated) says the page has more.
 */
export function linksText(links: readonly PageLink[], truncated = false): string {
  const lines = ['## Links', ''];
  if (links.length === 0) lines.push('(none)');
  else lines.push(...links.map(linkItem));
  if (truncated) lines.push('', `(the page has more links than these ${links.length})`);
  return lines.join('\n');
}
