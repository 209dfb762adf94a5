/**
 * The text block of an `extract_urls` result: readable Markdown for clients that do not
 * read `structuredContent`.
 */
import type { ExtractRequest, ExtractResponse, ExtractResult } from '../../../core/schemas.js';
import { renderPassages } from './render-passages.js';
import { linkItem } from '../../reader-text.js';
import { sliceNote } from '../../slice-note.js';

/** The options of a call that shape the document its offsets index, which a follow-up call must repeat. */
export type FollowUpOptions = Partial<
  Pick<
    ExtractRequest,
    'format' | 'stealth' | 'include_comments' | 'include_selectors' | 'exclude_selectors' | 'wait_for_selector'
  >
>;

/**
 * What a read-on call copies from the call it continues: start_char indexes the HTML with
 * format "html", the selected or trimmed Markdown with selectors, the Markdown and its
 * comments with include_comments, the rendered page with
 * wait_for_selector; stealth fetches (and caches) the page apart. Without them the next
 * slice would be cut from another document.
 */
export function followUpOptions(args: unknown): FollowUpOptions {
  const a = (typeof args === 'object' && args !== null ? args : {}) as Record<string, unknown>;
  return {
    ...(a.format === 'html' ? { format: 'html' as const } : {}),
    ...(a.stealth === true ? { stealth: true } : {}),
    ...(a.include_comments === true ? { include_comments: true } : {}),
    ...(Array.isArray(a.include_selectors) ? { include_selectors: a.include_selectors as string[] } : {}),
    ...(Array.isArray(a.exclude_selectors) ? { exclude_selectors: a.exclude_selectors as string[] } : {}),
    ...(typeof a.wait_for_selector === 'string' ? { wait_for_selector: a.wait_for_selector } : {}),
  };
}

// The wrapper is no heading: a page's own headings (# to ######) stay the only ones, and
// its content sits in <page_content> as in web_search's text. `facts`: more of them after
// the page's own (a site crawl's depth and parent).
export function renderExtractResult(
  result: ExtractResult,
  index: number,
  carry: FollowUpOptions,
  facts: readonly string[] = [],
): string {
  const heading = `**Page ${index + 1}: ${result.title ? `${result.title} — ` : ''}${result.url}**`;
  if (!result.success) {
    return `${heading}\n\n**Failed** (${result.error_type}, status ${result.status_code}): ${result.error ?? ''}`;
  }
  const lines = [heading, ''];
  const shown = [`status ${result.status_code}`];
  if (result.content_type) shown.push(result.content_type);
  if (result.page_type) shown.push(`page type ${result.page_type}`);
  if (result.final_url && result.final_url !== result.url) shown.push(`final URL ${result.final_url}`);
  if (result.published_at) shown.push(`published ${result.published_at}`);
  if (result.authors !== undefined) shown.push(`by ${result.authors.join(', ')}`);
  if (result.rendered) shown.push('rendered in a headless browser');
  if (result.content_source === 'selectors') shown.push('content from include_selectors');
  if (result.screenshot !== undefined) shown.push('screenshot attached as an image');
  shown.push(...facts);
  lines.push(`_${shown.join(' · ')}_`, '');
  // With a query the passages stand in place of the page; a max_chars slice still follows them.
  if (result.passages !== undefined) lines.push(renderPassages(result.url, result.passages, result.total_chars, carry));
  if (result.passages === undefined || result.markdown !== '')
    lines.push(...(result.passages ? [''] : []), '<page_content>', result.html ?? result.markdown, '</page_content>');
  const note = sliceNote(
    result,
    (next) =>
      `call extract_urls with ${JSON.stringify({ urls: [result.url], ...carry, start_char: next, max_chars: 30_000 })}`,
  );
  if (note !== undefined) lines.push('', note);
  if (result.links !== undefined) lines.push('', renderLinks(result.links, result.links_truncated === true));
  if (result.structured_data !== undefined) lines.push('', structuredDataBlock(result.structured_data));
  return lines.join('\n');
}

/** A page's structured data (include_structured_data) in a tool's text block, as JSON under the page: extract_urls', crawl_site's and web_search's. */
export function structuredDataBlock(data: NonNullable<ExtractResult['structured_data']>): string {
  return ['<structured_data>', JSON.stringify(data, null, 1), '</structured_data>'].join('\n');
}

/** Links shown in the text block; the structured result holds them all. */
const MAX_TEXT_LINKS = 200;

/** The page's links as a list, those inside the content marked; the text block shows at most MAX_TEXT_LINKS. */
function renderLinks(links: NonNullable<ExtractResult['links']>, truncated: boolean): string {
  const shown = links.slice(0, MAX_TEXT_LINKS);
  const lines = [`<page_links count="${links.length}${truncated ? '+' : ''}">`];
  for (const link of shown) lines.push(linkItem(link));
  if (links.length > shown.length) lines.push(`- … ${links.length - shown.length} more in the structured result`);
  // Cut by the page's 1000-link cap or by the output budget (links share it with the contents).
  if (truncated) lines.push('- … the list is cut (links_truncated): the page has more links than fit here');
  lines.push('</page_links>');
  return lines.join('\n');
}

/** `args`: the call's arguments, whose document-shaping options the read-on calls repeat. */
export function renderExtractMarkdown(response: ExtractResponse, args?: unknown): string {
  const carry = followUpOptions(args);
  const m = response.metadata;
  const summary = `Extracted ${m.successful_crawls} of ${m.total_urls} URL(s); ${m.failed_crawls} failed; ${m.credits_used} credit(s) used${m.cached_free ? `, ${m.cached_free} from cache` : ''}.`;
  return [summary, ...response.results.map((r, i) => renderExtractResult(r, i, carry))].join('\n\n');
}
