/**
 * The text block of a `web_search` result: readable Markdown for clients that do not
 * read `structuredContent`.
 */
import type { SearchResponse, SearchResult } from '../../../core/schemas.js';
import { followUpOptions, structuredDataBlock, type FollowUpOptions } from './render-extract-markdown.js';
import { renderPassages } from './render-passages.js';

// The wrapper is no heading: the page content a result may carry keeps its own headings
// (# to ######) as the only ones, as in extract_urls' text. `carry`: what a read-on
// extract_urls call repeats (include_comments: the offsets index the page with its comments).
function renderResult(result: SearchResult, carry: FollowUpOptions): string {
  const lines = [`**${result.position}. [${result.title || result.url}](${result.url})**`];
  const facts = [`via ${result.engine}`];
  if (result.published_at) facts.push(`published ${result.published_at}`);
  lines.push(`_${result.url} · ${facts.join(' · ')}_`);
  if (result.snippet) lines.push('', result.snippet);
  if (result.content !== undefined) lines.push('', '<page_content>', result.content, '</page_content>');
  if (result.passages !== undefined) lines.push('', renderPassages(result.url, result.passages, undefined, carry));
  if (result.content_next_start_char !== undefined) {
    const next = JSON.stringify({
      urls: [result.url],
      ...carry,
      start_char: result.content_next_start_char,
      max_chars: 30_000,
    });
    lines.push(
      `[Content cut at character ${result.content_next_start_char} of ${result.content_total_chars}. For the rest call extract_urls with ${next}.]`,
    );
  }
  if (result.structured_data !== undefined) lines.push('', structuredDataBlock(result.structured_data));
  if (result.content_error !== undefined) lines.push('', `_Content not available: ${result.content_error}_`);
  return lines.join('\n');
}

/** `args`: the call's arguments (web_search's, or the command line's request body), whose include_comments the read-on calls repeat. */
export function renderSearchMarkdown(response: SearchResponse, args?: unknown): string {
  const carry = followUpOptions(args);
  const m = response.metadata;
  const head = [
    `Search: "${response.query}" — ${m.number_of_results} result(s), status ${m.status}${m.from_cache ? ' (from cache)' : ''}, ${m.credits_used} credit(s).`,
  ];
  if (m.content_requested !== undefined)
    head.push(`Page content delivered for ${m.content_delivered} of ${m.content_requested} result(s).`);
  for (const f of m.failed_engines ?? []) head.push(`Engine ${f.engine} failed: ${f.error} (${f.message})`);
  if (response.results.length === 0) head.push('No results: try other words, fewer filters or other engines.');
  return [head.join('\n'), ...response.results.map((r) => renderResult(r, carry))].join('\n\n');
}
